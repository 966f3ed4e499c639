// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// Blocked positions t*ipt + i, each guarded by valid_items, oob_default in
// the other slots; the items land in the payload at constant indices. The
// guards compare in 32 bits, signed, as CUB's int counts do: the count's
// low 32 bits (a negative count guards every item out), or any position when
// the count is past INT32_MAX (a tile's positions are far below).
// CHECK-LABEL: gpu.func @direct_guarded
// CHECK-SAME: (%[[SRC:.*]]: memref<?xi32>, %[[OFF:.*]]: index, %[[N:.*]]: index, %[[X:.*]]: i32)
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[P0:.*]] = arith.muli %[[T]], %c2
// CHECK: %[[N32:.*]] = arith.index_castui %[[N]] : index to i32
// CHECK: %[[BIG:.*]] = arith.cmpi sgt, %[[N]], %c2147483647 : index
// CHECK: %[[I0:.*]] = arith.addi %[[OFF]], %[[P0]]
// CHECK: %[[P032:.*]] = arith.index_castui %[[P0]] : index to i32
// CHECK: %[[B0:.*]] = arith.cmpi slt, %[[P032]], %[[N32]] : i32
// CHECK: %[[G0:.*]] = arith.ori %[[BIG]], %[[B0]] : i1
// CHECK: %[[V0:.*]] = scf.if %[[G0]] -> (i32) {
// CHECK:   memref.load %[[SRC]][%[[I0]]]
// CHECK: } else {
// CHECK:   scf.yield %[[X]]
// CHECK: %[[P1:.*]] = arith.addi %[[P0]], %c1
// CHECK: %[[P132:.*]] = arith.index_castui %[[P1]] : index to i32
// CHECK: arith.cmpi slt, %[[P132]], %[[N32]] : i32
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
// CHECK: %[[B0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
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
// CHECK: %[[B0:.*]] = arith.cmpi slt, %{{.*}}, %[[N32:.*]] : i32
// CHECK: %[[G0:.*]] = arith.ori %{{.*}}, %[[B0]] : i1
// CHECK: %[[P0:.*]] = arith.extui %[[G0]] : i1 to i32
// CHECK: llvm.inline_asm "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p ld.global.nc.b64 $0, [$1]; }", "=l,l,r,0" %[[FIRST]], %[[P0]], %c0_i64 : (i64, i32, i64) -> i64
// CHECK: arith.cmpi slt, %{{.*}}, %[[N32]] : i32
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

// -----

// A reserved array is a view of the scratch buffer at its planned offset,
// before the transpose's slice.
// CHECK-LABEL: gpu.func @reserved_array
// CHECK: %[[BUF:.*]] = memref.get_global @__coop_scratch_reserved_array
// CHECK: %[[ARRAY:.*]] = memref.view %[[BUF]][%c0][] : memref<2064xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[BUF]][%c16][] : memref<2064xi8, #gpu.address_space<workgroup>> to memref<512xi32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[ARRAY]][%c0]
gpu.module @reserved_array {
  gpu.func @reserved_array(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %ts = coop.temp_storage
    %counts = coop.reserve %ts count = 4 : memref<4xi32, #gpu.address_space<workgroup>>
    %items = memref.alloca() : memref<4xi32>
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    %c0 = arith.constant 0 : index
    %v = memref.load %items[%c0] : memref<4xi32>
    memref.store %v, %counts[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
