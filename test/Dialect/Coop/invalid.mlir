// RUN: coop-opt %s -split-input-file -verify-diagnostics

// Types.

// expected-error @+1 {{unknown group kind 'lane'; expected thread, warp, block, cluster, grid, threads_within_warp or warps_within_block}}
func.func @unknown_kind(%g: !coop.group<lane>)

// -----

// expected-error @+1 {{a 'block' group takes no count or exhaustive flag}}
func.func @count_on_block(%g: !coop.group<block, 2>)

// -----

// expected-error @+1 {{a 'threads_within_warp' group needs a positive count}}
func.func @zero_count(%g: !coop.group<threads_within_warp, 0>)

// -----

// expected-error @+1 {{a logical warp holds at most 32 lanes; got 64}}
func.func @wide_logical_warp(%g: !coop.group<threads_within_warp, 64>)

// -----

// expected-error @+1 {{an exhaustive partition must divide the warp's 32 lanes; 3 does not (use non_exhaustive to allow a remainder)}}
func.func @inexact_partition(%g: !coop.group<threads_within_warp, 3>)

// -----

// group_by.

func.func @nested_group_by() {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
  // expected-error @+1 {{nested partitions are unsupported}}
  %n = coop.group_by %l : !coop.group<threads_within_warp, 8> -> !coop.group<threads_within_warp, 4>
  return
}

// -----

func.func @group_by_thread() {
  %t = coop.this_thread
  // expected-error @+1 {{partitions a warp (by threads) or a block (by warps); a 'thread' group cannot be partitioned}}
  %n = coop.group_by %t : !coop.group<thread> -> !coop.group<threads_within_warp, 1>
  return
}

// -----

func.func @group_by_wrong_result() {
  %b = coop.this_block
  // expected-error @+1 {{gives 'warps_within_block' groups, but the result type is '!coop.group<threads_within_warp, 8>'}}
  %n = coop.group_by %b : !coop.group<block> -> !coop.group<threads_within_warp, 8>
  return
}

// -----

func.func @block_partition_inexact() attributes {gpu.known_block_size = array<i32: 96, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{an exhaustive partition must divide the block's 3 warps; 2 does not}}
  %n = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 2>
  return
}

// -----

func.func @block_partition_too_big() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{groups of 4 warps do not fit in a block of 2 warps}}
  %n = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 4, non_exhaustive>
  return
}

// -----

func.func @block_partition_partial_warp() attributes {gpu.known_block_size = array<i32: 100, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{partitioning a block by warps needs a block size that is a multiple of 32; the block has 100 threads}}
  %n = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 1>
  return
}

// -----

// barrier.

func.func @grid_barrier() {
  %g = coop.this_grid
  // expected-error @+1 {{cannot synchronize a grid}}
  coop.barrier %g : !coop.group<grid>
  return
}

// -----

// temp_storage.

func.func @alignment_not_power_of_two() {
  // expected-error @+1 {{alignment must be a positive power of two; got 24}}
  %ts = coop.temp_storage alignment = 24
  return
}

// -----

func.func @alignment_zero() {
  // expected-error @+1 {{alignment must be a positive power of two; got 0}}
  %ts = coop.temp_storage alignment = 0
  return
}

// -----

func.func @size_not_positive() {
  // expected-error @+1 {{size_in_bytes must be positive; got 0}}
  %ts = coop.temp_storage size_in_bytes = 0
  return
}

// -----

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

