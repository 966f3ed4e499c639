// RUN: coop-opt %s -split-input-file -verify-diagnostics

gpu.module @not_a_power_of_two {
  gpu.func @not_a_power_of_two(%k: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{sorts blocks of a power-of-two thread count (CUB's BlockMergeSort); a block of 96 threads is not: use radix_sort, or pad the block to 128 threads}}
    coop.merge_sort %b, %k into %k : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

func.func @output_of_another_type(%k: memref<4xi32>, %o: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{output must be the keys' type 'memref<4xi32>'; got 'memref<4xf32>'}}
  coop.merge_sort %b, %k into %o : !coop.group<block>, memref<4xi32>, memref<4xf32>
  return
}

// -----

func.func @values_not_one_per_key(%k: memref<4xi32>, %v: memref<2xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{values must be one per key (4 a thread); got 'memref<2xf32>'}}
  coop.merge_sort %b, %k values = %v : memref<2xf32> into %k values_into %v : memref<2xf32> : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @values_without_output(%k: memref<4xi32>, %v: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{values move into a values output of their type 'memref<4xf32>'}}
  coop.merge_sort %b, %k values = %v : memref<4xf32> into %k : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @output_without_values(%k: memref<4xi32>, %v: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{has a values output but no values}}
  coop.merge_sort %b, %k into %k values_into %v : memref<4xf32> : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @valid_items_alone(%k: memref<4xi32>, %n: index) {
  %b = coop.this_block
  // expected-error @+1 {{valid_items and oob_default go together}}
  coop.merge_sort %b, %k into %k valid_items = %n : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @fill_of_another_type(%k: memref<4xi32>, %n: index, %f: f32) {
  %b = coop.this_block
  // expected-error @+1 {{oob_default must be a key ('i32'); got 'f32'}}
  coop.merge_sort %b, %k into %k valid_items = %n oob_default = %f : f32 : !coop.group<block>, memref<4xi32>, memref<4xi32>
  return
}

// -----

func.func @unsigned_floats(%k: memref<4xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{'unsigned' orders integer keys by the default comparison; remove it}}
  coop.merge_sort %b, %k into %k unsigned : !coop.group<block>, memref<4xf32>, memref<4xf32>
  return
}
