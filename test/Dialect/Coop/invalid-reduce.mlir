// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @too_many_thread_items(%items: memref<4097xi32>) -> i32 {
  %t = coop.this_thread
  // expected-error @+1 {{has 4097 items per thread; at most 4096 are supported}}
  %r = coop.reduce %t, %items op = sum : !coop.group<thread>, memref<4097xi32> -> i32
  return %r : i32
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
