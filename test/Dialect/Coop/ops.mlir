// RUN: coop-opt %s | FileCheck %s
// RUN: coop-opt %s | coop-opt | FileCheck %s
// RUN: coop-opt %s --mlir-print-op-generic | coop-opt | FileCheck %s

// CHECK-LABEL: func.func @groups
func.func @groups() {
  // CHECK: coop.this_thread
  %t = coop.this_thread
  // CHECK: coop.this_warp
  %w = coop.this_warp
  // CHECK: coop.this_block
  %b = coop.this_block
  // CHECK: coop.this_cluster
  %c = coop.this_cluster
  // CHECK: coop.this_grid
  %g = coop.this_grid
  // CHECK: coop.group_by %{{.*}} : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
  %l8 = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
  // CHECK: coop.group_by %{{.*}} : !coop.group<warp> -> !coop.group<threads_within_warp, 3, non_exhaustive>
  %l3 = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 3, non_exhaustive>
  // CHECK: coop.group_by %{{.*}} : !coop.group<block> -> !coop.group<warps_within_block, 2>
  %w2 = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 2>
  // CHECK: coop.barrier %{{.*}} : !coop.group<thread>
  coop.barrier %t : !coop.group<thread>
  // CHECK: coop.barrier %{{.*}} : !coop.group<block>
  coop.barrier %b : !coop.group<block>
  // CHECK: coop.barrier %{{.*}} : !coop.group<threads_within_warp, 8>
  coop.barrier %l8 : !coop.group<threads_within_warp, 8>
  // CHECK: coop.barrier %{{.*}} : !coop.group<warps_within_block, 2>
  coop.barrier %w2 : !coop.group<warps_within_block, 2>
  // CHECK: coop.barrier %{{.*}} : !coop.group<cluster>
  coop.barrier %c : !coop.group<cluster>
  return
}

// CHECK-LABEL: func.func @temp_storage
func.func @temp_storage() {
  // CHECK: coop.temp_storage{{$}}
  %a = coop.temp_storage
  // CHECK: coop.temp_storage size_in_bytes = 4096 alignment = 16 auto_sync{{$}}
  %b = coop.temp_storage size_in_bytes = 4096 alignment = 16 auto_sync
  // CHECK: coop.temp_storage sharing = exclusive{{$}}
  %c = coop.temp_storage sharing = exclusive
  // CHECK: coop.temp_storage{{$}}
  %d = coop.temp_storage sharing = shared
  return
}

// CHECK-LABEL: gpu.module @kernels
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @block_tiles
  gpu.func @block_tiles(%src: memref<?xi32, strided<[?], offset: ?>>,
                        %dst: memref<?xi32>, %off: index, %n: index, %x: i32)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    %ts = coop.temp_storage auto_sync
    // CHECK: coop.load %{{.*}}, %{{.*}} into %{{.*}} : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    coop.load %b, %src into %items : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: coop.load %{{.*}}, %{{.*}}[%{{.*}}] into %{{.*}} algorithm = striped valid_items = %{{.*}} oob_default = %{{.*}} : i32 :
    coop.load %b, %src[%off] into %items algorithm = striped valid_items = %n oob_default = %x : i32
        : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: algorithm = vectorize :
    coop.load %b, %src[%off] into %items algorithm = vectorize : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: algorithm = vectorize read_only :
    coop.load %b, %src[%off] into %items algorithm = vectorize read_only : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: algorithm = transpose temp_storage = %{{.*}} :
    coop.load %b, %src[%off] into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: algorithm = warp_transpose valid_items
    coop.load %b, %src[%off] into %items algorithm = warp_transpose valid_items = %n : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: algorithm = warp_transpose_timesliced temp_storage
    coop.load %b, %src[%off] into %items algorithm = warp_transpose_timesliced temp_storage = %ts : !coop.group<block>, memref<?xi32, strided<[?], offset: ?>>, memref<4xi32>
    // CHECK: coop.store %{{.*}}, %{{.*}} into %{{.*}}[%{{.*}}] algorithm = transpose valid_items = %{{.*}} temp_storage = %{{.*}} : !coop.group<block>, memref<4xi32>, memref<?xi32>
    coop.store %b, %items into %dst[%off] algorithm = transpose valid_items = %n temp_storage = %ts : !coop.group<block>, memref<4xi32>, memref<?xi32>
    // CHECK: coop.store %{{.*}}, %{{.*}} into %{{.*}} : !coop.group<block>, i32, memref<?xi32>
    coop.store %b, %x into %dst : !coop.group<block>, i32, memref<?xi32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @warp_tiles
  gpu.func @warp_tiles(%src: memref<?xf64>, %dst: memref<?xf64>, %off: index)
      kernel attributes {known_block_size = array<i32: 8, 16, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
    %items = memref.alloca() : memref<3xf64>
    // CHECK: coop.load {{.*}} algorithm = transpose : !coop.group<warp>, memref<?xf64>, memref<3xf64>
    coop.load %w, %src[%off] into %items algorithm = transpose : !coop.group<warp>, memref<?xf64>, memref<3xf64>
    // CHECK: coop.store {{.*}} algorithm = striped : !coop.group<threads_within_warp, 4>, memref<3xf64>, memref<?xf64>
    coop.store %l, %items into %dst[%off] algorithm = striped : !coop.group<threads_within_warp, 4>, memref<3xf64>, memref<?xf64>
    gpu.return
  }
}

