// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// A 5-bit descending rank over one warp: 16 lanes of packed 16-bit counters
// and a padding lane (17 x 32 words, no warp totals). Each thread zeroes its
// column, counts its keys' flipped digits in it, a barrier, rakes its 17
// words, one warp scan, writes its segment's prefixes back (the low halves'
// total shifted into the high halves), a barrier, then reads each key's
// counter and its bin's prefix from thread 0's column.
// CHECK-LABEL: gpu.func @rank
// CHECK: memref.get_global @__coop_scratch_rank : memref<2176xi8
// CHECK: %[[WORDS:.*]] = memref.view %{{.*}} to memref<544xi32
// CHECK: %[[HALVES:.*]] = memref.view %{{.*}} to memref<1088xi16
// CHECK-COUNT-17: memref.store %c0_i32, %[[WORDS]]
// CHECK: arith.subi %c31_i32
// CHECK: memref.load %[[HALVES]]
// CHECK: arith.addi %{{.*}}, %c1_i16 : i16
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK: gpu.barrier
// CHECK-COUNT-17: memref.load %[[WORDS]]
// CHECK: shfl.sync.up.b32
// CHECK: arith.shli %{{.*}}, %c16_i32 : i32
// CHECK-COUNT-17: memref.store %{{.*}}, %[[WORDS]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.store %{{.*}}, %arg1[%c1] : memref<2xi32>
// CHECK: memref.load %[[HALVES]]
// CHECK: memref.store %{{.*}}, %arg2[%c0] : memref<1xi32>
// CHECK-NOT: gpu.barrier
gpu.module @rank {
  gpu.func @rank(%k: memref<2xi8>, %r: memref<2xi32>, %p: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.radix_rank %b, %k into %r digit_prefix = %p : memref<1xi32> begin_bit = 2 radix_bits = 5 descending : !coop.group<block>, memref<2xi8>, memref<2xi32>
    gpu.return
  }
}

// -----

// Float keys with int32 values over 128 threads: bit-ordered keys, then a
// loop of 4-bit passes over the 32 bits. A pass after the first waits for
// the one before; -0.0's digit is +0.0's; the rank's two barriers; a barrier;
// keys and values (4 KiB of the rank's 4.5 KiB) scatter side by side, one
// barrier, and read back in blocked order.
// CHECK-LABEL: gpu.func @pairs
// CHECK: memref.get_global @__coop_scratch_pairs : memref<4624xi8
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[KEYS:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<512xi32
// CHECK: %[[VALUES:.*]] = memref.view %{{.*}}[%c2048][] : {{.*}} to memref<512xi32
// CHECK: scf.for %[[BIT:.*]] = %c0_i32 to %c32_i32 step %c4_i32 iter_args
// CHECK: scf.if
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi eq, %{{.*}}, %c2147483647_i32
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.store %{{.*}}, %[[VALUES]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[KEYS]]
// CHECK: memref.load %[[VALUES]]
// CHECK: scf.yield
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT: gpu.barrier
gpu.module @pairs {
  gpu.func @pairs(%k: memref<4xf32>, %o: memref<4xf32>, %v: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.radix_sort %b, %k values = %v : memref<4xi32> into %o values_into %v : memref<4xi32> : !coop.group<block>, memref<4xf32>, memref<4xf32>
    gpu.return
  }
}

// -----

// An argsort of int16 keys over a runtime bit range (clamped to the key's
// 16 bits; at least one pass, as CUB's loop), striped after the last pass,
// with a partial tile: keys past valid_items take the last digit
// (0xFFFF), the values are the keys' blocked positions, and the last pass
// reads back striped slots.
// CHECK-LABEL: gpu.func @argsort
// CHECK: arith.xori %{{.*}}, %c-32768_i16 : i16
// CHECK: arith.cmpi slt
// CHECK: arith.select %{{.*}}, %{{.*}}, %c-1_i16 : i16
// CHECK: arith.maxsi
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4_i32 iter_args
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: scf.yield
gpu.module @argsort {
  gpu.func @argsort(%k: memref<2xi16>, %o: memref<2xi16>, %i: memref<2xi32>, %lo: index, %hi: index, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.radix_sort %b, %k into %o values_into %i : memref<2xi32> begin_bit = %lo end_bit = %hi valid_items = %n blocked_to_striped : !coop.group<block>, memref<2xi16>, memref<2xi16>
    gpu.return
  }
}
