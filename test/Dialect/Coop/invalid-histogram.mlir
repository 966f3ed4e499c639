// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @histogram_of_a_warp(%s: memref<4xi8>, %c: memref<2xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{is a block operation (CUB's BlockHistogram); use this_block()}}
  coop.histogram %w, %s into %c bins = 64 : !coop.group<warp>, memref<4xi8>, memref<2xi32>
  return
}

// -----

func.func @float_samples(%s: memref<4xf32>, %c: memref<2xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{samples must be integers (bin numbers); got 'f32'}}
  coop.histogram %b, %s into %c bins = 64 : !coop.group<block>, memref<4xf32>, memref<2xi32>
  return
}

// -----

func.func @no_bins(%s: memref<4xi8>, %c: memref<2xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{bins must be positive; got 0}}
  coop.histogram %b, %s into %c bins = 0 : !coop.group<block>, memref<4xi8>, memref<2xi32>
  return
}

// -----

func.func @no_destination(%s: memref<4xi8>) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one destination: fresh counters ('into', a payload) or an array to add into ('out = ...')}}
  coop.histogram %b, %s bins = 64 : !coop.group<block>, memref<4xi8>
  return
}

// -----

func.func @two_destinations(%s: memref<4xi8>, %c: memref<2xi32>, %g: memref<?xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{needs exactly one destination}}
  coop.histogram %b, %s into %c out = %g : memref<?xi32> bins = 64 : !coop.group<block>, memref<4xi8>, memref<2xi32>
  return
}

// -----

func.func @float_counters(%s: memref<4xi8>, %c: memref<2xf32>) {
  %b = coop.this_block
  // expected-error @+1 {{counters must be 32- or 64-bit integers; got 'f32'}}
  coop.histogram %b, %s into %c bins = 64 : !coop.group<block>, memref<4xi8>, memref<2xf32>
  return
}

// -----

func.func @accumulate_into_out(%s: memref<4xi8>, %a: memref<2xi32>, %g: memref<?xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{accumulate adds to fresh counters; with 'out' the array itself accumulates: remove accumulate}}
  coop.histogram %b, %s out = %g : memref<?xi32> accumulate = %a : memref<2xi32> bins = 64 : !coop.group<block>, memref<4xi8>
  return
}

// -----

func.func @accumulate_of_another_type(%s: memref<4xi8>, %c: memref<2xi32>, %a: memref<2xi64>) {
  %b = coop.this_block
  // expected-error @+1 {{accumulate must be counters of the output's type 'memref<2xi32>'; got 'memref<2xi64>'}}
  coop.histogram %b, %s into %c accumulate = %a : memref<2xi64> bins = 64 : !coop.group<block>, memref<4xi8>, memref<2xi32>
  return
}

// -----

func.func @out_in_another_space(%s: memref<4xi8>, %g: memref<64xi32, #gpu.address_space<private>>) {
  %b = coop.this_block
  // expected-error @+1 {{out must be an array in shared memory (#gpu.address_space<workgroup>) or global memory}}
  coop.histogram %b, %s out = %g : memref<64xi32, #gpu.address_space<private>> bins = 64 : !coop.group<block>, memref<4xi8>
  return
}

// -----

gpu.module @too_few_counters {
  gpu.func @too_few_counters(%s: memref<4xi8>, %c: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{fresh counters of 1 slots a thread hold 128 bins in a block of 128 threads; 256 bins need 2 slots}}
    coop.histogram %b, %s into %c bins = 256 : !coop.group<block>, memref<4xi8>, memref<1xi32>
    gpu.return
  }
}
