// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// Blocked positions t*ipt + i, each guarded by valid_items, oob_default in
// the other slots; the items land in the payload at constant indices. The
// guards compare in 32 bits, as CUB's int counts do: the count's low 32
// bits, or any position when the count reaches 2^32 (a tile's positions are
// far below).
// CHECK-LABEL: gpu.func @direct_guarded
// CHECK-SAME: (%[[SRC:.*]]: memref<?xi32>, %[[OFF:.*]]: index, %[[N:.*]]: index, %[[X:.*]]: i32)
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[P0:.*]] = arith.muli %[[T]], %c2
// CHECK: %[[N32:.*]] = arith.index_castui %[[N]] : index to i32
// CHECK: %[[BIG:.*]] = arith.cmpi ugt, %[[N]], %c4294967295 : index
// CHECK: %[[I0:.*]] = arith.addi %[[OFF]], %[[P0]]
// CHECK: %[[P032:.*]] = arith.index_castui %[[P0]] : index to i32
// CHECK: %[[B0:.*]] = arith.cmpi ult, %[[P032]], %[[N32]] : i32
// CHECK: %[[G0:.*]] = arith.ori %[[BIG]], %[[B0]] : i1
// CHECK: %[[V0:.*]] = scf.if %[[G0]] -> (i32) {
// CHECK:   memref.load %[[SRC]][%[[I0]]]
// CHECK: } else {
// CHECK:   scf.yield %[[X]]
// CHECK: %[[P1:.*]] = arith.addi %[[P0]], %c1
// CHECK: %[[P132:.*]] = arith.index_castui %[[P1]] : index to i32
// CHECK: arith.cmpi ult, %[[P132]], %[[N32]] : i32
// CHECK: memref.store %[[V0]], %{{.*}}[%c0] : memref<2xi32>

// Striped positions t + i*64, with the rank linearized x-fastest.
// CHECK-LABEL: gpu.func @striped_store
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[Y:.*]] = gpu.thread_id y
// CHECK: %[[YX:.*]] = arith.muli %[[Y]], %c16
// CHECK: %[[R:.*]] = arith.addi %[[X]], %[[YX]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[R]]]
// CHECK: %[[S1:.*]] = arith.addi %[[R]], %c64
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[S1]]]

// Striped loads, scattered striped into scratch, a block barrier, gathered
// blocked. CUB's unpadded tile: the blocked phase reads a thread's 2 items
// as one 8-byte access (the bank model counts 2 + 2 wavefronts, as a
// swizzle's), at slots 2t and 2t + 1.
// CHECK-LABEL: gpu.func @transpose
// CHECK: %[[BUF:.*]] = memref.get_global @__coop_scratch_transpose : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[V0:.*]] = memref.load %{{.*}}[%[[T]]] : memref<?xi32>
// CHECK: %[[S1:.*]] = arith.addi %[[T]], %c64
// CHECK: %[[V1:.*]] = memref.load %{{.*}}[%[[S1]]] : memref<?xi32>
// CHECK: %[[VIEW:.*]] = memref.view %[[BUF]][%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<128xi32, #gpu.address_space<workgroup>>
// CHECK: %[[G0:.*]] = arith.muli %[[T]], %c2
// CHECK: %[[G1:.*]] = arith.addi %[[G0]], %c1
// CHECK: memref.store %[[V0]], %[[VIEW]][%[[T]]]
// CHECK: memref.store %[[V1]], %[[VIEW]][%[[S1]]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[VIEW]][%[[G0]]]
// CHECK-NEXT: memref.load %[[VIEW]][%[[G1]]]

// Warp-striped loads (each warp owns 32*ipt items), a per-warp region of
// scratch and a warp barrier.
// CHECK-LABEL: gpu.func @warp_transpose
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[W:.*]] = arith.divui %[[T]], %c32
// CHECK: %[[L:.*]] = arith.remui %[[T]], %c32
// CHECK: %[[WO:.*]] = arith.muli %[[W]], %c64
// CHECK: %[[P0:.*]] = arith.addi %[[WO]], %[[L]]
// CHECK: %[[P1:.*]] = arith.addi %[[P0]], %c32
// CHECK: %[[B0:.*]] = arith.muli %[[T]], %c2
// CHECK: memref.store %{{.*}}, %[[VIEW:.*]][%[[P0]]]
// CHECK: memref.store %{{.*}}, %[[VIEW]][%[[P1]]]
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK: memref.load %[[VIEW]][%[[B0]]]

// One warp at a time through one warp's worth of scratch, block barriers
// between the slices. The turn is a plain compare (ptxas branches around a
// turn that holds a warp barrier).
// CHECK-LABEL: gpu.func @timesliced
// CHECK: memref.view %{{.*}} to memref<32xf64, #gpu.address_space<workgroup>>
// CHECK: %[[W:.*]] = arith.divui %{{.*}}, %c32 : index
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[W]], %c0 : index
// CHECK-NEXT: scf.if %[[IS0]]
// CHECK:   nvvm.bar.warp.sync
// CHECK: gpu.barrier
// CHECK: arith.cmpi eq, %[[W]], %c1 : index
// CHECK: scf.if
// CHECK:   nvvm.bar.warp.sync
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

