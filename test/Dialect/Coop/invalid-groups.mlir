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
