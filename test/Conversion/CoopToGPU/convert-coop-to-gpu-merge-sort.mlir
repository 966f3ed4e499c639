// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// A block of 4 threads x 2 keys with values: each thread orders its pair
// (one compare and swap), then 2 merge rounds; each stores the keys, a
// barrier, a merge-path search (2 steps for runs of 2 keys, 3 for 4) and a
// serial merge, then the values follow through the same scratch between
// two barriers; a barrier starts the second round. Scratch: 9 i64 values
// (72 bytes) in a union with 9 i32 keys.
// CHECK-LABEL: gpu.func @block
// CHECK: memref.get_global @__coop_scratch_block : memref<80xi8
// CHECK: %[[KEYS:.*]] = memref.view %{{.*}} to memref<18xi32
// CHECK: %[[VALUES:.*]] = memref.view %{{.*}} to memref<9xi64
// CHECK: arith.cmpi slt
// CHECK-COUNT-2: memref.store %{{.*}}, %[[KEYS]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[KEYS]]
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[VALUES]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[VALUES]]
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[KEYS]]
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @block {
  gpu.func @block(%k: memref<2xi32>, %v: memref<2xi64>) kernel
      attributes {known_block_size = array<i32: 4, 1, 1>} {
    %b = coop.this_block
    coop.merge_sort %b, %k values = %v : memref<2xi64> into %k values_into %v : memref<2xi64> : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// Logical warps of 8 lanes with a compare function, descending: the
// function is called with its arguments swapped; each logical warp sorts in
// its own region (65 keys a stride) and synchronizes by warp barriers only.
// CHECK-LABEL: gpu.func @warps
// CHECK: func.call @less(%{{.*}}, %{{.*}}) : (f32, f32) -> i1
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: gpu.barrier
gpu.module @warps {
  func.func private @less(f32, f32) -> i1
  gpu.func @warps(%k: memref<8xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.merge_sort %l, %k into %k compare = @less descending : !coop.group<threads_within_warp, 8>, memref<8xf32>, memref<8xf32>
    gpu.return
  }
}
