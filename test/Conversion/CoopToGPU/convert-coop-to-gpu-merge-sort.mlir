// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// A block of 4 threads x 2 keys with values: each thread orders its pair
// (one compare and swap), then a loop of 2 merge rounds; a round after the
// first waits for the one before, stores the keys, a barrier, a merge-path
// binary search (an scf.while) and a serial merge, then the values follow
// through the same scratch between two barriers. Scratch: 9 i64 values (72
// bytes) in a union with 9 i32 keys.
// CHECK-LABEL: gpu.func @block
// CHECK: memref.get_global @__coop_scratch_block : memref<72xi8
// CHECK: %[[KEYS:.*]] = memref.view %{{.*}} to memref<18xi32
// CHECK: %[[VALUES:.*]] = memref.view %{{.*}} to memref<9xi64
// CHECK: arith.cmpi slt
// CHECK: scf.for %{{.*}} = %c1_i32 to %c3_i32 step %c1_i32 iter_args
// CHECK: scf.if
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[KEYS]]
// CHECK: gpu.barrier
// CHECK: scf.while
// CHECK: memref.load %[[KEYS]]
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[VALUES]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[VALUES]]
// CHECK: scf.yield
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
