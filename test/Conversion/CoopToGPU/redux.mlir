// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu=sm=90 --cse | FileCheck %s
// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s --check-prefix=NOSM

// From sm_80, a whole warp's 32-bit integer sum is one redux.sync (CUB's
// WarpReduceShfl for int on sm_80+), which every lane gets; lane 0 of each
// warp publishes it. Without a target: five butterflies.
// CHECK-LABEL: gpu.func @block_sum_i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.redux.sync add %{{.*}}, %c-1_i32 : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.barrier
// NOSM-LABEL: gpu.func @block_sum_i32
// NOSM-NOT: nvvm.redux.sync
// NOSM-COUNT-5: nvvm.shfl.sync  bfly
gpu.module @block_sum_i32 {
  gpu.func @block_sum_i32(%in: memref<2xi32>, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = sum : !coop.group<block>, memref<2xi32> -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// A partial tile: the threads past the valid ones take max's identity, so
// every warp reduces whole (one redux.sync) and no later step counts valid
// threads. Past four warps, warp 0 combines the warp aggregates itself
// (thread 0's result, no broadcast): lane w reads warp w's slot (clamped to
// the last one), lanes past the last warp take the identity, and one
// redux.sync folds them -- exact in any order for integers. Without a
// target, five butterflies fold them.
// CHECK-LABEL: gpu.func @block_partial_max_8_warps
// CHECK: %[[THREADS:.*]] = arith.divui
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %{{.*}}, %[[THREADS]] : i32
// CHECK: %[[MINE:.*]] = arith.select %[[HAS]], %{{.*}}, %c-2147483648_i32 : i32
// CHECK-NEXT: nvvm.redux.sync  max %[[MINE]], %c-1_i32 : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.barrier
// CHECK: %[[WARP0:.*]] = arith.cmpi eq, %[[WARP:.*]], %c0_i32 : i32
// CHECK: scf.if %[[WARP0]] -> (i32) {
// CHECK: %[[SLOT:.*]] = arith.minui %[[LANE:.*]], %c7_i32 : i32
// CHECK: %[[AT:.*]] = arith.index_cast %[[SLOT]] : i32 to index
// CHECK: %[[AGG:.*]] = memref.load %{{.*}}[%[[AT]]]
// CHECK: %[[COUNTED:.*]] = arith.cmpi ult, %[[LANE]], %c8_i32 : i32
// CHECK: %[[V:.*]] = arith.select %[[COUNTED]], %[[AGG]], %c-2147483648_i32 : i32
// CHECK: nvvm.redux.sync  max %[[V]], %c-1_i32 : i32 -> i32
// NOSM-LABEL: gpu.func @block_partial_max_8_warps
// NOSM: gpu.barrier
// NOSM: scf.if %{{.*}} -> (i32) {
// NOSM: memref.load
// NOSM-NOT: memref.load
// NOSM-COUNT-5: nvvm.shfl.sync  bfly
// NOSM: scf.yield
gpu.module @block_partial_max_8_warps {
  gpu.func @block_partial_max_8_warps(%in: memref<2xi32>, %n: index, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = max valid_items = %n : !coop.group<block>, memref<2xi32> -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// Logical warps of 8 lanes: each lane's redux.sync names its own group's
// lanes (0xff shifted to the group's first lane), as CUB's member_mask.
// CHECK-LABEL: gpu.func @warp_umax
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %c-8_i32
// CHECK: %[[GROUP:.*]] = arith.shli %c255_i32, %[[FIRST]]
// CHECK: nvvm.redux.sync umax %arg0, %[[GROUP]] : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
gpu.module @warp_umax {
  gpu.func @warp_umax(%x: i32, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.reduce %l, %x op = max unsigned : !coop.group<threads_within_warp, 8>, i32 -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// Floats and partial tiles keep the butterflies (64-bit integers: below).
// CHECK-LABEL: gpu.func @warp_sum_f32
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
gpu.module @warp_sum_f32 {
  gpu.func @warp_sum_f32(%x: f32, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = sum : !coop.group<warp>, f32 -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// An integer exclusive sum takes each lane's exclusive prefix as inclusive
// minus input (WarpScanShfl's Update for integer sums): five up-shuffles, no
// sixth.
// CHECK-LABEL: gpu.func @warp_scans_exclusive_sum
// CHECK-COUNT-5: shfl.sync.up.b32
// CHECK-NOT: shfl.sync.up.b32
// CHECK-NOT: nvvm.shfl.sync  up
// CHECK: arith.subi
// CHECK-NOT: nvvm.shfl.sync  up
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.shfl.sync  up
gpu.module @warp_scans_exclusive_sum {
  gpu.func @warp_scans_exclusive_sum(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// A 32-bit integer block scan by warp_scans of two or more whole warps
// takes each warp's prefix as one masked redux.sync of the warp aggregates:
// lane l reads warp l's slot (clamped to the last), lanes at or past the
// thread's warp take the identity. Warp 0's prefix is then the identity, so
// no select on the warp number follows, and there is no index shuffle. The
// block's total, when asked for, is a second redux.sync over the lanes below
// the warp count. Without a target, past four warps the aggregates are
// scanned by up-shuffles and the prefix is an index shuffle; up to four,
// every thread folds them (CUB's ApplyWarpAggregates).
// CHECK-LABEL: gpu.func @block_scan_by_warp_prefix
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK: gpu.barrier
// CHECK: %[[SLOT:.*]] = arith.minui %[[LANE]], %c7_i32 : i32
// CHECK: %[[AT:.*]] = arith.index_cast %[[SLOT]] : i32 to index
// CHECK: %[[AGG:.*]] = memref.load %{{.*}}[%[[AT]]]
// CHECK: %[[BEFORE:.*]] = arith.cmpi ult, %[[LANE]], %[[WARP]] : i32
// CHECK: %[[V:.*]] = arith.select %[[BEFORE]], %[[AGG]], %c0_i32 : i32
// CHECK: %[[PREFIX:.*]] = nvvm.redux.sync  add %[[V]], %c-1_i32 : i32 -> i32
// CHECK-NOT: nvvm.redux.sync
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK-NOT: arith.cmpi uge, %[[WARP]], %c1_i32
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @block_scan_by_warp_total
// CHECK: gpu.barrier
// CHECK: %[[AGG:.*]] = memref.load
// CHECK: %[[COUNTED:.*]] = arith.cmpi ult, %{{.*}}, %c8_i32 : i32
// CHECK: %[[ALL:.*]] = arith.select %[[COUNTED]], %[[AGG]], %c-2147483648_i32 : i32
// CHECK: nvvm.redux.sync  max %[[ALL]], %c-1_i32 : i32 -> i32
// CHECK: nvvm.redux.sync  max
// CHECK-NOT: nvvm.redux.sync
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @block_scan_by_warp_two_warps
// CHECK: gpu.barrier
// CHECK: arith.minui %{{.*}}, %c1_i32 : i32
// CHECK: memref.load
// CHECK: nvvm.redux.sync  max
// CHECK-NOT: nvvm.redux.sync
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK: gpu.return
// NOSM-LABEL: gpu.func @block_scan_by_warp_prefix
// NOSM: gpu.barrier
// NOSM-NOT: nvvm.redux.sync
// NOSM: nvvm.shfl.sync  idx
// NOSM-LABEL: gpu.func @block_scan_by_warp_total
// NOSM: gpu.barrier
// NOSM-NOT: nvvm.redux.sync
// NOSM-COUNT-2: nvvm.shfl.sync  idx
// NOSM-LABEL: gpu.func @block_scan_by_warp_two_warps
// NOSM: gpu.barrier
// NOSM-COUNT-2: memref.load
// NOSM-NOT: nvvm.redux.sync
// NOSM-NOT: nvvm.shfl.sync
// NOSM: gpu.return
gpu.module @block_scan_by_warp {
  gpu.func @block_scan_by_warp_prefix(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
  gpu.func @block_scan_by_warp_total(%in: memref<2xi32>, %out: memref<2xi32>, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %t = coop.scan %b, %in into %out mode = inclusive op = max algorithm = warp_scans aggregate : !coop.group<block>, memref<2xi32>, memref<2xi32> -> i32
    %c0 = arith.constant 0 : index
    memref.store %t, %dst[%c0] : memref<1xi32>
    gpu.return
  }
  gpu.func @block_scan_by_warp_two_warps(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = max algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// A 64-bit integer sum of a whole warp: three redux.syncs over pieces of 21,
// 21 and 22 bits (a piece's sum over 32 lanes fits 27 bits), recombined
// modulo 2^64; a bitwise operator one a word. max has no 64-bit form:
// butterflies; nor do logical warps take the pieces (three reduxes a group
// mask ran slower than butterflies). Without a target, butterflies
// throughout.
// CHECK-LABEL: gpu.func @warp_sum_i64
// CHECK: %[[LOWBITS:.*]] = arith.andi %[[X:.*]], %c2097151_i64 : i64
// CHECK: %[[LOW:.*]] = arith.trunci %[[LOWBITS]] : i64 to i32
// CHECK: nvvm.redux.sync  add %[[LOW]], %c-1_i32 : i32 -> i32
// CHECK: %[[MIDSHIFT:.*]] = arith.shrui %[[X]], %c21_i64 : i64
// CHECK: %[[MIDBITS:.*]] = arith.andi %[[MIDSHIFT]], %c2097151_i64 : i64
// CHECK: %[[MID:.*]] = arith.trunci %[[MIDBITS]] : i64 to i32
// CHECK: nvvm.redux.sync  add %[[MID]], %c-1_i32 : i32 -> i32
// CHECK: %[[HIGHSHIFT:.*]] = arith.shrui %[[X]], %c42_i64 : i64
// CHECK: %[[HIGH:.*]] = arith.trunci %[[HIGHSHIFT]] : i64 to i32
// CHECK: nvvm.redux.sync  add %[[HIGH]], %c-1_i32 : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @warp_xor_i64
// CHECK-COUNT-2: nvvm.redux.sync  xor
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @warp_max_i64
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-10: nvvm.shfl.sync  bfly
// CHECK-LABEL: gpu.func @logical_warp_sum_i64
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-6: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.redux.sync
// CHECK: gpu.return
// NOSM-LABEL: gpu.func @warp_sum_i64
// NOSM-NOT: nvvm.redux.sync
// NOSM-COUNT-10: nvvm.shfl.sync  bfly
gpu.module @warp_i64 {
  gpu.func @warp_sum_i64(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = sum : !coop.group<warp>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
  gpu.func @warp_xor_i64(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = bit_xor : !coop.group<warp>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
  gpu.func @warp_max_i64(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = max : !coop.group<warp>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
  gpu.func @logical_warp_sum_i64(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.reduce %l, %x op = sum : !coop.group<threads_within_warp, 8>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// 8- and 16-bit integers reduce as 32-bit ones: one redux.sync of the word
// widened, truncated back. Signed min and max compare it sign-extended;
// sums (a sum over 32 lanes fits 32 bits, and truncation wraps it as the
// narrow add would), unsigned min and max and bitwise operators
// zero-extended. A block scan's warp prefix takes one from two warps on, as
// 32-bit integers do. Without a target, butterflies of the widened word.
// CHECK-LABEL: gpu.func @warp_sum_i8
// CHECK: %[[WORD:.*]] = arith.extui %arg0 : i8 to i32
// CHECK: %[[SUM:.*]] = nvvm.redux.sync  add %[[WORD]], %c-1_i32 : i32 -> i32
// CHECK: arith.trunci %[[SUM]] : i32 to i8
// CHECK-NOT: nvvm.shfl.sync
// CHECK-LABEL: gpu.func @warp_min_i16
// CHECK: %[[SIGNED:.*]] = arith.extsi %arg0 : i16 to i32
// CHECK: %[[MIN:.*]] = nvvm.redux.sync  min %[[SIGNED]], %c-1_i32 : i32 -> i32
// CHECK: arith.trunci %[[MIN]] : i32 to i16
// CHECK-NOT: nvvm.shfl.sync
// CHECK-LABEL: gpu.func @logical_warp_umax_i8
// CHECK: %[[GROUP:.*]] = arith.shli %c255_i32
// CHECK: %[[UNSIGNED:.*]] = arith.extui %arg0 : i8 to i32
// CHECK: nvvm.redux.sync  umax %[[UNSIGNED]], %[[GROUP]] : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-LABEL: gpu.func @block_scan_i16_two_warps
// CHECK-COUNT-5: nvvm.shfl.sync  up
// CHECK: gpu.barrier
// CHECK: %[[AGGREGATE:.*]] = arith.extui %{{.*}} : i16 to i32
// CHECK: nvvm.redux.sync  add %[[AGGREGATE]], %c-1_i32 : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
// NOSM-LABEL: gpu.func @warp_sum_i8
// NOSM-NOT: nvvm.redux.sync
// NOSM-COUNT-5: nvvm.shfl.sync  bfly
gpu.module @warp_narrow {
  gpu.func @warp_sum_i8(%x: i8, %dst: memref<1xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = sum : !coop.group<warp>, i8 -> i8
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi8>
    gpu.return
  }
  gpu.func @warp_min_i16(%x: i16, %dst: memref<1xi16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = min : !coop.group<warp>, i16 -> i16
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi16>
    gpu.return
  }
  gpu.func @logical_warp_umax_i8(%x: i8, %dst: memref<1xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.reduce %l, %x op = max unsigned : !coop.group<threads_within_warp, 8>, i8 -> i8
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi8>
    gpu.return
  }
  gpu.func @block_scan_i16_two_warps(%in: memref<2xi16>, %out: memref<2xi16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<2xi16>, memref<2xi16>
    gpu.return
  }
}