func.func @too_many_thread_items(%items: memref<4097xi32>) -> i32 {
  %t = coop.this_thread
  // expected-error @+1 {{has 4097 items per thread; at most 4096 are supported}}
  %r = coop.reduce %t, %items op = sum : !coop.group<thread>, memref<4097xi32> -> i32
  return %r : i32
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

// load and store: temp storage.

func.func @temp_storage_on_warp(%src: memref<?xi32>, %items: memref<4xi32>) {
  %w = coop.this_warp
  %ts = coop.temp_storage
  // expected-error @+1 {{warp operations take no temp_storage (the compiler allocates warp scratch); remove temp_storage}}
  coop.load %w, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<warp>, memref<?xi32>, memref<4xi32>
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

// -----

// Exchange rules.

func.func @exchange_type_mismatch(%in: memref<4xf32>, %out: memref<4xi32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{output payload 'memref<4xi32>' must have the input payload's type 'memref<4xf32>'}}
  coop.exchange %b, %in into %out mode = striped_to_blocked : !coop.group<block>, memref<4xf32>, memref<4xi32>
  return
}

// -----

func.func @exchange_warp_mode(%in: memref<4xf32>) {
  %w = coop.this_warp
  // expected-error @+1 {{mode 'blocked_to_warp_striped' is not valid for a warp group; warps accept striped_to_blocked, blocked_to_striped and scatter_to_striped}}
  coop.exchange %w, %in into %in mode = blocked_to_warp_striped : !coop.group<warp>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_warp_time_slicing(%in: memref<4xf32>) {
  %w = coop.this_warp
  // expected-error @+1 {{warp_time_slicing is for block exchanges; a warp exchange already uses one warp's scratch}}
  coop.exchange %w, %in into %in mode = striped_to_blocked warp_time_slicing : !coop.group<warp>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_missing_ranks(%in: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'scatter_to_blocked' needs ranks (the tile position of each item)}}
  coop.exchange %b, %in into %in mode = scatter_to_blocked : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_extra_ranks(%in: memref<4xf32>, %r: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'striped_to_blocked' takes no ranks (only the scatter modes do)}}
  coop.exchange %b, %in into %in mode = striped_to_blocked ranks = %r : memref<4xi32> : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_ranks_size(%in: memref<4xf32>, %r: memref<2xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{ranks must have one entry per item (4); got 'memref<2xi32>'}}
  coop.exchange %b, %in into %in mode = scatter_to_striped ranks = %r : memref<2xi32> : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_missing_flags(%in: memref<4xf32>, %r: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'scatter_to_striped_flagged' needs valid_flags}}
  coop.exchange %b, %in into %in mode = scatter_to_striped_flagged ranks = %r : memref<4xi32> : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_extra_flags(%in: memref<4xf32>, %r: memref<4xi32>, %f: memref<4xi1>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'scatter_to_striped' takes no valid_flags (only scatter_to_striped_flagged does)}}
  coop.exchange %b, %in into %in mode = scatter_to_striped ranks = %r : memref<4xi32> valid_flags = %f : memref<4xi1> : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_flags_size(%in: memref<4xf32>, %r: memref<4xi32>, %f: memref<3xi1>) {
  %b = coop.this_block
  // expected-error @+1 {{valid_flags must have one entry per item (4); got 'memref<3xi1>'}}
  coop.exchange %b, %in into %in mode = scatter_to_striped_flagged ranks = %r : memref<4xi32> valid_flags = %f : memref<3xi1> : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_sliced_guarded(%in: memref<4xf32>, %r: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{warp_time_slicing is not available for mode 'scatter_to_striped_guarded'; remove warp_time_slicing}}
  coop.exchange %b, %in into %in mode = scatter_to_striped_guarded ranks = %r : memref<4xi32> warp_time_slicing : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_partial_warps(%in: memref<4xf32>) attributes {gpu.known_block_size = array<i32: 48, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{mode 'warp_striped_to_blocked' needs a block size that is a multiple of 32; the block has 48 threads}}
  coop.exchange %b, %in into %in mode = warp_striped_to_blocked : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_warp_temp_storage(%in: memref<4xf32>) {
  %w = coop.this_warp
  %ts = coop.temp_storage
  // expected-error @+1 {{warp operations take no temp_storage (the compiler allocates warp scratch); remove temp_storage}}
  coop.exchange %w, %in into %in mode = striped_to_blocked temp_storage = %ts : !coop.group<warp>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @exchange_cluster(%in: memref<4xf32>) {
  %c = coop.this_cluster
  // expected-error @+1 {{needs a block, a warp or a logical warp (this_warp().group_by(n)) group; '!coop.group<cluster>' is not an exchange target}}
  coop.exchange %c, %in into %in mode = striped_to_blocked : !coop.group<cluster>, memref<4xf32>, memref<4xf32>
  return
}

// -----

// Shuffle rules.

func.func @shuffle_warp(%x: f32) {
  %w = coop.this_warp
  // expected-error @+1 {{is a block operation (CUB's BlockShuffle); use this_block(), not '!coop.group<warp>'}}
  %r = coop.shuffle %w, %x mode = offset : !coop.group<warp>, f32 -> f32
  return
}

// -----

func.func @shuffle_up_scalar(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'up' shifts payloads: pass a payload and an output payload ('into'); scalars use offset or rotate}}
  %r = coop.shuffle %b, %x mode = up : !coop.group<block>, f32 -> f32
  return
}

// -----

func.func @shuffle_up_types(%in: memref<4xf32>, %out: memref<2xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{output payload 'memref<2xf32>' must have the input payload's type 'memref<4xf32>'}}
  coop.shuffle %b, %in into %out mode = down : !coop.group<block>, memref<4xf32>, memref<2xf32>
  return
}

// -----

func.func @shuffle_up_distance(%in: memref<4xf32>, %d: index) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'up' moves items by exactly one position; remove distance}}
  coop.shuffle %b, %in into %in mode = up distance = %d : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @shuffle_offset_payload(%in: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'offset' moves one scalar per thread; payloads use up or down}}
  coop.shuffle %b, %in into %in mode = offset : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @shuffle_offset_result(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'offset' returns a value of the input's type 'f32'}}
  %r = coop.shuffle %b, %x mode = offset : !coop.group<block>, f32 -> i32
  return
}

// -----

func.func @shuffle_rotate_fill(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{rotate leaves no thread without a source; remove fill}}
  %r = coop.shuffle %b, %x mode = rotate fill = %x : f32 : !coop.group<block>, f32 -> f32
  return
}

// -----

func.func @shuffle_fill_type(%x: f32, %y: i32) {
  %b = coop.this_block
  // expected-error @+1 {{fill type 'i32' does not match the item type 'f32'}}
  %r = coop.shuffle %b, %x mode = offset fill = %y : i32 : !coop.group<block>, f32 -> f32
  return
}

