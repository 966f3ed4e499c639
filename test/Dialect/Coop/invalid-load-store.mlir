// RUN: coop-opt %s -split-input-file -verify-diagnostics

// load and store: groups.

func.func @load_thread(%src: memref<?xi32>) {
  %t = coop.this_thread
  %items = memref.alloca() : memref<4xi32>
  // expected-error @+1 {{needs a block, a warp or a logical warp (this_warp().group_by(n)) group; '!coop.group<thread>' is not a load target}}
  coop.load %t, %src into %items : !coop.group<thread>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @store_cluster(%dst: memref<?xi32>, %items: memref<4xi32>) {
  %c = coop.this_cluster
  // expected-error @+1 {{'!coop.group<cluster>' is not a store target}}
  coop.store %c, %items into %dst : !coop.group<cluster>, memref<4xi32>, memref<?xi32>
  return
}

// -----

func.func @load_grid(%src: memref<?xi32>, %items: memref<4xi32>) {
  %g = coop.this_grid
  // expected-error @+1 {{'!coop.group<grid>' is not a load target}}
  coop.load %g, %src into %items : !coop.group<grid>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @load_warps_within_block(%src: memref<?xi32>, %items: memref<4xi32>) {
  %b = coop.this_block
  %p = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 2>
  // expected-error @+1 {{'!coop.group<warps_within_block, 2>' is not a load target}}
  coop.load %p, %src into %items : !coop.group<warps_within_block, 2>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @logical_warp_width(%src: memref<?xi32>, %items: memref<4xi32>) {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 3, non_exhaustive>
  // expected-error @+1 {{logical warp width must be 1, 2, 4, 8, 16 or 32; got 3 (non-exhaustive)}}
  coop.load %l, %src into %items : !coop.group<threads_within_warp, 3, non_exhaustive>, memref<?xi32>, memref<4xi32>
  return
}

// -----

// load and store: algorithms.

func.func @warp_transpose_on_warp(%src: memref<?xi32>, %items: memref<4xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{algorithm 'warp_transpose' is not valid for a warp group; warps accept direct, striped, vectorize and transpose}}
  coop.load %w, %src into %items algorithm = warp_transpose : !coop.group<warp>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @timesliced_on_logical_warp(%dst: memref<?xi32>, %items: memref<4xi32>) {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 16>
  // expected-error @+1 {{algorithm 'warp_transpose_timesliced' is not valid for a warp group}}
  coop.store %l, %items into %dst algorithm = warp_transpose_timesliced : !coop.group<threads_within_warp, 16>, memref<4xi32>, memref<?xi32>
  return
}

// -----

func.func @unknown_algorithm(%src: memref<?xi32>, %items: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+2 {{expected ::mlir::coop::Algorithm to be one of: direct, striped, vectorize, transpose, warp_transpose, warp_transpose_timesliced}}
  // expected-error @+1 {{failed to parse Coop_AlgorithmAttr parameter 'value'}}
  coop.load %b, %src into %items algorithm = blocked : !coop.group<block>, memref<?xi32>, memref<4xi32>
  return
}

// -----

// load and store: payloads and element types.

func.func @load_dtype_mismatch(%src: memref<?xi32>, %items: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{payload element type 'f32' does not match the source element type 'i32'}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<4xf32>
  return
}

// -----

func.func @store_dtype_mismatch(%dst: memref<?xf64>, %items: memref<2xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{payload element type 'f32' does not match the destination element type 'f64'}}
  coop.store %b, %items into %dst : !coop.group<block>, memref<2xf32>, memref<?xf64>
  return
}

// -----

func.func @store_scalar_mismatch(%dst: memref<?xi64>, %x: i32) {
  %w = coop.this_warp
  // expected-error @+1 {{payload element type 'i32' does not match the destination element type 'i64'}}
  coop.store %w, %x into %dst : !coop.group<warp>, i32, memref<?xi64>
  return
}

// -----

func.func @zero_items(%src: memref<?xi32>, %items: memref<0xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{items_per_thread must be positive; the payload has 0 items}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<0xi32>
  return
}

// -----

func.func @too_many_items(%src: memref<?xi32>, %items: memref<4294967296xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{has 4294967296 items per thread; at most 4096 are supported (the lowering unrolls each item)}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<4294967296xi32>
  return
}

// -----

func.func @dynamic_payload(%src: memref<?xi32>, %items: memref<?xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{payload must have a static size (items_per_thread)}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<?xi32>
  return
}

// -----

func.func @two_dimensional_source(%src: memref<?x?xi32>, %items: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{operand #1 must be 1D memref of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?x?xi32>, memref<4xi32>
  return
}

// -----

// load: read_only promises global memory.

func.func @read_only_shared_source(%src: memref<128xi32, #gpu.address_space<workgroup>>, %items: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{read_only needs a source in global memory; got memory space #gpu.address_space<workgroup> (ld.global.nc reads global memory only)}}
  coop.load %b, %src into %items read_only : !coop.group<block>, memref<128xi32, #gpu.address_space<workgroup>>, memref<4xi32>
  return
}

// -----

func.func @read_only_numbered_shared_source(%src: memref<128xi32, 3>, %items: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{read_only needs a source in global memory; got memory space 3 : i64}}
  coop.load %b, %src into %items read_only : !coop.group<block>, memref<128xi32, 3>, memref<4xi32>
  return
}

// -----

// load: valid_items and oob_default.

func.func @oob_default_without_valid_items(%src: memref<?xi32>, %items: memref<4xi32>, %x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{oob_default requires valid_items}}
  coop.load %b, %src into %items oob_default = %x : i32 : !coop.group<block>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @oob_default_type(%src: memref<?xi32>, %items: memref<4xi32>, %n: index, %x: i64) {
  %b = coop.this_block
  // expected-error @+1 {{oob_default type 'i64' does not match the payload element type 'i32'}}
  coop.load %b, %src into %items valid_items = %n oob_default = %x : i64 : !coop.group<block>, memref<?xi32>, memref<4xi32>
  return
}

// -----

func.func @temp_storage_on_direct(%dst: memref<?xi32>, %items: memref<4xi32>) {
  %b = coop.this_block
  %ts = coop.temp_storage
  // expected-error @+1 {{temp_storage is only used by the transpose, warp_transpose and warp_transpose_timesliced algorithms; algorithm 'striped' needs no scratch, remove temp_storage}}
  coop.store %b, %items into %dst algorithm = striped temp_storage = %ts : !coop.group<block>, memref<4xi32>, memref<?xi32>
  return
}

// -----

// load and store: block size (launch facts).

gpu.module @kernels {
  gpu.func @warp_load_partial_warp(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 100, 1, 1>} {
    %w = coop.this_warp
    %items = memref.alloca() : memref<4xi32>
    // expected-error @+1 {{warp load needs a block size that is a multiple of 32; the block has 100 threads}}
    coop.load %w, %src into %items : !coop.group<warp>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @warp_transpose_partial_warp(%dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 10, 5, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    // expected-error @+1 {{algorithm 'warp_transpose' needs a block size that is a multiple of 32; the block has 50 threads}}
    coop.store %b, %items into %dst algorithm = warp_transpose : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

func.func @logical_warp_partial_warp(%dst: memref<?xi32>, %items: memref<4xi32>)
    attributes {gpu.known_block_size = array<i32: 48, 1, 1>} {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 16>
  // expected-error @+1 {{warp store needs a block size that is a multiple of 32; the block has 48 threads}}
  coop.store %l, %items into %dst : !coop.group<threads_within_warp, 16>, memref<4xi32>, memref<?xi32>
  return
}

// -----

func.func @bool_elements(%src: memref<?xi1>, %items: memref<4xi1>) {
  %b = coop.this_block
  // expected-error @+1 {{operand #1 must be 1D memref of 8-bit signless integer}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi1>, memref<4xi1>
  return
}
