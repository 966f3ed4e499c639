// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// A window of 2 items a thread, 2 runs a thread over 64 threads: the
// lengths (i8) widen to the i32 offsets; the scratch holds the 128 run
// values and a run of 0 (where positions past the stream's end fall), their
// 130 offsets from a 16-byte boundary (the zero run's the stream's length,
// then a sentinel, all ones) and the two warps' sums; the scan's barrier,
// the runs stored, a barrier that also ORs whether a thread has a
// zero-length run; the first item's run by a branchless binary search of 7
// steps (128 runs, probes 64, 32, ..., 1 past the base) and the zero run
// where it is past the stream's end; the second's by a forward walk where
// the block has a zero-length run, else by one comparison; no other item
// compares with the stream's length.
// CHECK-LABEL: gpu.func @window
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK: arith.ori %[[EMPTY]], %{{.*}} : i1
// CHECK: %[[VALUES:.*]] = memref.view %{{.*}}[%c0][] : memref<1056xi8, #gpu.address_space<workgroup>> to memref<129xf32
// CHECK: %[[OFFSETS:.*]] = memref.view %{{.*}}[%c528][] : memref<1056xi8, #gpu.address_space<workgroup>> to memref<130xi32
// CHECK: memref.view %{{.*}}[%c1048][] : memref<1056xi8, #gpu.address_space<workgroup>> to memref<2xi32
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[OFFSETS]]
// CHECK: scf.if
// CHECK: memref.store %cst, %[[VALUES]][%c128]
// CHECK: memref.store %[[TOTAL:.*]], %[[OFFSETS]][%c128]
// CHECK: memref.store %c-1_i32, %[[OFFSETS]][%c129]
// CHECK: %[[ANY:.*]] = nvvm.barrier #nvvm.reduction<or> %{{.*}} -> i32
// CHECK: %[[WALK:.*]] = arith.cmpi ne, %[[ANY]], %c0_i32
// CHECK: arith.select %{{.*}}, %c64_i32, %c0_i32
// CHECK-COUNT-6: arith.select
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %c128_i32
// CHECK: scf.if %[[WALK]] -> (i32)
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: } else {
// CHECK-NOT: scf.while
// CHECK: arith.select
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[TOTAL]]
// CHECK: memref.load %[[VALUES]]
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[TOTAL]]
// CHECK: memref.load %[[VALUES]]
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg2[%c1] : memref<2xf32>
gpu.module @window {
  gpu.func @window(%v: memref<2xf32>, %l: memref<2xi8>, %o: memref<2xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %t = coop.run_length_decode %b, %v, %l into %o offset = %n decoded_items_per_thread = 2 : !coop.group<block>, memref<2xf32>, memref<2xi8>, memref<2xf32> -> i32
    gpu.return
  }
}

// -----

// The whole stream into an array: one window of T*D items an iteration up
// to the stream's length or the array's room past the offset, each item
// stored where it fits; 64-bit offsets.
// CHECK-LABEL: gpu.func @into
// CHECK: memref.dim
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %arg2[
// CHECK-NOT: gpu.barrier
gpu.module @into {
  gpu.func @into(%v: memref<1xi32>, %l: memref<1xi32>, %d: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    %t = coop.run_length_decode %b, %v, %l destination = %d : memref<?xi32> decoded_items_per_thread = 1 : !coop.group<block>, memref<1xi32>, memref<1xi32> -> i64
    gpu.return
  }
}