// Barriers of each group kind.
// CHECK-LABEL: gpu.func @barriers
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[GRP:.*]] = arith.divui %[[LANE]], %c8
// CHECK: %[[SHIFT:.*]] = arith.muli %[[GRP]], %c8
// CHECK: %[[S32:.*]] = arith.index_castui %[[SHIFT]] : index to i32
// CHECK: %[[MASK:.*]] = arith.shli %c255_i32, %[[S32]]
// CHECK: nvvm.bar.warp.sync %[[MASK]]
// CHECK: gpu.barrier
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NOT: coop.
gpu.module @m {
  gpu.func @direct_guarded(%src: memref<?xi32>, %off: index, %n: index, %x: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xi32>
    coop.load %b, %src[%off] into %items valid_items = %n oob_default = %x : i32 : !coop.group<block>, memref<?xi32>, memref<2xi32>
    gpu.return
  }
  gpu.func @striped_store(%dst: memref<?xi32>, %items: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 16, 4, 1>} {
    %b = coop.this_block
    coop.store %b, %items into %dst algorithm = striped : !coop.group<block>, memref<2xi32>, memref<?xi32>
    gpu.return
  }
  gpu.func @transpose(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xi32>
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    gpu.return
  }
  gpu.func @warp_transpose(%src: memref<?xi16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xi16>
    coop.load %b, %src into %items algorithm = warp_transpose : !coop.group<block>, memref<?xi16>, memref<2xi16>
    gpu.return
  }
  gpu.func @timesliced(%dst: memref<?xf64>, %items: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.store %b, %items into %dst algorithm = warp_transpose_timesliced : !coop.group<block>, memref<1xf64>, memref<?xf64>
    gpu.return
  }
  gpu.func @barriers() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = coop.this_thread
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %b = coop.this_block
    %p = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 2>
    coop.barrier %t : !coop.group<thread>
    coop.barrier %w : !coop.group<warp>
    coop.barrier %l : !coop.group<threads_within_warp, 8>
    coop.barrier %b : !coop.group<block>
    coop.barrier %p : !coop.group<warps_within_block, 2>
    gpu.return
  }
}

// -----

// A view with a dynamic offset (Numba's arrays): the thread's first index
// passes through an opaque volatile move made after the thread's rank, the
// other items add their constant distance to it, so that NVVM adds the
// view's offset to a thread's index last (ptxas then keeps the offset in a
// uniform register). A store after the load takes a move of its own.
// CHECK-LABEL: gpu.func @striped_dynamic_offset
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.addi %[[OFF:.*]], %[[T]] : index
// CHECK: %[[WORD:.*]] = arith.index_castui %[[FIRST]] : index to i64
// CHECK: %[[MOVED:.*]] = llvm.inline_asm has_side_effects "mov.b64 $0, $1;", "=l,l" %[[WORD]] : (i64) -> i64
// CHECK: %[[I0:.*]] = arith.index_castui %[[MOVED]] : i64 to index
// CHECK: memref.load %[[SRC:.*]][%[[I0]]] : memref<?xf32, strided<[1], offset: ?>>
// CHECK: %[[I1:.*]] = arith.addi %[[I0]], %c64 : index
// CHECK: memref.load %[[SRC]][%[[I1]]] : memref<?xf32, strided<[1], offset: ?>>
// CHECK: llvm.inline_asm has_side_effects "mov.b64 $0, $1;"
// CHECK: memref.store
// CHECK-LABEL: gpu.func @striped_static_offset
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
gpu.module @dynamic_offset {
  gpu.func @striped_dynamic_offset(%src: memref<?xf32, strided<[1], offset: ?>>, %dst: memref<?xf32, strided<[1], offset: ?>>, %off: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xf32>
    coop.load %b, %src[%off] into %items algorithm = striped : !coop.group<block>, memref<?xf32, strided<[1], offset: ?>>, memref<2xf32>
    coop.store %b, %items into %dst[%off] algorithm = striped : !coop.group<block>, memref<2xf32>, memref<?xf32, strided<[1], offset: ?>>
    gpu.return
  }
  gpu.func @striped_static_offset(%src: memref<?xf32>, %off: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xf32>
    coop.load %b, %src[%off] into %items algorithm = striped : !coop.group<block>, memref<?xf32>, memref<2xf32>
    gpu.return
  }
}

// -----