// -----

func.func private @f(i32, i32) -> i32
func.func @reduce_two_operators(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one operator: a named one (op = sum, min, max, ...) or a function (combiner = @f)}}
  %r = coop.reduce %b, %x op = sum combiner = @f : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @reduce_no_operator(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one operator}}
  %r = coop.reduce %b, %x : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func private @f(i32, f32) -> i32
func.func @reduce_combiner_type(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{combiner @f must take two items and return one ('i32', 'i32') -> 'i32'; it is '(i32, f32) -> i32'}}
  %r = coop.reduce %b, %x combiner = @f : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @reduce_bitwise_float(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{operator 'bit_xor' needs integer items; got 'f32'}}
  %r = coop.reduce %b, %x op = bit_xor : !coop.group<block>, f32 -> f32
  return
}

// -----

func.func @reduce_unsigned_float(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{'unsigned' applies to integer items; got 'f32'}}
  %r = coop.reduce %b, %x op = min unsigned : !coop.group<block>, f32 -> f32
  return
}

// -----

func.func @reduce_result_type(%x: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{result type 'i64' must be the item type 'i32'}}
  %r = coop.reduce %b, %x op = sum : !coop.group<block>, memref<4xi32> -> i64
  return
}

// -----

func.func @reduce_warp_algorithm(%x: i32) {
  %b = coop.this_warp
  // expected-error @+1 {{algorithm is a block option: '!coop.group<warp>' combines by shuffles; remove algorithm}}
  %r = coop.reduce %b, %x op = sum algorithm = raking : !coop.group<warp>, i32 -> i32
  return
}

// -----

func.func @reduce_thread_storage(%x: memref<4xi32>) {
  %b = coop.this_thread
  %ts = coop.temp_storage
  // expected-error @+1 {{a thread works on its own items and takes no temp_storage; remove temp_storage}}
  %r = coop.reduce %b, %x op = sum temp_storage = %ts : !coop.group<thread>, memref<4xi32> -> i32
  return
}

// -----

func.func @reduce_cluster(%x: i32) {
  %b = coop.this_cluster
  // expected-error @+1 {{needs a block, a warp or a logical warp}}
  %r = coop.reduce %b, %x op = sum : !coop.group<cluster>, i32 -> i32
  return
}

// -----

func.func @scan_thread(%x: i32) {
  %b = coop.this_thread
  // expected-error @+1 {{needs a block, a warp or a logical warp}}
  %r = coop.scan %b, %x mode = inclusive op = sum : !coop.group<thread>, i32 -> i32
  return
}

// -----

func.func @scan_payload_no_output(%x: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{scans a payload into an output payload ('into') of the input's type 'memref<4xi32>'}}
  coop.scan %b, %x mode = inclusive op = sum : !coop.group<block>, memref<4xi32>
  return
}

// -----

func.func @scan_scalar_into(%x: i32, %o: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{scans a scalar and returns it; remove 'into'}}
  coop.scan %b, %x into %o mode = inclusive op = sum : !coop.group<block>, i32, memref<1xi32>
  return
}

// -----

func.func @scan_result_count(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{returns 2 value(s): the scanned scalar and the aggregate; got 1}}
  %r = coop.scan %b, %x mode = inclusive op = sum aggregate : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_initial_type(%x: i32, %y: f32) {
  %b = coop.this_block
  // expected-error @+1 {{initial_value type 'f32' does not match the item type 'i32'}}
  %r = coop.scan %b, %x mode = exclusive op = sum initial_value = %y : f32 : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_warp_storage(%x: i32) {
  %b = coop.this_warp
  %ts = coop.temp_storage
  // expected-error @+1 {{warp operations take no temp_storage}}
  %r = coop.scan %b, %x mode = inclusive op = sum temp_storage = %ts : !coop.group<warp>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_on_warp(%x: i32, %state: memref<1xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{prefix is a block option: '!coop.group<warp>' scans by shuffles}}
  %r = coop.scan %w, %x mode = exclusive op = sum prefix = @f(%state : memref<1xi32>) : !coop.group<warp>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_and_initial_value(%x: i32, %y: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{prefix and initial_value both seed the scan; pass one}}
  %r = coop.scan %b, %x mode = exclusive op = sum initial_value = %y : i32 prefix = @f(%state : memref<1xi32>) : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func private @wrong_prefix(%state: memref<1xi32>, %aggregate: i64) -> i64

func.func @scan_prefix_type(%x: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{prefix function @wrong_prefix must take the state and the tile's aggregate and return the prefix ('memref<1xi32>', 'i32') -> 'i32'; it is '(memref<1xi32>, i64) -> i64'}}
  %r = coop.scan %b, %x mode = exclusive op = sum prefix = @wrong_prefix(%state : memref<1xi32>) : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_without_state(%x: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{prefix needs both its function and its state}}
  %r = "coop.scan"(%b, %x) <{mode = #coop<scan_mode exclusive>, kind = #coop<binary_op sum>, prefix_callback = @f, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> : (!coop.group<block>, i32) -> i32
  return
}
