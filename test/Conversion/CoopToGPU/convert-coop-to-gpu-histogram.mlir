// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// Fresh counters, 200 bins over 128 threads (2 stripes, the second partial):
// unsigned samples compare once in 32 bits against the bins and the valid
// items; the 200 counters and a spare one past them (804 bytes of scratch)
// are zeroed by stripe (the partial one by a predicated store; the spare,
// never read, is not), a barrier, one unpredicated shared atomic increment
// a sample (the spare counter for a sample not counted; its address taken
// before the zeroing), a barrier, then each thread reads its stripes (the
// partial one clamped and selected).
// CHECK-LABEL: gpu.func @fresh
// CHECK: memref.get_global @__coop_scratch_fresh : memref<804xi8
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.cmpi ult, %{{.*}}, %c200_i32 : i32
// CHECK: %[[COUNTERS:.*]] = memref.view %{{.*}} to memref<201xi32
// CHECK-COUNT-4: arith.select %{{.*}}, %{{.*}}, %c200 : index
// CHECK: memref.store %c0_i32, %[[COUNTERS]]
// CHECK: @p st.shared.b32
// CHECK: gpu.barrier
// CHECK-COUNT-4: "red.shared.add.u32 [$0], $1;"
// CHECK-NOT: @p red.shared
// CHECK: gpu.barrier
// CHECK: memref.load %[[COUNTERS]]
// CHECK: arith.minui
// CHECK: memref.load %[[COUNTERS]]
// CHECK: arith.select
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1[%c1] : memref<2xi32>
gpu.module @fresh {
  gpu.func @fresh(%s: memref<4xi8>, %c: memref<2xi32>, %n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.histogram %b, %s into %c bins = 200 unsigned valid_items = %n : !coop.group<block>, memref<4xi8>, memref<2xi32>
    gpu.return
  }
}

// -----

// A shared array: no scratch; a barrier, the samples' atomics into the
// array, a barrier.
// CHECK-LABEL: gpu.func @shared_out
// CHECK-NOT: memref.view
// CHECK: gpu.barrier
// CHECK-COUNT-2: "red.shared.add.u64 [$0], $1;", "l,l,~{memory}" %{{.*}}, %c1_i64
// CHECK: @p red.shared.add.u64 [$0], $1;
// CHECK: gpu.barrier
// CHECK-NOT: red.
gpu.module @shared_out {
  gpu.func @shared_out(%s: memref<2xi32>, %h: memref<64xi64, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.histogram %b, %s out = %h : memref<64xi64, #gpu.address_space<workgroup>> bins = 64 : !coop.group<block>, memref<2xi32>
    gpu.return
  }
}

// -----

// A global array: the block counts in scratch (int32 samples may fall
// outside the bins: 130 counters and the spare), then each thread adds each
// of its non-zero counters by one atomic (3 stripes of 64 threads for 130
// bins): `red.global` where the array is in global memory (isspacep, one
// uniform branch), else a generic `red` (a shared array passed through a
// call that was not inlined).
// CHECK-LABEL: gpu.func @global_out
// CHECK: memref.view %{{.*}} to memref<131xi32
// CHECK: arith.select %{{.*}}, %{{.*}}, %c130 : index
// CHECK: gpu.barrier
// CHECK: "red.shared.add.u32 [$0], $1;"
// CHECK-NOT: @p red.shared
// CHECK: gpu.barrier
// CHECK: isspacep.global
// CHECK: scf.if
// CHECK-COUNT-3: @p red.global.add.u32 [$0], $1;
// CHECK: } else {
// CHECK-COUNT-3: @p red.add.u32 [$0], $1;
// CHECK-NOT: gpu.barrier
gpu.module @global_out {
  gpu.func @global_out(%x: i32, %h: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.histogram %b, %x out = %h : memref<?xi32> bins = 130 : !coop.group<block>, i32
    gpu.return
  }
}

// -----

// The sort algorithm into a shared array of 100 bins at 64 threads: after
// the runs' bounds, each thread adds its first stripe's count to its bin;
// the second stripe (bins 64..99) only where the thread has a bin: no thread
// reads a bin another thread writes.
// CHECK-LABEL: gpu.func @sort_shared_out
// CHECK: gpu.barrier
// CHECK: memref.load %arg1[%thread_id_x]
// CHECK: memref.store %{{.*}}, %arg1[%thread_id_x]
// CHECK: scf.if %{{.*}} {
// CHECK: memref.load %arg1[%[[SECOND:.*]]]
// CHECK: memref.store %{{.*}}, %arg1[%[[SECOND]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
gpu.module @sort_shared_out {
  gpu.func @sort_shared_out(%s: memref<2xi32>, %h: memref<100xi32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.histogram %b, %s out = %h : memref<100xi32, #gpu.address_space<workgroup>> bins = 100 algorithm = sort : !coop.group<block>, memref<2xi32>
    gpu.return
  }
}
