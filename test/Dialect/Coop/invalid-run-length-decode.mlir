// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @decode_of_a_warp(%v: memref<2xf32>, %l: memref<2xi32>, %o: memref<4xf32>) {
  %w = coop.this_warp
  // expected-error @+1 {{is a block operation (CUB's BlockRunLengthDecode); use this_block()}}
  coop.run_length_decode %w, %v, %l into %o decoded_items_per_thread = 4 : !coop.group<warp>, memref<2xf32>, memref<2xi32>, memref<4xf32>
  return
}

// -----

func.func @float_lengths(%v: memref<2xf32>, %l: memref<2xf32>, %o: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{run lengths must be integers; got 'f32'}}
  coop.run_length_decode %b, %v, %l into %o decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xf32>, memref<4xf32>
  return
}

// -----

func.func @lengths_not_one_per_run(%v: memref<2xf32>, %l: memref<3xi32>, %o: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{needs one length a run: 2 run values, 3 lengths}}
  coop.run_length_decode %b, %v, %l into %o decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<3xi32>, memref<4xf32>
  return
}

// -----

func.func @no_window(%v: memref<2xf32>, %l: memref<2xi32>, %o: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{decoded_items_per_thread must be at least 1; got 0}}
  coop.run_length_decode %b, %v, %l into %o decoded_items_per_thread = 0 : !coop.group<block>, memref<2xf32>, memref<2xi32>, memref<4xf32>
  return
}

// -----

func.func @no_destination(%v: memref<2xf32>, %l: memref<2xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one destination: a window of decoded items ('into', a payload) or an array for the whole stream ('destination = ...')}}
  coop.run_length_decode %b, %v, %l decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi32>
  return
}

// -----

func.func @window_of_another_size(%v: memref<2xf32>, %l: memref<2xi32>, %o: memref<3xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{the window must hold decoded_items_per_thread (4) items of the run values' 'f32'; got 'memref<3xf32>'}}
  coop.run_length_decode %b, %v, %l into %o decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi32>, memref<3xf32>
  return
}

// -----

func.func @destination_of_another_type(%v: memref<2xf32>, %l: memref<2xi32>, %d: memref<?xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{the destination must hold the run values' 'f32'; got 'memref<?xi32>'}}
  %t = coop.run_length_decode %b, %v, %l destination = %d : memref<?xi32> decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi32> -> i32
  return
}

// -----

func.func @destination_without_total(%v: memref<2xf32>, %l: memref<2xi32>, %d: memref<?xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{decoding into a destination returns the stream's length: add the total result (-> i32 or i64)}}
  coop.run_length_decode %b, %v, %l destination = %d : memref<?xf32> decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi32>
  return
}