// Launch facts on a function other than gpu.func.
// CHECK-LABEL: func.func @func_with_block_size
// CHECK-SAME: gpu.known_block_size = array<i32: 64, 1, 1>
func.func @func_with_block_size(%src: memref<?xi8>, %dst: memref<?xi8>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  %items = memref.alloca() : memref<1xi8>
  // CHECK: coop.load {{.*}} algorithm = warp_transpose :
  coop.load %b, %src into %items algorithm = warp_transpose : !coop.group<block>, memref<?xi8>, memref<1xi8>
  coop.store %b, %items into %dst algorithm = warp_transpose : !coop.group<block>, memref<1xi8>, memref<?xi8>
  return
}

// Exchanges and shuffles.
// CHECK-LABEL: gpu.func @exchanges
gpu.module @collectives {
  gpu.func @exchanges(%x: f32, %d: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %in = memref.alloca() : memref<4xf32>
    %out = memref.alloca() : memref<4xf32>
    %ranks = memref.alloca() : memref<4xi32>
    %flags = memref.alloca() : memref<4xi1>
    %ts = coop.temp_storage
    // CHECK: coop.exchange %{{.*}}, %{{.*}} into %{{.*}} mode = striped_to_blocked : !coop.group<block>, memref<4xf32>, memref<4xf32>
    coop.exchange %b, %in into %out mode = striped_to_blocked : !coop.group<block>, memref<4xf32>, memref<4xf32>
    // CHECK: mode = blocked_to_warp_striped warp_time_slicing temp_storage = %{{.*}} :
    coop.exchange %b, %in into %out mode = blocked_to_warp_striped warp_time_slicing temp_storage = %ts : !coop.group<block>, memref<4xf32>, memref<4xf32>
    // CHECK: mode = scatter_to_striped_flagged ranks = %{{.*}} : memref<4xi32> valid_flags = %{{.*}} : memref<4xi1> :
    coop.exchange %b, %in into %out mode = scatter_to_striped_flagged ranks = %ranks : memref<4xi32> valid_flags = %flags : memref<4xi1> : !coop.group<block>, memref<4xf32>, memref<4xf32>
    // CHECK: mode = scatter_to_striped ranks = %{{.*}} : memref<4xi32> : !coop.group<threads_within_warp, 8>
    coop.exchange %l, %in into %out mode = scatter_to_striped ranks = %ranks : memref<4xi32> : !coop.group<threads_within_warp, 8>, memref<4xf32>, memref<4xf32>
    // CHECK: coop.shuffle %{{.*}}, %{{.*}} into %{{.*}} mode = up fill = %{{.*}} : f32 : !coop.group<block>, memref<4xf32>, memref<4xf32>
    coop.shuffle %b, %in into %out mode = up fill = %x : f32 : !coop.group<block>, memref<4xf32>, memref<4xf32>
    // CHECK: coop.shuffle %{{.*}}, %{{.*}} into %{{.*}} mode = down block_prefix : !coop.group<block>, memref<4xf32>, memref<4xf32> -> f32
    %first = coop.shuffle %b, %in into %out mode = down block_prefix : !coop.group<block>, memref<4xf32>, memref<4xf32> -> f32
    // CHECK: coop.shuffle %{{.*}}, %{{.*}} mode = offset distance = %{{.*}} : !coop.group<block>, f32 -> f32
    %r = coop.shuffle %b, %x mode = offset distance = %d : !coop.group<block>, f32 -> f32
    // CHECK: coop.shuffle %{{.*}}, %{{.*}} mode = rotate : !coop.group<block>, f32 -> f32
    %s = coop.shuffle %b, %r mode = rotate : !coop.group<block>, f32 -> f32
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @reduce_and_scan
gpu.module @combining {
  func.func private @my_max(%a: i32, %b: i32) -> i32
  func.func private @running_total(%state: memref<1xi32>, %aggregate: i32) -> i32
  func.func private @offset_by(%aggregate: i32) -> i32
  gpu.func @reduce_and_scan(%in: memref<4xi32>, %out: memref<4xi32>, %x: f32, %n: index, %zero: i32, %state: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %t = coop.this_thread
    // CHECK: coop.reduce %{{.*}}, %{{.*}} op = sum valid_items = %{{.*}} algorithm = raking broadcast : !coop.group<block>, memref<4xi32> -> i32
    %r0 = coop.reduce %b, %in op = sum valid_items = %n algorithm = raking broadcast : !coop.group<block>, memref<4xi32> -> i32
    // CHECK: coop.reduce %{{.*}}, %{{.*}} combiner = @my_max : !coop.group<threads_within_warp, 8>, i32 -> i32
    %r1 = coop.reduce %l, %r0 combiner = @my_max : !coop.group<threads_within_warp, 8>, i32 -> i32
    // CHECK: coop.reduce %{{.*}}, %{{.*}} op = min unsigned : !coop.group<thread>, memref<4xi32> -> i32
    %r2 = coop.reduce %t, %in op = min unsigned : !coop.group<thread>, memref<4xi32> -> i32
    // CHECK: coop.scan %{{.*}}, %{{.*}} into %{{.*}} mode = exclusive op = sum initial_value = %{{.*}} : i32 algorithm = warp_scans : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.scan %b, %in into %out mode = exclusive op = sum initial_value = %zero : i32 algorithm = warp_scans : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // CHECK: %{{.*}}:2 = coop.scan %{{.*}}, %{{.*}} mode = inclusive op = max aggregate : !coop.group<warp>, f32 -> f32, f32
    %s:2 = coop.scan %w, %x mode = inclusive op = max aggregate : !coop.group<warp>, f32 -> f32, f32
    // CHECK: coop.scan %{{.*}}, %{{.*}} mode = exclusive op = sum valid_items = %{{.*}} aggregate : !coop.group<warp>, f32 -> f32, f32
    %p:2 = coop.scan %w, %x mode = exclusive op = sum valid_items = %n aggregate : !coop.group<warp>, f32 -> f32, f32
    // CHECK: coop.scan %{{.*}}, %{{.*}} into %{{.*}} mode = exclusive op = sum prefix = @running_total(%{{.*}} : memref<1xi32>) : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.scan %b, %in into %out mode = exclusive op = sum prefix = @running_total(%state : memref<1xi32>) : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // CHECK: coop.scan %{{.*}}, %{{.*}} into %{{.*}} mode = inclusive op = sum prefix = @offset_by : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.scan %b, %in into %out mode = inclusive op = sum prefix = @offset_by : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @select
gpu.module @selecting {
  func.func private @positive(%x: f32) -> i1
  gpu.func @select(%in: memref<4xi32>, %out: memref<4xi32>, %keep: memref<4xi8>, %x: f32, %flag: i1, %n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    // CHECK: %{{.*}} = coop.select %{{.*}}, %{{.*}} into %{{.*}} flags = %{{.*}} : memref<4xi8> valid_items = %{{.*}} : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32
    %c = coop.select %b, %in into %out flags = %keep : memref<4xi8> valid_items = %n : !coop.group<block>, memref<4xi32>, memref<4xi32> -> i32
    // CHECK: %{{.*}}:2 = coop.select %{{.*}}, %{{.*}} predicate = @positive : !coop.group<warp>, f32 -> f32, i32
    %s:2 = coop.select %w, %x predicate = @positive : !coop.group<warp>, f32 -> f32, i32
    // CHECK: %{{.*}}:2 = coop.select %{{.*}}, %{{.*}} flags = %{{.*}} : i1 : !coop.group<threads_within_warp, 8>, f32 -> f32, i32
    %t:2 = coop.select %l, %x flags = %flag : i1 : !coop.group<threads_within_warp, 8>, f32 -> f32, i32
    gpu.return
  }
}

// CHECK-LABEL: func.func @reduce_batched
func.func private @my_min(%a: f32, %b: f32) -> f32
func.func @reduce_batched(%rows: memref<64xf32>, %sums: memref<2xf32>, %x: memref<12xi32>, %m: memref<3xi32>) {
  %w = coop.this_warp
  %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
  // CHECK: coop.reduce_batched %{{.*}}, %{{.*}} into %{{.*}} op = sum : !coop.group<warp>, memref<64xf32>, memref<2xf32>
  coop.reduce_batched %w, %rows into %sums op = sum : !coop.group<warp>, memref<64xf32>, memref<2xf32>
  // CHECK: coop.reduce_batched %{{.*}}, %{{.*}} into %{{.*}} op = max layout = blocked unsigned : !coop.group<threads_within_warp, 4>, memref<12xi32>, memref<3xi32>
  coop.reduce_batched %l, %x into %m op = max layout = blocked unsigned : !coop.group<threads_within_warp, 4>, memref<12xi32>, memref<3xi32>
  // CHECK: coop.reduce_batched %{{.*}}, %{{.*}} into %{{.*}} combiner = @my_min : !coop.group<warp>, memref<64xf32>, memref<2xf32>
  coop.reduce_batched %w, %rows into %sums combiner = @my_min : !coop.group<warp>, memref<64xf32>, memref<2xf32>
  return
}

// CHECK-LABEL: gpu.func @histogram
gpu.module @histograms {
  gpu.func @histogram(%s: memref<4xi8>, %c: memref<2xi32>, %a: memref<2xi32>, %g: memref<?xi64>, %h: memref<64xi32, #gpu.address_space<workgroup>>, %x: i32, %n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // CHECK: coop.histogram %{{.*}}, %{{.*}} into %{{.*}} bins = 256 unsigned valid_items = %{{.*}} : !coop.group<block>, memref<4xi8>, memref<2xi32>
    coop.histogram %b, %s into %c bins = 256 unsigned valid_items = %n : !coop.group<block>, memref<4xi8>, memref<2xi32>
    // CHECK: coop.histogram %{{.*}}, %{{.*}} into %{{.*}} accumulate = %{{.*}} : memref<2xi32> bins = 200 : !coop.group<block>, memref<4xi8>, memref<2xi32>
    coop.histogram %b, %s into %c accumulate = %a : memref<2xi32> bins = 200 : !coop.group<block>, memref<4xi8>, memref<2xi32>
    // CHECK: coop.histogram %{{.*}}, %{{.*}} out = %{{.*}} : memref<?xi64> bins = 1000 : !coop.group<block>, i32
    coop.histogram %b, %x out = %g : memref<?xi64> bins = 1000 : !coop.group<block>, i32
    // CHECK: coop.histogram %{{.*}}, %{{.*}} out = %{{.*}} : memref<64xi32, #gpu.address_space<workgroup>> bins = 64 : !coop.group<block>, memref<4xi8>
    coop.histogram %b, %s out = %h : memref<64xi32, #gpu.address_space<workgroup>> bins = 64 algorithm = atomic : !coop.group<block>, memref<4xi8>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @run_length_decode
gpu.module @decoding {
  gpu.func @run_length_decode(%v: memref<2xf32>, %l: memref<2xi8>, %o: memref<4xf32>, %d: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // CHECK: %{{.*}} = coop.run_length_decode %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} offset = %{{.*}} decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi8>, memref<4xf32> -> i32
    %t = coop.run_length_decode %b, %v, %l into %o offset = %n decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi8>, memref<4xf32> -> i32
    // CHECK: coop.run_length_decode %{{.*}}, %{{.*}}, %{{.*}} into %{{.*}} decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi8>, memref<4xf32>
    coop.run_length_decode %b, %v, %l into %o decoded_items_per_thread = 4 : !coop.group<block>, memref<2xf32>, memref<2xi8>, memref<4xf32>
    // CHECK: %{{.*}} = coop.run_length_decode %{{.*}}, %{{.*}}, %{{.*}} destination = %{{.*}} : memref<?xf32> decoded_items_per_thread = 2 : !coop.group<block>, memref<2xf32>, memref<2xi8> -> i64
    %u = coop.run_length_decode %b, %v, %l destination = %d : memref<?xf32> decoded_items_per_thread = 2 : !coop.group<block>, memref<2xf32>, memref<2xi8> -> i64
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @radix
gpu.module @radix {
  gpu.func @radix(%k: memref<4xi32>, %r: memref<4xi32>, %p: memref<2xi32>, %f: memref<4xf16>, %v: memref<4xf64>, %o: memref<4xf64>, %n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // CHECK: coop.radix_rank %{{.*}}, %{{.*}} into %{{.*}} begin_bit = 0 radix_bits = 4 : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.radix_rank %b, %k into %r begin_bit = 0 radix_bits = 4 : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // CHECK: coop.radix_rank %{{.*}}, %{{.*}} into %{{.*}} digit_prefix = %{{.*}} : memref<2xi32> begin_bit = 3 radix_bits = 8 algorithm = memoize descending unsigned : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.radix_rank %b, %k into %r digit_prefix = %p : memref<2xi32> begin_bit = 3 radix_bits = 8 algorithm = memoize descending unsigned : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // CHECK: coop.radix_sort %{{.*}}, %{{.*}} into %{{.*}} : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.radix_sort %b, %k into %r : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // CHECK: coop.radix_sort %{{.*}}, %{{.*}} values = %{{.*}} : memref<4xf64> into %{{.*}} values_into %{{.*}} : memref<4xf64> begin_bit = %{{.*}} end_bit = %{{.*}} valid_items = %{{.*}} descending blocked_to_striped : !coop.group<block>, memref<4xf16>, memref<4xf16>
    coop.radix_sort %b, %f values = %v : memref<4xf64> into %f values_into %o : memref<4xf64> begin_bit = %n end_bit = %n valid_items = %n descending blocked_to_striped : !coop.group<block>, memref<4xf16>, memref<4xf16>
    // CHECK: coop.radix_sort %{{.*}}, %{{.*}} into %{{.*}} values_into %{{.*}} : memref<4xi32> : !coop.group<block>, memref<4xf16>, memref<4xf16>
    coop.radix_sort %b, %f into %f values_into %r : memref<4xi32> : !coop.group<block>, memref<4xf16>, memref<4xf16>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @merge_sort
gpu.module @merge_sorts {
  func.func private @by_magnitude(f32, f32) -> i1
  gpu.func @merge_sort(%k: memref<4xf32>, %v: memref<4xi64>, %n: index, %f: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    // CHECK: coop.merge_sort %{{.*}}, %{{.*}} into %{{.*}} : !coop.group<block>, memref<4xf32>, memref<4xf32>
    coop.merge_sort %b, %k into %k : !coop.group<block>, memref<4xf32>, memref<4xf32>
    // CHECK: coop.merge_sort %{{.*}}, %{{.*}} values = %{{.*}} : memref<4xi64> into %{{.*}} values_into %{{.*}} : memref<4xi64> compare = @by_magnitude valid_items = %{{.*}} oob_default = %{{.*}} : f32 descending stable : !coop.group<warp>, memref<4xf32>, memref<4xf32>
    coop.merge_sort %w, %k values = %v : memref<4xi64> into %k values_into %v : memref<4xi64> compare = @by_magnitude valid_items = %n oob_default = %f : f32 descending stable : !coop.group<warp>, memref<4xf32>, memref<4xf32>
    gpu.return
  }
}
