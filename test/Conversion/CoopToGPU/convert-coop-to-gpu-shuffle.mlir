// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// BlockShuffle up: each thread publishes its last item; item 0 comes from
// the previous thread, or fill in thread 0.
// CHECK-LABEL: gpu.func @shuffle_up
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[I0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[I1:.*]] = memref.load %arg0[%c1]
// CHECK: memref.store %[[I1]], %[[VIEW:.*]][%[[TID]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi uge, %[[TID]], %c1
// CHECK: %[[PREV:.*]] = arith.subi %[[TID]], %c1
// CHECK: %[[V:.*]] = scf.if %[[FIRST]] -> (f32) {
// CHECK-NEXT: %[[L:.*]] = memref.load %[[VIEW]][%[[PREV]]]
// CHECK-NEXT: scf.yield %[[L]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK: memref.store %[[V]], %arg1[%c0]
// CHECK: memref.store %[[I0]], %arg1[%c1]
gpu.module @shuffle_up {
  gpu.func @shuffle_up(%in: memref<2xf32>, %out: memref<2xf32>, %fill: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.shuffle %b, %in into %out mode = up fill = %fill : f32 : !coop.group<block>, memref<2xf32>, memref<2xf32>
    gpu.return
  }
}

// -----

// BlockShuffle rotate: (rank + distance) mod 64, for either sign.
// CHECK-LABEL: gpu.func @shuffle_rotate
// CHECK: %[[SRC:.*]] = arith.addi %{{.*}}, %arg1
// CHECK: %[[REM:.*]] = arith.remsi %[[SRC]], %c64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %c0
// CHECK: %[[UP:.*]] = arith.addi %[[REM]], %c64
// CHECK: %[[SLOT:.*]] = arith.select %[[NEG]], %[[UP]], %[[REM]]
// CHECK: memref.load %{{.*}}[%[[SLOT]]]
gpu.module @shuffle_rotate {
  gpu.func @shuffle_rotate(%x: i64, %d: index, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %r = coop.shuffle %b, %x mode = rotate distance = %d : !coop.group<block>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// up with block_suffix: after the barrier every thread reads the last
// thread's published item (its last); down with block_prefix: the first
// thread's (its first).
// CHECK-LABEL: gpu.func @shuffle_edges
// CHECK: memref.store %{{.*}}, %[[VIEW:.*]][%{{.*}}]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[SUFFIX:.*]] = memref.load %[[VIEW]][%c63]
// CHECK: memref.store %[[SUFFIX]], %arg2[%c0]
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[PREFIX:.*]] = memref.load %[[VIEW]][%c0]
// CHECK: memref.store %[[PREFIX]], %arg2[%c1]
gpu.module @shuffle_edges {
  gpu.func @shuffle_edges(%in: memref<2xf32>, %out: memref<2xf32>, %dst: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %suffix = coop.shuffle %b, %in into %out mode = up block_suffix : !coop.group<block>, memref<2xf32>, memref<2xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %suffix, %dst[%c0] : memref<2xf32>
    %prefix = coop.shuffle %b, %in into %out mode = down block_prefix : !coop.group<block>, memref<2xf32>, memref<2xf32> -> f32
    %c1 = arith.constant 1 : index
    memref.store %prefix, %dst[%c1] : memref<2xf32>
    gpu.return
  }
}
