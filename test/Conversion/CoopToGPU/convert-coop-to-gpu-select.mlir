// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s
// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu=sm=90 --cse | FileCheck %s --check-prefix=SM90

// A block of 64 threads, 2 items each: the thread's count of set flags, one
// warp scan of the counts (CUB's inline PTX sum step), the warps' totals
// after the tile in the slice (bytes 512..519) and one barrier, predicated
// stores of the selected items at their positions, a second barrier, and
// the blocked read of the compacted tile.
// CHECK-LABEL: gpu.func @block_select
// CHECK: arith.cmpi ne, %{{.*}}, %c0_i8 : i8
// CHECK: %[[TILE:.*]] = memref.view %{{.*}}[%c0][] : memref<520xi8, #gpu.address_space<workgroup>> to memref<130xi32
// CHECK-COUNT-5: shfl.sync.up.b32
// CHECK: %[[TOTALS:.*]] = memref.view %{{.*}}[%c512][] : memref<520xi8, #gpu.address_space<workgroup>> to memref<2xi32
// CHECK: @p st.shared.b32
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[TOTALS]][%c0]
// CHECK-COUNT-2: @p st.shared.b32
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.load %[[TILE]]
// CHECK-NOT: gpu.barrier
gpu.module @block_select {
  gpu.func @block_select(%in: memref<2xi32>, %out: memref<2xi32>, %keep: memref<2xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %n = coop.select %b, %in into %out flags = %keep : memref<2xi8> : !coop.group<block>, memref<2xi32>, memref<2xi32> -> i32
    gpu.return
  }
}

// -----

// Logical warps of 8 lanes: the predicate decides, valid_items masks the
// lanes past it, a segmented warp scan (clamp 6144 = (32 - 8) << 8) and the
// total from the group's last lane by one shuffle; each logical warp
// scatters into its own region of WarpExchange's 8 + 1 items and syncs its
// own lanes.
// CHECK-LABEL: gpu.func @warp_select
// CHECK: func.call @positive(%{{.*}}) : (f32) -> i1
// CHECK: arith.cmpi ult
// CHECK-COUNT-3: shfl.sync.up.b32 r0|p, $1, {{[124]}}, 6144
// CHECK: nvvm.shfl.sync  idx
// CHECK: arith.constant 9 : index
// CHECK: @p st.shared.b32
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
// CHECK: memref.store
gpu.module @warp_select {
  func.func private @positive(%x: f32) -> i1
  gpu.func @warp_select(%x: f32, %n: index, %o: memref<1xf32>, %c: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r:2 = coop.select %l, %x predicate = @positive valid_items = %n : !coop.group<threads_within_warp, 8>, f32 -> f32, i32
    %c0 = arith.constant 0 : index
    memref.store %r#0, %o[%c0] : memref<1xf32>
    memref.store %r#1, %c[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// 32 warps on sm_90: the scans' warp prefix. Each lane loads one warp's
// total and two redux.syncs give its warp's prefix (the lanes below its
// warp) and the block's total (all 32 lanes), where a fold would read and
// select every warp's total.
// SM90-LABEL: gpu.func @wide_block_select
// SM90: %[[TOTALS:.*]] = memref.view %{{.*}}[%c8192][] : memref<8320xi8, #gpu.address_space<workgroup>> to memref<32xi32
// SM90: gpu.barrier
// SM90: memref.load %[[TOTALS]]
// SM90-NOT: memref.load %[[TOTALS]]
// SM90-COUNT-2: nvvm.redux.sync  add
// SM90-NOT: memref.load %[[TOTALS]]
// SM90: gpu.barrier
gpu.module @wide_block_select {
  gpu.func @wide_block_select(%in: memref<2xi32>, %out: memref<2xi32>, %keep: memref<2xi8>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    %n = coop.select %b, %in into %out flags = %keep : memref<2xi8> : !coop.group<block>, memref<2xi32>, memref<2xi32> -> i32
    gpu.return
  }
}

// -----

// Whole warps: each warp's region is its 128 items without WarpExchange's
// extra one, so that the blocked read back stays 16-byte aligned.
// CHECK-LABEL: gpu.func @whole_warp_select
// CHECK: memref.view %{{.*}}[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xi32
// CHECK: arith.muli %{{.*}}, %c128 : index
// CHECK-NOT: gpu.barrier
gpu.module @whole_warp_select {
  gpu.func @whole_warp_select(%in: memref<4xi32>, %out: memref<4xi32>, %keep: memref<4xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = coop.this_warp
    %n = coop.select %w, %in into %out flags = %keep : memref<4xi8> : !coop.group<warp>, memref<4xi32>, memref<4xi32> -> i32
    gpu.return
  }
}
