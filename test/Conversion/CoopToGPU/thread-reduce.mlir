// RUN: coop-opt %s -split-input-file --convert-coop-to-gpu=sm=90 --cse | FileCheck %s
// RUN: coop-opt %s -split-input-file --convert-coop-to-gpu --cse | FileCheck %s --check-prefix=NOSM

// A thread's items fold as CUB's ThreadReduce (CCCL 3.5) folds them, so a
// float sum rounds as CUB's: named operators over items of under 8 bytes as
// a binary tree (a[j] = a[j] op a[j + i], i = 1, 2, 4, ...).
// CHECK-LABEL: gpu.func @float_sum_is_a_binary_tree
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[X1:.*]] = memref.load %arg0[%c1]
// CHECK: %[[X2:.*]] = memref.load %arg0[%c2]
// CHECK: %[[X3:.*]] = memref.load %arg0[%c3]
// CHECK: %[[X4:.*]] = memref.load %arg0[%c4]
// CHECK: %[[A:.*]] = arith.addf %[[X0]], %[[X1]]
// CHECK: %[[B:.*]] = arith.addf %[[X2]], %[[X3]]
// CHECK: %[[C:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: arith.addf %[[C]], %[[X4]]
gpu.module @float_sum_is_a_binary_tree {
  gpu.func @float_sum_is_a_binary_tree(%in: memref<5xf32>, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = coop.this_thread
    %r = coop.reduce %t, %in op = sum : !coop.group<thread>, memref<5xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// __half items pair up as __half2 from 4 items on (sm_70 for sums, sm_80
// for min and max): the even and the odd items fold as the two lanes, then
// the lanes combine. Without a known target, a binary tree.
// CHECK-LABEL: gpu.func @half_sum_folds_pairs
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[X1:.*]] = memref.load %arg0[%c1]
// CHECK: %[[X2:.*]] = memref.load %arg0[%c2]
// CHECK: %[[X3:.*]] = memref.load %arg0[%c3]
// CHECK: %[[E:.*]] = arith.addf %[[X0]], %[[X2]]
// CHECK: %[[O:.*]] = arith.addf %[[X1]], %[[X3]]
// CHECK: arith.addf %[[E]], %[[O]]
// NOSM-LABEL: gpu.func @half_sum_folds_pairs
// NOSM: %[[X0:.*]] = memref.load %arg0[%c0]
// NOSM: %[[X1:.*]] = memref.load %arg0[%c1]
// NOSM: %[[X2:.*]] = memref.load %arg0[%c2]
// NOSM: %[[X3:.*]] = memref.load %arg0[%c3]
// NOSM: %[[A:.*]] = arith.addf %[[X0]], %[[X1]]
// NOSM: %[[B:.*]] = arith.addf %[[X2]], %[[X3]]
// NOSM: arith.addf %[[A]], %[[B]]
gpu.module @half_sum_folds_pairs {
  gpu.func @half_sum_folds_pairs(%in: memref<4xf16>, %dst: memref<1xf16>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = coop.this_thread
    %r = coop.reduce %t, %in op = sum : !coop.group<thread>, memref<4xf16> -> f16
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf16>
    gpu.return
  }
}

// -----

// In order: 8-byte items, a function operator, integer sums of 6 items or
// more, and any fold of the first valid_items (ThreadReducePartial).
// CHECK-LABEL: gpu.func @in_order
// CHECK: %[[D0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[D1:.*]] = memref.load %arg0[%c1]
// CHECK: %[[D2:.*]] = memref.load %arg0[%c2]
// CHECK: %[[D3:.*]] = memref.load %arg0[%c3]
// CHECK: %[[DA:.*]] = arith.addf %[[D0]], %[[D1]]
// CHECK: %[[DB:.*]] = arith.addf %[[DA]], %[[D2]]
// CHECK: arith.addf %[[DB]], %[[D3]]
// CHECK: %[[F0:.*]] = memref.load %arg1[%c0]
// CHECK: %[[F1:.*]] = memref.load %arg1[%c1]
// CHECK: %[[F2:.*]] = memref.load %arg1[%c2]
// CHECK: %[[FA:.*]] = func.call @first(%[[F0]], %[[F1]])
// CHECK: func.call @first(%[[FA]], %[[F2]])
// CHECK-COUNT-6: memref.load %arg2
// CHECK-COUNT-5: arith.addi
// CHECK: memref.load %arg0[%c0]
// CHECK: arith.cmpi sgt
// CHECK: arith.addf
// CHECK: arith.select
gpu.module @in_order {
  func.func private @first(%a: f32, %b: f32) -> f32 {
    return %a : f32
  }
  gpu.func @in_order(%d: memref<4xf64>, %f: memref<3xf32>, %i: memref<6xi32>, %n: index,
                     %out: memref<4xf64>, %fo: memref<1xf32>, %io: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = coop.this_thread
    %a = coop.reduce %t, %d op = sum : !coop.group<thread>, memref<4xf64> -> f64
    %b = coop.reduce %t, %f combiner = @first : !coop.group<thread>, memref<3xf32> -> f32
    %c = coop.reduce %t, %i op = sum : !coop.group<thread>, memref<6xi32> -> i32
    %p = coop.reduce %t, %d op = sum valid_items = %n : !coop.group<thread>, memref<4xf64> -> f64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %a, %out[%c0] : memref<4xf64>
    memref.store %p, %out[%c1] : memref<4xf64>
    memref.store %b, %fo[%c0] : memref<1xf32>
    memref.store %c, %io[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// 32-bit integer min and max of 6 items or more on sm_90 fold three at a
// time (ThreadReduceTernaryTree: sm_90's three-input min and max).
// CHECK-LABEL: gpu.func @int_max_is_a_ternary_tree
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[X1:.*]] = memref.load %arg0[%c1]
// CHECK: %[[X2:.*]] = memref.load %arg0[%c2]
// CHECK: %[[X3:.*]] = memref.load %arg0[%c3]
// CHECK: %[[X4:.*]] = memref.load %arg0[%c4]
// CHECK: %[[X5:.*]] = memref.load %arg0[%c5]
// CHECK: %[[P:.*]] = arith.cmpi slt, %[[X0]], %[[X1]]
// CHECK: %[[A:.*]] = arith.select %[[P]], %[[X1]], %[[X0]]
// CHECK: %[[Q:.*]] = arith.cmpi slt, %[[A]], %[[X2]]
// CHECK: %[[B:.*]] = arith.select %[[Q]], %[[X2]], %[[A]]
// CHECK: %[[R:.*]] = arith.cmpi slt, %[[X3]], %[[X4]]
// CHECK: %[[C:.*]] = arith.select %[[R]], %[[X4]], %[[X3]]
// CHECK: %[[S:.*]] = arith.cmpi slt, %[[C]], %[[X5]]
// CHECK: %[[D:.*]] = arith.select %[[S]], %[[X5]], %[[C]]
// CHECK: arith.cmpi slt, %[[B]], %[[D]]
// NOSM-LABEL: gpu.func @int_max_is_a_ternary_tree
// NOSM: %[[X0:.*]] = memref.load %arg0[%c0]
// NOSM: %[[X1:.*]] = memref.load %arg0[%c1]
// NOSM: %[[X2:.*]] = memref.load %arg0[%c2]
// NOSM: %[[X3:.*]] = memref.load %arg0[%c3]
// NOSM: %[[P:.*]] = arith.cmpi slt, %[[X0]], %[[X1]]
// NOSM: %[[A:.*]] = arith.select %[[P]], %[[X1]], %[[X0]]
// NOSM: %[[Q:.*]] = arith.cmpi slt, %[[X2]], %[[X3]]
gpu.module @int_max_is_a_ternary_tree {
  gpu.func @int_max_is_a_ternary_tree(%in: memref<6xi32>, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = coop.this_thread
    %r = coop.reduce %t, %in op = max : !coop.group<thread>, memref<6xi32> -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}
