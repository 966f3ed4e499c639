// RUN: coop-opt %s -split-input-file -verify-diagnostics

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

func.func @exchange_cluster(%in: memref<4xf32>) {
  %c = coop.this_cluster
  // expected-error @+1 {{needs a block, a warp or a logical warp (this_warp().group_by(n)) group; '!coop.group<cluster>' is not an exchange target}}
  coop.exchange %c, %in into %in mode = striped_to_blocked : !coop.group<cluster>, memref<4xf32>, memref<4xf32>
  return
}
