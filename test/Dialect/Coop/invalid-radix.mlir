// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @sort_of_a_warp(%k: memref<4xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{is a block operation (CUB's BlockRadixSort); use this_block()}}
  coop.radix_sort %w, %k into %k : !coop.group<warp>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @rank_of_a_warp(%k: memref<4xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{is a block operation (CUB's BlockRadixRank); use this_block()}}
  coop.radix_rank %w, %k into %k begin_bit = 0 radix_bits = 4 : !coop.group<warp>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @unsigned_floats(%k: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{'unsigned' orders integer keys; 'f32' keys are floats: remove it}}
  coop.radix_sort %b, %k into %k unsigned : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @wide_digit(%k: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{radix_bits must be in [1, 8]; got 9}}
  coop.radix_sort %b, %k into %k {radix_bits = 9 : i64} : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

gpu.module @tile_too_large {
  gpu.func @tile_too_large(%k: memref<64xi32>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{ranks a tile of 65536 keys (1024 threads x 64); CUB's 16-bit digit counters allow at most 65,535: use fewer items per thread}}
    coop.radix_sort %b, %k into %k : !coop.group<block>, memref<64xi32>, memref<64xi32>
    gpu.return
  }
}

// -----

func.func @output_of_another_type(%k: memref<4xi32>, %o: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{output must be the keys' type 'memref<4xi32>'; got 'memref<4xf32>'}}
  coop.radix_sort %b, %k into %o : !coop.group<block>, memref<4xi32>, memref<4xf32>
  return
}

// -----

func.func @values_not_one_per_key(%k: memref<4xi32>, %v: memref<2xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{values must be one per key (4 a thread); got 'memref<2xf32>'}}
  coop.radix_sort %b, %k values = %v : memref<2xf32> into %k values_into %v : memref<2xf32> : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @values_without_output(%k: memref<4xi32>, %v: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{moves values only into a values output: add 'values_into'}}
  coop.radix_sort %b, %k values = %v : memref<4xf32> into %k : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @values_output_of_another_type(%k: memref<4xi32>, %v: memref<4xf32>, %o: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{values output must be the values' type 'memref<4xf32>'; got 'memref<4xi32>'}}
  coop.radix_sort %b, %k values = %v : memref<4xf32> into %k values_into %o : memref<4xi32> : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @positions_not_i32(%k: memref<4xi32>, %o: memref<4xi64>) {
  %b = coop.this_block
  // expected-error @+1 {{without values, the values output receives the keys' tile positions: 4 i32; got 'memref<4xi64>'}}
  coop.radix_sort %b, %k into %k values_into %o : memref<4xi64> : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @digit_outside_the_key(%k: memref<4xi8>, %r: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{digit bits [6, 10) lie outside the key's 8 bits}}
  coop.radix_rank %b, %k into %r begin_bit = 6 radix_bits = 4 : !coop.group<block>, memref<4xi8>, memref<4xi32>
  return
}

// -----

func.func @ranks_not_i32(%k: memref<4xi32>, %r: memref<4xi16>) {
  %b = coop.this_block
  // expected-error @+1 {{ranks must be 4 i32 (one per key); got 'memref<4xi16>'}}
  coop.radix_rank %b, %k into %r begin_bit = 0 radix_bits = 4 : !coop.group<block>, memref<4xi32>, memref<4xi16>
  return
}

// -----

func.func @prefix_not_i32(%k: memref<4xi32>, %r: memref<4xi32>, %p: memref<1xi64>) {
  %b = coop.this_block
  // expected-error @+1 {{digit_prefix must hold i32; got 'memref<1xi64>'}}
  coop.radix_rank %b, %k into %r digit_prefix = %p : memref<1xi64> begin_bit = 0 radix_bits = 4 : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

gpu.module @prefix_too_small {
  gpu.func @prefix_too_small(%k: memref<4xi32>, %r: memref<4xi32>, %p: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{digit_prefix of 1 slots a thread; 256 bins over 64 threads need 4}}
    coop.radix_rank %b, %k into %r digit_prefix = %p : memref<1xi32> begin_bit = 0 radix_bits = 8 : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}