// Vectorize: a run-time check (unit stride, tile start aligned to the
// vector) picks 16-byte vector stores, or the direct stores.
// CHECK-LABEL: gpu.func @vectorize
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[BUF:.*]], %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[DST:[^ ]*]]
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[DST]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[OFF]], %c4
// CHECK: %[[ADDR:.*]] = arith.addi %[[PTR]], %[[BYTES]]
// CHECK: %[[MIS:.*]] = arith.remui %[[ADDR]], %c16
// CHECK: %[[AL:.*]] = arith.cmpi eq, %[[MIS]], %c0
// CHECK: %[[UNIT:.*]] = arith.cmpi eq, %[[STRIDE]], %c1
// CHECK: %[[OK:.*]] = arith.andi %[[AL]], %[[UNIT]]
// CHECK: scf.if %[[OK]] {
// CHECK:   %[[FIRST:.*]] = arith.muli %[[T]], %c4
// CHECK:   %[[VIEW:.*]] = memref.reinterpret_cast %[[BUF]] to offset: [%[[OFF]]], sizes: [%[[SIZE]]], strides: [1]
// CHECK:   %[[VEC:.*]] = vector.from_elements
// CHECK:   vector.store %[[VEC]], %[[VIEW]][%[[FIRST]]] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: memref.store
// CHECK: }
gpu.module @m {
  gpu.func @vectorize(%dst: memref<?xf32, strided<[?], offset: ?>>, %items: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.store %b, %items into %dst algorithm = vectorize : !coop.group<block>, memref<4xf32>, memref<?xf32, strided<[?], offset: ?>>
    gpu.return
  }
}

// -----

