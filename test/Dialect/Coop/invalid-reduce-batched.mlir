// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @batched_block(%x: memref<4xi32>, %o: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{is a warp operation (CUB's WarpReduceBatched): use this_warp() or a logical warp (this_warp().group_by(n)), not '!coop.group<block>'}}
  coop.reduce_batched %b, %x into %o op = sum : !coop.group<block>, memref<4xi32>, memref<1xi32>
  return
}

// -----

func.func @batched_no_operator(%x: memref<64xi32>, %o: memref<2xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{needs exactly one operator}}
  coop.reduce_batched %w, %x into %o : !coop.group<warp>, memref<64xi32>, memref<2xi32>
  return
}

// -----

func.func @batched_bitwise_float(%x: memref<64xf32>, %o: memref<2xf32>) {
  %w = coop.this_warp
  // expected-error @+1 {{operator 'bit_xor' needs integer items; got 'f32'}}
  coop.reduce_batched %w, %x into %o op = bit_xor : !coop.group<warp>, memref<64xf32>, memref<2xf32>
  return
}

// -----

func.func @batched_output_slots(%x: memref<40xi32>, %o: memref<1xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{output must hold ceil(40 batches / 32 lanes) = 2 items of 'i32'; got 'memref<1xi32>'}}
  coop.reduce_batched %w, %x into %o op = sum : !coop.group<warp>, memref<40xi32>, memref<1xi32>
  return
}

// -----

func.func @batched_output_type(%x: memref<12xi32>, %o: memref<3xf32>) {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
  // expected-error @+1 {{output must hold ceil(12 batches / 4 lanes) = 3 items of 'i32'; got 'memref<3xf32>'}}
  coop.reduce_batched %l, %x into %o op = max : !coop.group<threads_within_warp, 4>, memref<12xi32>, memref<3xf32>
  return
}

// -----

func.func private @pick(i32) -> i32

func.func @batched_combiner_type(%x: memref<4xi32>, %o: memref<1xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{combiner @pick must take two items and return one}}
  coop.reduce_batched %w, %x into %o combiner = @pick : !coop.group<warp>, memref<4xi32>, memref<1xi32>
  return
}
