// RUN: coop-opt %s -split-input-file -verify-diagnostics

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

func.func @shuffle_up_block_prefix(%in: memref<4xf32>, %out: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'up' shifts items toward higher positions: the item shifted out is the block_suffix}}
  %r = coop.shuffle %b, %in into %out mode = up block_prefix : !coop.group<block>, memref<4xf32>, memref<4xf32> -> f32
  return
}

// -----

func.func @shuffle_down_block_suffix(%in: memref<4xf32>, %out: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{mode 'down' shifts items toward lower positions: the item shifted out is the block_prefix}}
  %r = coop.shuffle %b, %in into %out mode = down block_suffix : !coop.group<block>, memref<4xf32>, memref<4xf32> -> f32
  return
}

// -----

func.func @shuffle_suffix_without_result(%in: memref<4xf32>, %out: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{block_suffix returns one item of the input's type 'f32'}}
  coop.shuffle %b, %in into %out mode = up block_suffix : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @shuffle_suffix_type(%in: memref<4xf32>, %out: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{block_prefix returns one item of the input's type 'f32'}}
  %r = coop.shuffle %b, %in into %out mode = down block_prefix : !coop.group<block>, memref<4xf32>, memref<4xf32> -> i32
  return
}

// -----

func.func @shuffle_offset_edge(%x: f32) {
  %b = coop.this_block
  // expected-error @+1 {{block_prefix and block_suffix are the items up and down shift out of the tile; mode 'offset' has none}}
  %r = coop.shuffle %b, %x mode = offset block_suffix : !coop.group<block>, f32 -> f32
  return
}