// An unguarded direct tile of 32 bytes a thread or more takes vectorize's
// path (beyond CUB, whose direct goes item by item): 12 int32 a thread are
// three 16-byte loads when the tile start is aligned (three vectors, not a
// power of two: no register transpose), 12 loads otherwise. A unit-stride
// memref needs no stride test. A guarded tile (@direct_guarded) and a
// smaller one (@direct_small) stay item by item.
// CHECK-LABEL: gpu.func @direct_vectors
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[ADDR:.*]] = arith.addi %[[PTR]], %{{.*}}
// CHECK: %[[MIS:.*]] = arith.remui %[[ADDR]], %c16
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[MIS]], %c0
// CHECK: scf.if %[[OK]] -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK:   %[[FIRST:.*]] = arith.muli %[[T]], %c12
// CHECK:   vector.load %arg0[%[[FIRST]]] {alignment = 16 : i64} : memref<?xi32>, vector<4xi32>
// CHECK:   %[[SECOND:.*]] = arith.addi %[[FIRST]], %c4
// CHECK:   vector.load %arg0[%[[SECOND]]] {alignment = 16 : i64} : memref<?xi32>, vector<4xi32>
// CHECK:   %[[THIRD:.*]] = arith.addi %[[FIRST]], %c8
// CHECK:   vector.load %arg0[%[[THIRD]]] {alignment = 16 : i64} : memref<?xi32>, vector<4xi32>
// CHECK-NOT: nvvm.shfl
// CHECK: } else {
// CHECK-COUNT-12: memref.load %arg0
// CHECK: }
// CHECK-LABEL: gpu.func @direct_small
// CHECK-NOT: vector.load
// CHECK-NOT: scf.if
// CHECK-COUNT-4: memref.load %arg0
gpu.module @direct {
  gpu.func @direct_vectors(%src: memref<?xi32>, %items: memref<12xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<12xi32>
    gpu.return
  }
  gpu.func @direct_small(%src: memref<?xi32>, %items: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

// 64 bytes a thread (8 f64): the register transpose (from 32 bytes). Each warp reads its
// segment coalesced, round k at lane * 2 + k * 64, one 16-byte vector a lane;
// a rotation by lane % 4 (bits 1 and 2) makes each shuffle step's source
// register static; 4 steps of idx shuffles (2 words an item, 2 items a
// vector) over the whole warp; a rotation by the lane's own round puts the
// slots in blocked order.
// CHECK-LABEL: gpu.func @register_transpose
// CHECK: scf.if %{{.*}} -> (f64, f64, f64, f64, f64, f64, f64, f64) {
// CHECK:   %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK:   %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK:   %[[LANEIX:.*]] = arith.index_cast %[[LANE]] : i32 to index
// CHECK:   %[[AT:.*]] = arith.muli %[[LANEIX]], %c2
// CHECK:   %[[R0:.*]] = arith.addi %{{.*}}, %[[AT]] : index
// CHECK:   vector.load %arg0[%[[R0]]] {alignment = 16 : i64} : memref<?xf64>, vector<2xf64>
// CHECK:   %[[R1:.*]] = arith.addi %[[R0]], %c64 : index
// CHECK:   vector.load %arg0[%[[R1]]]
// CHECK:   %[[R3:.*]] = arith.addi %[[R0]], %c192 : index
// CHECK:   vector.load %arg0[%[[R3]]]
// CHECK:   %[[ROT:.*]] = arith.remui %[[LANE]], %c4_i32 : i32
// CHECK:   arith.andi %[[ROT]], %c1_i32
// CHECK-COUNT-8: arith.select
// CHECK:   arith.andi %[[ROT]], %c2_i32
// CHECK-COUNT-8: arith.select
// CHECK:   %[[OWN:.*]] = arith.divui %[[LANE]], %c8_i32 : i32
// CHECK-COUNT-16: nvvm.shfl.sync idx %c-1_i32
// CHECK:   arith.andi %[[OWN]], %c1_i32
// CHECK:   arith.andi %[[OWN]], %c2_i32
// CHECK:   scf.yield
// CHECK: } else {
// CHECK-COUNT-8: memref.load %arg0
// CHECK-NOT: nvvm.shfl
// CHECK: }
gpu.module @register_transpose {
  gpu.func @register_transpose(%src: memref<?xf64>, %items: memref<8xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items : !coop.group<block>, memref<?xf64>, memref<8xf64>
    gpu.return
  }
}

// -----

// A read_only load (global memory nothing writes during the kernel) reads
// through the non-coherent cache: one ld.global.nc per item at the item's
// address (aligned base + (offset + index * stride) * 4), a float as its
// 32-bit word; vectorize's aligned path one 16-byte ld.global.nc.v4. An
// 8-bit item keeps memref.load.
// CHECK-LABEL: gpu.func @read_only_striped
// CHECK: %[[BUF:.*]], %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %arg0
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[OFF]], %[[STEP]] : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[AT]], %c4 : index
// CHECK: %[[ADDR:.*]] = arith.addi %[[PTR]], %[[BYTES]] : index
// CHECK: %[[A64:.*]] = arith.index_castui %[[ADDR]] : index to i64
// CHECK: %[[WORD:.*]] = llvm.inline_asm "ld.global.nc.b32 $0, [$1];", "=r,l" %[[A64]] : (i64) -> i32
// CHECK: arith.bitcast %[[WORD]] : i32 to f32
// CHECK-COUNT-1: llvm.inline_asm "ld.global.nc.b32 $0, [$1];"
// CHECK-NOT: memref.load %arg0
// CHECK-LABEL: gpu.func @read_only_vectorize
// CHECK: scf.if
// CHECK: %[[V:.*]] = llvm.inline_asm "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %{{.*}} : (i64) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.extractvalue %[[V]][0]
// CHECK: llvm.extractvalue %[[V]][3]
// CHECK: } else {
// CHECK-COUNT-4: llvm.inline_asm "ld.global.nc.b32 $0, [$1];"
// CHECK-LABEL: gpu.func @read_only_narrow
// CHECK-NOT: llvm.inline_asm
// CHECK: memref.load %arg0
// A guarded read_only load addresses its items from the thread's first one,
// ahead of the guards (item i at first + i * 32 * stride * 4 bytes: striped
// positions of a 32-thread block), so that no branch recomputes an address
// from the dynamic stride; each guard holds only its ld.global.nc.
// CHECK-LABEL: gpu.func @read_only_guarded
// CHECK: %[[BUF:.*]], %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %arg0
// CHECK: %[[FIRST:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK: %[[SB:.*]] = arith.muli %[[STRIDE]], %c4 : index
// CHECK: %[[SB64:.*]] = arith.index_castui %[[SB]] : index to i64
// CHECK: %[[B0:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[G0:.*]] = arith.ori %{{.*}}, %[[B0]] : i1
// CHECK: scf.if %[[G0]] -> (f32) {
// CHECK-NEXT: llvm.inline_asm "ld.global.nc.b32 $0, [$1];", "=r,l" %[[FIRST]]
// CHECK: %[[D1:.*]] = arith.muli %[[SB64]], %c32_i64 : i64
// CHECK: %[[A1:.*]] = arith.addi %[[FIRST]], %[[D1]] : i64
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: llvm.inline_asm "ld.global.nc.b32 $0, [$1];", "=r,l" %[[A1]]
// CHECK: %[[D2:.*]] = arith.muli %[[SB64]], %c64_i64 : i64
// CHECK: %[[A2:.*]] = arith.addi %[[FIRST]], %[[D2]] : i64
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: llvm.inline_asm "ld.global.nc.b32 $0, [$1];", "=r,l" %[[A2]]
// With a unit stride (the type fixes it) there is no branch: each item is
// one predicated ld.global.nc at an immediate from the first item's address
// (striped: 32 items of 8 bytes apart), its result tied to oob_default.
// CHECK-LABEL: gpu.func @read_only_guarded_unit_stride
// CHECK-NOT: scf.if
// CHECK: %[[FIRST:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK: %[[B0:.*]] = arith.cmpi ult, %{{.*}}, %[[N32:.*]] : i32
// CHECK: %[[G0:.*]] = arith.ori %{{.*}}, %[[B0]] : i1
// CHECK: %[[P0:.*]] = arith.extui %[[G0]] : i1 to i32
// CHECK: llvm.inline_asm "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p ld.global.nc.b64 $0, [$1]; }", "=l,l,r,0" %[[FIRST]], %[[P0]], %c0_i64 : (i64, i32, i64) -> i64
// CHECK: arith.cmpi ult, %{{.*}}, %[[N32]] : i32
// CHECK: llvm.inline_asm "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p ld.global.nc.b64 $0, [$1+256]; }", "=l,l,r,0" %[[FIRST]]
// CHECK: llvm.inline_asm "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p ld.global.nc.b64 $0, [$1+512]; }", "=l,l,r,0" %[[FIRST]]
// CHECK-NOT: scf.if
// CHECK: gpu.return
gpu.module @read_only {
  gpu.func @read_only_striped(%src: memref<?xf32, strided<[?], offset: ?>>, %items: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items algorithm = striped read_only : !coop.group<block>, memref<?xf32, strided<[?], offset: ?>>, memref<2xf32>
    gpu.return
  }
  gpu.func @read_only_vectorize(%src: memref<?xi32>, %items: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items algorithm = vectorize read_only : !coop.group<block>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
  gpu.func @read_only_narrow(%src: memref<?xi8>, %items: memref<4xi8>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items read_only : !coop.group<block>, memref<?xi8>, memref<4xi8>
    gpu.return
  }
  gpu.func @read_only_guarded(%src: memref<?xf32, strided<[?], offset: ?>>, %n: index, %items: memref<3xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    %zero = arith.constant 0.0 : f32
    coop.load %b, %src into %items algorithm = striped valid_items = %n oob_default = %zero : f32 read_only : !coop.group<block>, memref<?xf32, strided<[?], offset: ?>>, memref<3xf32>
    gpu.return
  }
  gpu.func @read_only_guarded_unit_stride(%src: memref<?xi64>, %n: index, %items: memref<3xi64>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %b = coop.this_block
    %zero = arith.constant 0 : i64
    coop.load %b, %src into %items algorithm = striped valid_items = %n oob_default = %zero : i64 read_only : !coop.group<block>, memref<?xi64>, memref<3xi64>
    gpu.return
  }
}

// -----

// A logical warp of 4 lanes in an 8x8 block: lane and group from the
// linearized rank, the group's tile at (rank / 4) * 4 * ipt, its own scratch
// region of 4 * ipt + 1 items, and a warp barrier over its 4 lanes.
// CHECK-LABEL: gpu.func @logical_warp
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[Y:.*]] = gpu.thread_id y
// CHECK: %[[YX:.*]] = arith.muli %[[Y]], %c8
// CHECK: %[[R:.*]] = arith.addi %[[X]], %[[YX]]
// CHECK: %[[G:.*]] = arith.divui %[[R]], %c4
// CHECK: %[[L:.*]] = arith.remui %[[R]], %c4
// CHECK: %[[BASE:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[I0:.*]] = arith.addi %[[BASE]], %[[L]]
// CHECK: memref.load %{{.*}}[%[[I0]]] : memref<?xi8>
// CHECK: memref.view {{.*}} to memref<80xi8, #gpu.address_space<workgroup>>
// CHECK: %[[REGION:.*]] = arith.muli %[[G]], %c5
// CHECK: %[[S0:.*]] = arith.addi %[[REGION]], %[[L]]
// CHECK: memref.store %{{.*}}, %[[VIEW:.*]][%[[S0]]]
// CHECK: %[[LANE:.*]] = arith.remui %[[R]], %c32
// CHECK: %[[SUB:.*]] = arith.divui %[[LANE]], %c4
// CHECK: %[[SHIFT:.*]] = arith.muli %[[SUB]], %c4
// CHECK: %[[S32:.*]] = arith.index_castui %[[SHIFT]] : index to i32
// CHECK: %[[MASK:.*]] = arith.shli %c15_i32, %[[S32]]
// CHECK: nvvm.bar.warp.sync %[[MASK]]
// CHECK: memref.load %[[VIEW]][%[[S0]]]
gpu.module @m {
  gpu.func @logical_warp(%src: memref<?xi8>) kernel
      attributes {known_block_size = array<i32: 8, 8, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
    %items = memref.alloca() : memref<1xi8>
    coop.load %l, %src into %items algorithm = transpose : !coop.group<threads_within_warp, 4>, memref<?xi8>, memref<1xi8>
    gpu.return
  }
}

