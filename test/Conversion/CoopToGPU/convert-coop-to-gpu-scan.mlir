// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// BlockScan raking for 64 threads: partials in the grid (32 raking threads
// of 2), the first warp scans the segment totals by up-shuffles and writes
// each slot's prefix, and every thread reads its own after the second
// barrier. Below 16 registers an int32 sum keeps its segment between the
// sweeps (the downsweep loads nothing) and takes CUB's inline PTX steps,
// whose volatile asm would stop the compiler forwarding reloads; a float32
// sum reads it again with shuffle, compare and select steps, the compiler
// free to forward the upsweep's loads (nvcc does for CUB).
// CHECK-LABEL: gpu.func @block_scan_raking
// CHECK: memref.store %{{.*}}, %[[GRID:.*]][%[[T:.*]]] : memref<64xi32
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-2: memref.load %[[GRID]]
// CHECK-NOT: memref.load
// CHECK: llvm.inline_asm has_side_effects "{ .reg .s32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, 1, 0, $2;
// CHECK-NOT: memref.load
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load %[[GRID]][%[[T]]]
// CHECK-LABEL: gpu.func @block_scan_raking_f32
// CHECK: scf.if
// CHECK-COUNT-2: memref.load
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.shfl.sync  up
// CHECK: arith.select
// CHECK-NOT: llvm.inline_asm
// CHECK: memref.load
// CHECK: memref.load
// CHECK: gpu.barrier
gpu.module @block_scan_raking {
  gpu.func @block_scan_raking(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}
gpu.module @block_scan_raking_f32 {
  gpu.func @block_scan_raking_f32(%in: memref<2xf32>, %out: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum : !coop.group<block>, memref<2xf32>, memref<2xf32>
    gpu.return
  }
}

// -----

// From 16 registers of segment on (4-byte items from 512 threads on, 8-byte
// from 256) the downsweep reads the segment again for real, with raking and
// with raking_memoize: an empty asm that may touch memory stands between the
// scan of the segment totals and the downsweep's loads, so the compiler
// cannot forward the upsweep's (ptxas spilled the forwarded or kept 8-byte
// segment at 1024 threads; kept, the others cost blocks an SM). At 128
// threads (4 8-byte items, 8 registers) it is kept. An integer sum keeps a
// segment of 16 registers beside 4 of items (int32 at 512x4, int64 at
// 256x1), not beside 8.
// CHECK-LABEL: gpu.func @block_scan_raking_large_segment
// CHECK: scf.if
// CHECK-COUNT-32: memref.load
// CHECK: nvvm.shfl.sync  up
// CHECK: llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
// CHECK-NEXT: memref.load
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @block_scan_raking_memoize_large_segment
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
// CHECK-NEXT: memref.load
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @block_scan_raking_memoize_segment_in_registers
// CHECK: scf.if
// CHECK-NOT: "~{memory}"
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @block_scan_raking_segment_beside_4_items
// CHECK: scf.if
// CHECK-COUNT-16: memref.load
// CHECK-NOT: memref.load
// CHECK-NOT: "~{memory}"
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @block_scan_raking_segment_beside_8_items
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
// CHECK-NEXT: memref.load
// CHECK: gpu.barrier
gpu.module @block_scan_raking_large_segment {
  gpu.func @block_scan_raking_large_segment(%in: memref<1xi64>, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking : !coop.group<block>, memref<1xi64>, memref<1xi64>
    gpu.return
  }
}
gpu.module @block_scan_raking_memoize_large_segment {
  gpu.func @block_scan_raking_memoize_large_segment(%in: memref<1xi32>, %out: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<1xi32>, memref<1xi32>
    gpu.return
  }
}
gpu.module @block_scan_raking_memoize_segment_in_registers {
  gpu.func @block_scan_raking_memoize_segment_in_registers(%in: memref<1xi64>, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<1xi64>, memref<1xi64>
    gpu.return
  }
}
gpu.module @block_scan_raking_segment_beside_items {
  gpu.func @block_scan_raking_segment_beside_4_items(%in: memref<4xi32>, %out: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
  gpu.func @block_scan_raking_segment_beside_8_items(%in: memref<8xi32>, %out: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// raking_memoize keeps the segment in registers, so a sum's scan step is
// CUB's inline PTX: the shuffle's in-range predicate guards the add
// (control word 0: one segment of 32 lanes).
// CHECK-LABEL: gpu.func @block_scan_raking_memoize
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects "{ .reg .s32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, 1, 0, $2; @p add.s32 r0, r0, $1; mov.s32 $0, r0; }", "=r,r,r"
// CHECK-COUNT-3: shfl.sync.up.b32 r0|p, $1, {{[0-9]+}}, 0, $2;
// CHECK: shfl.sync.up.b32 r0|p, $1, 16, 0, $2;
// CHECK: gpu.barrier
gpu.module @block_scan_raking_memoize {
  gpu.func @block_scan_raking_memoize(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// One item, inclusive, by a block's warp scans: the warp's inclusive scan,
// with the warps' prefix added past warp 0, is the result (CUB's
// InclusiveScan); no shuffle up by one for an exclusive prefix, and no
// identity seed. A block's float64 sum steps are CUB's inline PTX: two
// shuffles and the add their predicate guards.
// CHECK-LABEL: gpu.func @block_inclusive_one_item_f64
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "{ .reg .f64 r0; .reg .pred p; .reg .b32 lo, hi; mov.b64 {lo, hi}, $1; shfl.sync.up.b32 lo|p, lo, {{[0-9]+}}, 0, $2; shfl.sync.up.b32 hi|p, hi, {{[0-9]+}}, 0, $2; mov.b64 r0, {lo, hi}; @p add.f64 r0, r0, $1; mov.f64 $0, r0; }", "=d,d,r"
// CHECK: %[[SCANNED:.*]] = llvm.inline_asm {{.*}}lo, 16, 0
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.barrier
// CHECK: %[[PREFIX:.*]] = memref.load %{{.*}}[%c0]
// CHECK: %[[AFTER:.*]] = arith.cmpi uge
// CHECK: %[[SUM:.*]] = arith.addf %[[PREFIX]], %[[SCANNED]] : f64
// CHECK: %[[OUT:.*]] = arith.select %[[AFTER]], %[[SUM]], %[[SCANNED]] : f64
// CHECK-NOT: arith.addf
// CHECK: memref.store %[[OUT]], %arg1
gpu.module @block_inclusive_one_item_f64 {
  gpu.func @block_inclusive_one_item_f64(%in: memref<1xf64>, %out: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = inclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<1xf64>, memref<1xf64>
    gpu.return
  }
}

// -----

// WarpScan sums of logical warps of 8 lanes: a 32-bit float takes CUB's
// inline PTX step; the control word 6144 ((32 - 8) << 8) bounds each step
// at the first lane of the thread's 8. A warp's 64-bit float (measured
// faster so) and other item types keep the shuffle, compare and select.
// One item, inclusive: the scan is the result, with no shuffle after it.
// CHECK-LABEL: gpu.func @warp_scan_sums_f32_f64
// CHECK: llvm.inline_asm has_side_effects "{ .reg .f32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, 1, 6144, $2; @p add.f32 r0, r0, $1; mov.f32 $0, r0; }", "=f,f,r"
// CHECK: shfl.sync.up.b32 r0|p, $1, 2, 6144
// CHECK: shfl.sync.up.b32 r0|p, $1, 4, 6144
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-2: nvvm.shfl.sync  up
// CHECK: arith.select
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.shfl.sync  up
// CHECK: arith.select
gpu.module @warp_scan_sums_f32_f64 {
  gpu.func @warp_scan_sums_f32_f64(%single: memref<1xf32>, %scanned32: memref<1xf32>,
                              %in: memref<1xf64>, %out: memref<1xf64>,
                              %narrow: memref<1xi16>, %scanned: memref<1xi16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.scan %l, %single into %scanned32 mode = inclusive op = sum : !coop.group<threads_within_warp, 8>, memref<1xf32>, memref<1xf32>
    coop.scan %l, %in into %out mode = inclusive op = sum : !coop.group<threads_within_warp, 8>, memref<1xf64>, memref<1xf64>
    coop.scan %l, %narrow into %scanned mode = inclusive op = sum : !coop.group<threads_within_warp, 8>, memref<1xi16>, memref<1xi16>
    gpu.return
  }
}

// -----

// A block prefix callback with raking: raking thread 0 calls it with the
// segments' aggregate, lane 0's result is shuffled to the raking warp and
// seeds every segment's prefix, so thread 0's exclusive item is the prefix.
// An integer sum's exclusive scan of the segments is exactly 0 in raking
// thread 0 (inclusive - own), so no select gives that thread the seed.
// CHECK-LABEL: gpu.func @block_scan_prefix
// CHECK: scf.if
// CHECK: %[[AGG:.*]] = nvvm.shfl.sync  idx %{{.*}}, %{{.*}}, %{{.*}}, %c31_i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %thread_id_x, %c0
// CHECK: %[[P:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK-NEXT: %[[CALL:.*]] = func.call @running_total(%arg2, %[[AGG]]) : (memref<1xi32>, i32) -> i32
// CHECK-NEXT: scf.yield %[[CALL]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[AGG]]
// CHECK: %[[PREFIX:.*]] = nvvm.shfl.sync  idx %{{.*}}, %[[P]], %{{.*}}, %c31_i32
// CHECK: %[[WITH:.*]] = arith.addi %[[PREFIX]], %{{.*}} : i32
// CHECK-NOT: arith.select
// CHECK: memref.store %[[WITH]]
// CHECK: gpu.barrier
// CHECK-NEXT: %[[MINE:.*]] = memref.load
// CHECK: memref.store %[[MINE]], %arg1[%c0]
// CHECK-NOT: func.call
gpu.module @block_scan_prefix {
  func.func private @running_total(%state: memref<1xi32>, %aggregate: i32) -> i32
  gpu.func @block_scan_prefix(%in: memref<2xi32>, %out: memref<2xi32>, %state: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum prefix = @running_total(%state : memref<1xi32>) : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// A stateless prefix function takes the tile's aggregate alone.
// CHECK-LABEL: gpu.func @block_scan_stateless_prefix
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %thread_id_x, %c0
// CHECK: scf.if %[[FIRST]] -> (f32) {
// CHECK-NEXT: %[[CALL:.*]] = func.call @offset_by(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: scf.yield %[[CALL]]
gpu.module @block_scan_stateless_prefix {
  func.func private @offset_by(%aggregate: f32) -> f32
  gpu.func @block_scan_stateless_prefix(%in: memref<2xf32>, %out: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = inclusive op = sum prefix = @offset_by : !coop.group<block>, memref<2xf32>, memref<2xf32>
    gpu.return
  }
}

// -----

// A partial warp scan's aggregate: the thread holding the last valid item
// (clamped into [1, 16]) selects its inclusive value there, and one shuffle
// from that lane of the logical warp gives it to every lane.
// CHECK-LABEL: gpu.func @warp_scan_valid_items
// CHECK: %[[LANE:.*]] = arith.remui %thread_id_x, %c32
// CHECK: %[[RANK:.*]] = arith.remui %thread_id_x, %c8
// CHECK: %[[BEFORE:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[INC0:.*]] = arith.addi %[[BEFORE]], %{{.*}} : i32
// CHECK: %[[INC1:.*]] = arith.addi %[[INC0]], %{{.*}} : i32
// CHECK: %[[LO:.*]] = arith.maxsi %arg2, %c1 : index
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %c16 : index
// CHECK: %[[LAST:.*]] = arith.subi %[[HI]], %c1 : index
// CHECK: %[[ITEM:.*]] = arith.remui %[[LAST]], %c2 : index
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[ITEM]], %c1
// CHECK: %[[MINE:.*]] = arith.select %[[IS1]], %[[INC1]], %[[INC0]] : i32
// CHECK: %[[THREAD:.*]] = arith.divui %[[LAST]], %c2 : index
// CHECK: %[[BASE:.*]] = arith.subi %[[LANE]], %[[RANK]] : index
// CHECK: %[[SRC:.*]] = arith.addi %[[BASE]], %[[THREAD]] : index
// CHECK: nvvm.shfl.sync  idx %c-1_i32, %[[MINE]], %{{.*}}, %c31_i32 : i32 -> i32
gpu.module @warp_scan_valid_items {
  gpu.func @warp_scan_valid_items(%in: memref<2xi32>, %out: memref<2xi32>, %n: index, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %agg = coop.scan %l, %in into %out mode = exclusive op = sum valid_items = %n aggregate : !coop.group<threads_within_warp, 8>, memref<2xi32>, memref<2xi32> -> i32
    %c0 = arith.constant 0 : index
    memref.store %agg, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// A scan shuffles its aggregate from the group's last lane only where it is
// asked for (or a prefix callback takes it): an unread shuffle stays in the
// PTX, and where ptxas drops it its divergence check and warp sync stay.
// Past four warps an integer block scan by warp_scans shuffles each warp's
// prefix from the scanned aggregates, and the total only when asked for.
// CHECK-LABEL: gpu.func @warp_scan_no_aggregate
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK-LABEL: gpu.func @warp_scan_aggregate
// CHECK: nvvm.shfl.sync  idx %c-1_i32, %{{.*}}, %{{.*}}, %c31_i32
// CHECK-LABEL: gpu.func @block_scan_raking_no_aggregate
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK-LABEL: gpu.func @block_scan_one_warp_no_aggregate
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK-LABEL: gpu.func @block_scan_by_warp_no_aggregate
// CHECK: nvvm.shfl.sync  idx
// CHECK-NOT: nvvm.shfl.sync  idx
// CHECK: gpu.return
gpu.module @scan_aggregate_shuffles {
  gpu.func @warp_scan_no_aggregate(%x: i32, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %s = coop.scan %w, %x mode = exclusive op = sum : !coop.group<warp>, i32 -> i32
    %c0 = arith.constant 0 : index
    memref.store %s, %dst[%c0] : memref<1xi32>
    gpu.return
  }
  gpu.func @warp_scan_aggregate(%x: i32, %dst: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %s:2 = coop.scan %w, %x mode = exclusive op = sum aggregate : !coop.group<warp>, i32 -> i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s#0, %dst[%c0] : memref<2xi32>
    memref.store %s#1, %dst[%c1] : memref<2xi32>
    gpu.return
  }
  gpu.func @block_scan_raking_no_aggregate(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
  gpu.func @block_scan_one_warp_no_aggregate(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
  gpu.func @block_scan_by_warp_no_aggregate(%in: memref<2xi32>, %out: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// A block scan by warp_scans takes the lane from %laneid, as CUB's LaneId()
// (ptxas recomputes the lane tests from it instead of keeping them as
// predicates), below 1024 threads; at 1024 from the rank, which is live
// anyway (one register more costs such a block half the SM).
// CHECK-LABEL: gpu.func @block_scan_warp_scans_lane_128
// CHECK: arith.index_castui %thread_id_x : index to i32
// CHECK-NOT: arith.remui
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NOT: arith.remui
// CHECK: arith.cmpi uge, %[[LANE]], %c1_i32
// CHECK-LABEL: gpu.func @block_scan_warp_scans_lane_1024
// CHECK-NOT: nvvm.read.ptx.sreg.laneid
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK-NOT: nvvm.read.ptx.sreg.laneid
// CHECK: arith.cmpi uge, %[[LANE]], %c1_i32
// CHECK-NOT: nvvm.read.ptx.sreg.laneid
// CHECK: gpu.return
gpu.module @block_scan_warp_scans_lane {
  gpu.func @block_scan_warp_scans_lane_128(%in: memref<1xf32>, %out: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = max algorithm = warp_scans : !coop.group<block>, memref<1xf32>, memref<1xf32>
    gpu.return
  }
  gpu.func @block_scan_warp_scans_lane_1024(%in: memref<1xf32>, %out: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = max algorithm = warp_scans : !coop.group<block>, memref<1xf32>, memref<1xf32>
    gpu.return
  }
}

// -----

// A seeded block scan by warp_scans (an exclusive sum's seed is 0) seeds the
// warp's prefix, warp 0's being the seed alone, and the lanes' prefix joins
// that (CUB's ComputeWarpPrefix with an initial value), at 512 threads too
// for 64-bit items. Past 8 warps of items of 32 bits or fewer the lanes'
// prefix joins the warp's first and the seed comes last. Sixteen 64-bit
// warp aggregates are read one at a time, in order (ld.volatile.shared).
// CHECK-LABEL: gpu.func @block_scan_warp_scans_seed_256
// CHECK: %[[LANES:.*]] = arith.cmpi uge, %[[LANE:.*]], %c1_i32 : i32
// CHECK: gpu.barrier
// CHECK-NOT: ld.volatile.shared
// CHECK: arith.cmpi eq, %{{.*}}, %c7_i32
// CHECK-NEXT: %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
// CHECK: %[[WARPS:.*]] = arith.cmpi uge, %[[WARP:.*]], %c1_i32 : i32
// CHECK-NEXT: %[[SEEDED:.*]] = arith.addf %[[ZERO:.*]], %[[PICK]] : f64
// CHECK-NEXT: %[[WARPSEED:.*]] = arith.select %[[WARPS]], %[[SEEDED]], %[[ZERO]] : f64
// CHECK-NEXT: %[[JOINED:.*]] = arith.addf %[[WARPSEED]], %{{.*}} : f64
// CHECK-NEXT: %[[PREFIX:.*]] = arith.select %[[LANES]], %[[JOINED]], %[[WARPSEED]] : f64
// CHECK-NEXT: memref.store %[[PREFIX]]
// CHECK-LABEL: gpu.func @block_scan_warp_scans_seed_512_f64
// CHECK: %[[LANES:.*]] = arith.cmpi uge, %[[LANE:.*]], %c1_i32 : i32
// CHECK: gpu.barrier
// CHECK-NOT: memref.load
// CHECK-COUNT-15: llvm.inline_asm has_side_effects "ld.volatile.shared.b64 $0, [$1];", "=l,l"
// CHECK-NOT: memref.load
// CHECK: arith.cmpi eq, %{{.*}}, %c15_i32
// CHECK-NEXT: %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
// CHECK: %[[WARPS:.*]] = arith.cmpi uge, %[[WARP:.*]], %c1_i32 : i32
// CHECK-NEXT: %[[SEEDED:.*]] = arith.addf %[[ZERO:.*]], %[[PICK]] : f64
// CHECK-NEXT: %[[WARPSEED:.*]] = arith.select %[[WARPS]], %[[SEEDED]], %[[ZERO]] : f64
// CHECK-NEXT: %[[JOINED:.*]] = arith.addf %[[WARPSEED]], %{{.*}} : f64
// CHECK-NEXT: %[[PREFIX:.*]] = arith.select %[[LANES]], %[[JOINED]], %[[WARPSEED]] : f64
// CHECK-NEXT: memref.store %[[PREFIX]]
// CHECK-LABEL: gpu.func @block_scan_warp_scans_seed_512_f32
// CHECK: %[[LANES:.*]] = arith.cmpi uge, %[[LANE:.*]], %c1_i32 : i32
// CHECK: gpu.barrier
// CHECK-NOT: ld.volatile.shared
// CHECK: arith.cmpi eq, %{{.*}}, %c15_i32
// CHECK-NEXT: %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: %[[WARPS:.*]] = arith.cmpi uge, %[[WARP:.*]], %c1_i32 : i32
// CHECK-NEXT: %[[JOINED:.*]] = arith.addf %[[PICK]], %{{.*}} : f32
// CHECK-NEXT: %[[WITHWARP:.*]] = arith.select %[[WARPS]], %[[JOINED]], %{{.*}} : f32
// CHECK-NEXT: %[[PREFIX:.*]] = arith.select %[[LANES]], %[[WITHWARP]], %[[PICK]] : f32
// CHECK-NEXT: %[[HAS:.*]] = arith.ori %[[LANES]], %[[WARPS]] : i1
// CHECK-NEXT: %[[SEEDED:.*]] = arith.addf %[[ZERO:.*]], %[[PREFIX]] : f32
// CHECK-NEXT: %[[RESULT:.*]] = arith.select %[[HAS]], %[[SEEDED]], %[[ZERO]] : f32
// CHECK-NEXT: memref.store %[[RESULT]]
gpu.module @block_scan_warp_scans_seed {
  gpu.func @block_scan_warp_scans_seed_256(%in: memref<1xf64>, %out: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<1xf64>, memref<1xf64>
    gpu.return
  }
  gpu.func @block_scan_warp_scans_seed_512_f64(%in: memref<1xf64>, %out: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<1xf64>, memref<1xf64>
    gpu.return
  }
  gpu.func @block_scan_warp_scans_seed_512_f32(%in: memref<1xf32>, %out: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<1xf32>, memref<1xf32>
    gpu.return
  }
}

// -----

// With warp_scans, thread 0 calls the callback with the block's aggregate
// and publishes the prefix in the slot after the warp aggregates (CUB's
// block_prefix); a second barrier makes it visible to every warp. Thread 0's
// own exclusive sum is exactly 0, so it takes the prefix without a select.
// The prefix's slot is a constant: its store keeps the branch.
// CHECK-LABEL: gpu.func @block_scan_warp_scans_prefix
// CHECK: memref<3xi32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[TOTAL:.*]] = arith.addi
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %thread_id_x, %c0
// CHECK: %[[P:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK-NEXT: func.call @running_total(%arg2, %[[TOTAL]])
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[P]], %[[SLOTS:.*]][%c2]
// CHECK: gpu.barrier
// CHECK-NEXT: %[[PREFIX:.*]] = memref.load %[[SLOTS]][%c2]
// CHECK-NEXT: %[[MINE:.*]] = arith.addi %[[PREFIX]], %{{.*}} : i32
// CHECK-NOT: arith.select
// CHECK: memref.store %[[MINE]], %arg1[%c0]
gpu.module @block_scan_warp_scans_prefix {
  func.func private @running_total(%state: memref<1xi32>, %aggregate: i32) -> i32
  gpu.func @block_scan_warp_scans_prefix(%in: memref<2xi32>, %out: memref<2xi32>, %state: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum prefix = @running_total(%state : memref<1xi32>) algorithm = warp_scans : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// With a prefix callback, the fold of the warp aggregates compares an
// opaque copy of the warp number, made after the barrier: in a kernel's
// loop the compares would otherwise be hoisted and sunk above the warp
// scan's shuffles, their predicates live across it. Without a callback the
// fold compares the warp number itself.
// CHECK-LABEL: gpu.func @block_scan_warp_scans_prefix_opaque_warp
// CHECK: %[[WARP:.*]] = arith.divui
// CHECK: gpu.barrier
// CHECK-NEXT: %[[COPY:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r" %[[WARP]] : (i32) -> i32
// CHECK: arith.cmpi eq, %[[COPY]], %c2_i32
// CHECK: arith.cmpi eq, %[[COPY]], %c3_i32
// CHECK: func.call @running_total
// CHECK-LABEL: gpu.func @block_scan_warp_scans_no_prefix
// CHECK: %[[PLAIN:.*]] = arith.divui
// CHECK: gpu.barrier
// CHECK-NOT: "mov.b32 $0, $1;"
// CHECK: arith.cmpi eq, %[[PLAIN]], %c2_i32
gpu.module @block_scan_warp_scans_prefix_opaque_warp {
  func.func private @running_total(%state: memref<1xf32>, %aggregate: f32) -> f32
  gpu.func @block_scan_warp_scans_prefix_opaque_warp(%in: memref<4xf32>, %out: memref<4xf32>, %state: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum prefix = @running_total(%state : memref<1xf32>) algorithm = warp_scans : !coop.group<block>, memref<4xf32>, memref<4xf32>
    gpu.return
  }
  gpu.func @block_scan_warp_scans_no_prefix(%in: memref<4xf32>, %out: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    coop.scan %b, %in into %out mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<4xf32>, memref<4xf32>
    gpu.return
  }
}

// -----

// The aggregate is the tile's own (CUB's block aggregate): the initial value
// seeds the items only, in a warp scan and in the slot raking publishes.
// CHECK-LABEL: func.func @warp_scan_initial_aggregate
// CHECK: %[[AGG:.*]] = nvvm.shfl.sync idx
// CHECK: return %{{.*}}, %[[AGG]] : i32, i32
func.func @warp_scan_initial_aggregate(%x: i32, %init: i32) -> (i32, i32)
    attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
  %w = coop.this_warp
  %r, %a = coop.scan %w, %x mode = inclusive op = sum initial_value = %init : i32 aggregate
      : !coop.group<warp>, i32 -> i32, i32
  return %r, %a : i32, i32
}

// -----

// CHECK-LABEL: func.func @block_scan_initial_aggregate
// CHECK: %[[AGG:.*]] = nvvm.shfl.sync idx
// CHECK: memref.store %[[AGG]], %{{.*}}[%c64{{.*}}]
// CHECK: %[[PUBLISHED:.*]] = memref.load %{{.*}}[%c64{{.*}}]
// CHECK: return %{{.*}}, %[[PUBLISHED]] : i32, i32
func.func @block_scan_initial_aggregate(%x: i32, %init: i32) -> (i32, i32)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  %r, %a = coop.scan %b, %x mode = exclusive op = sum initial_value = %init : i32
      algorithm = raking aggregate : !coop.group<block>, i32 -> i32, i32
  return %r, %a : i32, i32
}

// -----

// Thirty-two float64 warp aggregates: a kernel's function reads them as
// memref loads (ptxas schedules them); a site function lowered alone for a
// host to inline (coop.inlined_site) reads them one at a time, in order, so
// ptxas cannot hold all 31 in registers beside the kernel it never saw.
// CHECK-LABEL: func.func @block_scan_warp_scans_1024_f64
// CHECK: gpu.barrier
// CHECK-NOT: ld.volatile.shared
// CHECK: arith.cmpi eq, %{{.*}}, %c31_i32
// CHECK-LABEL: func.func @block_scan_warp_scans_1024_f64_inlined
// CHECK-NOT: coop.inlined_site
// CHECK: gpu.barrier
// CHECK-NOT: memref.load
// CHECK-COUNT-31: llvm.inline_asm has_side_effects "ld.volatile.shared.b64 $0, [$1];", "=l,l"
// CHECK-NOT: memref.load
// CHECK: arith.cmpi eq, %{{.*}}, %c31_i32
func.func @block_scan_warp_scans_1024_f64(%in: memref<4xf64>, %out: memref<4xf64>)
    attributes {gpu.known_block_size = array<i32: 1024, 1, 1>} {
  %b = coop.this_block
  coop.scan %b, %in into %out mode = inclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<4xf64>, memref<4xf64>
  return
}
func.func @block_scan_warp_scans_1024_f64_inlined(%in: memref<4xf64>, %out: memref<4xf64>)
    attributes {gpu.known_block_size = array<i32: 1024, 1, 1>, coop.inlined_site} {
  %b = coop.this_block
  coop.scan %b, %in into %out mode = inclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<4xf64>, memref<4xf64>
  return
}
