// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @select_thread(%x: i32, %f: i1) {
  %t = coop.this_thread
  // expected-error @+1 {{needs a block, a warp or a logical warp}}
  %r:2 = coop.select %t, %x flags = %f : i1 : !coop.group<thread>, i32 -> i32, i32
  return
}

// -----

func.func @select_neither(%x: memref<4xi32>, %o: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one way to select: flags (one entry per item) or a predicate function (predicate = @f)}}
  %n = coop.select %b, %x into %o : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32
  return
}

// -----

func.func private @keep(i32) -> i1

func.func @select_both(%x: memref<4xi32>, %o: memref<4xi32>, %f: memref<4xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one way to select}}
  %n = coop.select %b, %x into %o flags = %f : memref<4xi8> predicate = @keep : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32
  return
}

// -----

func.func @select_no_output(%x: memref<4xi32>, %f: memref<4xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{a payload input needs an output payload of its type 'memref<4xi32>' ('into')}}
  %n = coop.select %b, %x flags = %f : memref<4xi8> : !coop.group<block>, memref<4xi32> -> i32
  return
}

// -----

func.func @select_output_type(%x: memref<4xi32>, %o: memref<4xf32>, %f: memref<4xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{a payload input needs an output payload of its type 'memref<4xi32>' ('into')}}
  %n = coop.select %b, %x into %o flags = %f : memref<4xi8> : !coop.group<block>, memref<4xi32>, memref<4xf32> -> i32
  return
}

// -----

func.func @select_flag_count(%x: memref<4xi32>, %o: memref<4xi32>, %f: memref<2xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{flags must have one entry per item (4); got 'memref<2xi8>'}}
  %n = coop.select %b, %x into %o flags = %f : memref<2xi8> : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32
  return
}

// -----

func.func @select_payload_results(%x: memref<4xi32>, %o: memref<4xi32>, %f: memref<4xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{a payload select returns the count alone (i32)}}
  %r:2 = coop.select %b, %x into %o flags = %f : memref<4xi8> : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32, i32
  return
}

// -----

func.func @select_scalar_output(%x: i32, %o: memref<1xi32>, %f: i1) {
  %b = coop.this_block
  // expected-error @+1 {{a scalar input returns its compacted item; remove the output payload}}
  %r:2 = coop.select %b, %x into %o flags = %f : i1 : !coop.group<block>, i32, memref<1xi32> -> i32, i32
  return
}

// -----

func.func @select_scalar_flags(%x: i32, %f: memref<1xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{a scalar input takes one flag, an integer; got 'memref<1xi8>'}}
  %r:2 = coop.select %b, %x flags = %f : memref<1xi8> : !coop.group<block>, i32 -> i32, i32
  return
}

// -----

func.func @select_scalar_results(%x: f32, %f: i1) {
  %b = coop.this_block
  // expected-error @+1 {{a scalar select returns the item and the count ('f32', i32)}}
  %r:2 = coop.select %b, %x flags = %f : i1 : !coop.group<block>, f32 -> i32, i32
  return
}

// -----

func.func private @keep(f32) -> i32

func.func @select_predicate_type(%x: f32) {
  %w = coop.this_warp
  // expected-error @+1 {{predicate @keep must take an item and return a bool ('f32') -> i1}}
  %r:2 = coop.select %w, %x predicate = @keep : !coop.group<warp>, f32 -> f32, i32
  return
}

// -----

func.func @select_logical_warp(%x: i32, %f: i1) {
  %w = coop.this_warp
  %g = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 3, non_exhaustive>
  // expected-error @+1 {{logical warp width must be 1, 2, 4, 8, 16 or 32; got 3 (non-exhaustive)}}
  %r:2 = coop.select %g, %x flags = %f : i1 : !coop.group<threads_within_warp, 3, non_exhaustive>, i32 -> i32, i32
  return
}