// -----

// Past 48 KiB the scratch is dynamic shared memory.
// CHECK-LABEL: gpu.func @dynamic
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[DYN]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xf64, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
gpu.module @m {
  gpu.func @dynamic(%src: memref<?xf64>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xf64>
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xf64>, memref<8xf64>
    gpu.return
  }
}

// -----

// A caller that plans a whole kernel's scratch passes each function its
// slice: the `coop.scratch` argument replaces the global, even past 48 KiB.
// CHECK-LABEL: func.func @caller_owned
// CHECK-SAME: (%[[SRC:.*]]: memref<?xf64>, %[[SCRATCH:.*]]: memref<?xi8, #gpu.address_space<workgroup>> {coop.scratch})
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK: memref.view %[[SCRATCH]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xf64, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: return
module {
  func.func @caller_owned(%src: memref<?xf64>,
                          %scratch: memref<?xi8, #gpu.address_space<workgroup>> {coop.scratch})
      attributes {gpu.known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xf64>
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xf64>, memref<8xf64>
    return
  }
}

// -----

// BlockExchange: CUB's padded tile (512 + 16 slots), a guarded scatter at
// the ranks, one block barrier, striped gathers.
// CHECK-LABEL: gpu.func @exchange_guarded
// CHECK: memref.view %{{.*}} to memref<528xi32, #gpu.address_space<workgroup>>
// CHECK: %[[R0:.*]] = memref.load %arg2[%c0]
// CHECK: %[[S0:.*]] = arith.index_cast %[[R0]] : i32 to index
// CHECK: %[[P0:.*]] = arith.shrui %[[S0]], %c5
// CHECK: %[[SLOT0:.*]] = arith.addi %[[S0]], %[[P0]]
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[R0]], %c0_i32
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[SLOT0]]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_guarded {
  gpu.func @exchange_guarded(%in: memref<8xi32>, %out: memref<8xi32>, %ranks: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.exchange %b, %in into %out mode = scatter_to_striped_guarded ranks = %ranks : memref<8xi32> : !coop.group<block>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// WarpExchange of logical warps of 8: each group's region holds 8*2+1
// items; the group synchronizes its own lanes.
// CHECK-LABEL: gpu.func @exchange_logical_warps
// CHECK: memref.view %{{.*}} to memref<136xf64, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[REGION:.*]] = arith.muli %[[G]], %c17
// CHECK: memref.store
// CHECK: memref.store
// CHECK: %[[MASK:.*]] = arith.shli %c255_i32, %{{.*}} : i32
// CHECK: nvvm.bar.warp.sync %[[MASK]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_logical_warps {
  gpu.func @exchange_logical_warps(%in: memref<2xf64>, %out: memref<2xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.exchange %l, %in into %out mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<2xf64>, memref<2xf64>
    gpu.return
  }
}

// -----

// WarpExchange's ScatterToStriped at 8 items a thread pads like CUB's: each
// logical warp of 8 holds 8*8+1 items plus (8*8+1) >> 5 = 2 padding slots
// (67), and pads positions within its own region: rank + rank / 32 on the
// scatter, the striped slot i*8 + lane + (i*8 + lane) / 32 on the gather.
// CHECK-LABEL: gpu.func @warp_scatter_padding
// CHECK: memref.view %{{.*}} to memref<536xi32, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[REGION:.*]] = arith.muli %[[G]], %c67
// CHECK: %[[RANK:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[PAD:.*]] = arith.shrui %[[RANK]], %c5
// CHECK: %[[PADDED:.*]] = arith.addi %[[RANK]], %[[PAD]]
// CHECK: %[[SLOT:.*]] = arith.addi %[[REGION]], %[[PADDED]]
// CHECK: %[[LPAD:.*]] = arith.shrui %[[LANE]], %c5
// CHECK: %[[LPADDED:.*]] = arith.addi %[[LANE]], %[[LPAD]]
// CHECK: %[[GATHER:.*]] = arith.addi %[[REGION]], %[[LPADDED]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[SLOT]]]
// CHECK: nvvm.bar.warp.sync
// CHECK: memref.load %{{.*}}[%[[GATHER]]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @warp_scatter_padding {
  gpu.func @warp_scatter_padding(%in: memref<8xi32>, %ranks: memref<8xi32>, %out: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.exchange %l, %in into %out mode = scatter_to_striped ranks = %ranks : memref<8xi32> : !coop.group<threads_within_warp, 8>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// Time-sliced striped-to-blocked: one warp's 32*4 items per turn, two
// block barriers per turn after the first (the reuse barrier is the
// planner's), warp s gathers in turn s. The turn is a warp vote on the
// 32-bit warp number, so that ptxas branches around the gather instead of
// predicating it in every warp. A strip of the striped input (64 positions)
// that lies wholly in a slice (128) is stored unguarded.
// CHECK-LABEL: gpu.func @exchange_timesliced
// CHECK: memref.view %{{.*}} to memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %view[%thread_id_x]
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %view[%{{.*}}]
// CHECK-NOT: scf.if
// CHECK: gpu.barrier
// CHECK: %[[W:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[W]], %c0_i32 : i32
// CHECK: %[[TURN0:.*]] = nvvm.vote.sync  any %c-1_i32, %[[IS0]] -> i1
// CHECK: scf.if %[[TURN0]] -> (i32, i32, i32, i32) {
// CHECK-COUNT-4: memref.load %view
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[W]], %c1_i32 : i32
// CHECK: %[[TURN1:.*]] = nvvm.vote.sync  any %c-1_i32, %[[IS1]] -> i1
// CHECK: scf.if %[[TURN1]] -> (i32, i32, i32, i32) {
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_timesliced {
  gpu.func @exchange_timesliced(%in: memref<4xi32>, %out: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.exchange %b, %in into %out mode = striped_to_blocked warp_time_slicing : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

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

// BlockReduce warp_reductions: the thread folds its items, each warp
// reduces by butterfly shuffles, lane 0 publishes the warp's aggregate, and
// after one barrier every thread folds the two aggregates (broadcast). The
// warp and lane numbers are 32-bit, as CUB's unsigned ints. Lane 0's store
// is one predicated st.shared to an address computed outside any branch
// (in a branch inside a kernel's loop NVVM rematerializes the buffer's
// address every iteration).
// CHECK-LABEL: gpu.func @block_reduce
// CHECK: %[[T:.*]] = arith.addf
// CHECK: %[[VIEW:.*]] = memref.view {{.*}} to memref<2xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x : index to i32
// CHECK: %[[W:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[L:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-COUNT-5: nvvm.shfl.sync  bfly %c-1_i32
// CHECK: %[[A:.*]] = arith.addf
// CHECK: %[[SLOT:.*]] = arith.index_cast %[[W]] : i32 to index
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[L]], %c0_i32 : i32
// CHECK-NOT: scf.if
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[AT:.*]] = arith.muli %[[SLOT]],
// CHECK: %[[ADDRESS:.*]] = arith.index_castui
// CHECK: %[[BITS:.*]] = arith.bitcast %[[A]] : f32 to i32
// CHECK: %[[P:.*]] = arith.extui %[[LANE0]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b32 [$0], $1; }", "l,r,r,~{memory}" %[[ADDRESS]], %[[BITS]], %[[P]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[X:.*]] = memref.load %[[VIEW]][%c0]
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[VIEW]][%c1]
// CHECK-NEXT: arith.addf %[[X]], %[[Y]]
// CHECK-NOT: gpu.barrier
gpu.module @block_reduce {
  gpu.func @block_reduce(%in: memref<2xf32>, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = sum broadcast : !coop.group<block>, memref<2xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// The predicated store by width: 8- and 16-bit items from a 32-bit register
// (PTX stores narrow items from wider registers), 64-bit from a 64-bit one.
// CHECK-LABEL: gpu.func @block_reduce_store_widths
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b8 [$0], $1; }", "l,r,r,~{memory}" %{{.*}} : (i64, i32, i32) -> ()
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b16 [$0], $1; }", "l,r,r,~{memory}" %{{.*}} : (i64, i32, i32) -> ()
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b64 [$0], $1; }", "l,l,r,~{memory}" %{{.*}} : (i64, i64, i32) -> ()
gpu.module @block_reduce_store_widths {
  gpu.func @block_reduce_store_widths(%a: memref<2xi8>, %h: memref<2xf16>, %d: memref<2xf64>,
                                      %out8: memref<1xi8>, %out16: memref<1xf16>, %out64: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %r8 = coop.reduce %b, %a op = sum : !coop.group<block>, memref<2xi8> -> i8
    memref.store %r8, %out8[%c0] : memref<1xi8>
    %r16 = coop.reduce %b, %h op = sum : !coop.group<block>, memref<2xf16> -> f16
    memref.store %r16, %out16[%c0] : memref<1xf16>
    %r64 = coop.reduce %b, %d op = sum : !coop.group<block>, memref<2xf64> -> f64
    memref.store %r64, %out64[%c0] : memref<1xf64>
    gpu.return
  }
}

// -----

// Floats' max and min are cuda::maximum's and cuda::minimum's fmax and fmin
// (a NaN operand yields the other): one max.f32 each, not a compare and a
// select in a row.
// CHECK-LABEL: gpu.func @warp_max_and_min_of_floats
// CHECK-COUNT-5: arith.maxnumf
// CHECK-NOT: arith.cmpf
// CHECK-COUNT-5: arith.minnumf
// CHECK-NOT: arith.cmpf
gpu.module @warp_max_and_min_of_floats {
  gpu.func @warp_max_and_min_of_floats(%x: f32, %dst: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %w = coop.this_warp
    %hi = coop.reduce %w, %x op = max : !coop.group<warp>, f32 -> f32
    %lo = coop.reduce %w, %x op = min : !coop.group<warp>, f32 -> f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %hi, %dst[%c0] : memref<2xf32>
    memref.store %lo, %dst[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// WarpReduce of logical warps of 8 lanes with a function operator: three
// down-shuffle steps (WarpReduceShfl's ReduceStep), each lane folding in the
// lane `offset` above it, so the operator need not commute and each group's
// first lane gets the aggregate; a lane past its group is left out. 64-bit
// items move as two 32-bit shuffles. Without broadcast, nothing more.
// CHECK-LABEL: gpu.func @warp_reduce_function
// CHECK: %[[R:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[RANK:.*]] = arith.index_castui %[[R]] : index to i32
// CHECK: %[[LEFT:.*]] = arith.subi %c8_i32, %[[RANK]] : i32
// CHECK-COUNT-2: nvvm.shfl.sync  down %c-1_i32, %{{.*}}, %{{.*}}, %c31_i32 : i32 -> i32
// CHECK: %[[P:.*]] = arith.ori
// CHECK: %[[F:.*]] = func.call @first(%arg0, %[[P]])
// CHECK: %[[IN:.*]] = arith.cmpi sgt, %[[LEFT]], %c1_i32 : i32
// CHECK: arith.select %[[IN]], %[[F]], %arg0
// CHECK-COUNT-4: nvvm.shfl.sync  down
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
gpu.module @warp_reduce_function {
  func.func private @first(%a: i64, %b: i64) -> i64
  gpu.func @warp_reduce_function(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.reduce %l, %x combiner = @first : !coop.group<threads_within_warp, 8>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// A partial sum of a whole warp with broadcast: the first `valid` lanes only
// (down shuffles bounded by valid - rank in 32 bits, no butterflies, no
// redux.sync), then one idx shuffle from the group's first lane gives every
// lane the aggregate.
// CHECK-LABEL: gpu.func @warp_partial_sum
// CHECK: %[[VALID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[RANK:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[LIMIT:.*]] = arith.minui %[[VALID]], %c32_i32 : i32
// CHECK: %[[LEFT:.*]] = arith.subi %[[LIMIT]], %[[RANK]] : i32
// CHECK-NOT: bfly
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-5: nvvm.shfl.sync  down
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid
// CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %c-32_i32
// CHECK: nvvm.shfl.sync  idx %c-1_i32, %{{.*}}, %{{.*}}, %c31_i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
gpu.module @warp_partial_sum {
  gpu.func @warp_partial_sum(%x: i32, %n: index, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = sum valid_items = %n broadcast : !coop.group<warp>, i32 -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

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

// A partial tile by raking: the threads past the valid ones place the sum's
// exact identity (-0.0 for floats), and the raking threads fold whole
// segments and reduce whole warps without a guard. Float max has no exact
// identity (fmax passes over a NaN): its raking threads guard each slot.
// CHECK-LABEL: gpu.func @block_partial_raking_sum
// CHECK: %[[NEG0:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PLACED:.*]] = arith.select %[[HAS]], %{{.*}}, %[[NEG0]] : f64
// CHECK-NEXT: memref.store %[[PLACED]]
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: arith.select
// CHECK: nvvm.shfl.sync  bfly
// CHECK-LABEL: gpu.func @block_partial_raking_max
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: arith.cmpi sgt
// CHECK-NEXT: arith.select
gpu.module @block_partial_raking {
  gpu.func @block_partial_raking_sum(%in: memref<2xf64>, %n: index, %dst: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = sum valid_items = %n algorithm = raking : !coop.group<block>, memref<2xf64> -> f64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf64>
    gpu.return
  }
  gpu.func @block_partial_raking_max(%in: memref<2xf32>, %n: index, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = max valid_items = %n algorithm = raking : !coop.group<block>, memref<2xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
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

// A swizzled transpose's striped slots are the thread's first slot plus
// constants where the swizzle's period divides the stride (1024 threads, the
// XOR of row bits 4-5 into bits 0-1): one address with immediate offsets,
// where slots swizzled one by one stayed four values live across whatever
// came between the transpose's phases. The blocked slots (4t + i) differ
// in the swizzled bits and keep their own.
// CHECK-LABEL: gpu.func @transpose_striped_slots_share_an_address
// CHECK: %[[ROW:.*]] = arith.shrui %thread_id_x, %c4
// CHECK: %[[LOW:.*]] = arith.andi %[[ROW]], %c3
// CHECK: %[[FIRST:.*]] = arith.xori %thread_id_x, %[[LOW]]
// CHECK: %[[S1:.*]] = arith.addi %[[FIRST]], %c1024
// CHECK: %[[S2:.*]] = arith.addi %[[FIRST]], %c2048
// CHECK: %[[S3:.*]] = arith.addi %[[FIRST]], %c3072
// CHECK-COUNT-4: arith.xori
// CHECK: memref.store %{{.*}}, %view[%[[FIRST]]]
// CHECK: memref.store %{{.*}}, %view[%[[S1]]]
// CHECK: memref.store %{{.*}}, %view[%[[S2]]]
// CHECK: memref.store %{{.*}}, %view[%[[S3]]]
gpu.module @transpose_striped_slots_share_an_address {
  gpu.func @transpose_striped_slots_share_an_address(%src: memref<?xf64>, %items: memref<4xf64>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xf64>, memref<4xf64>
    gpu.return
  }
}
