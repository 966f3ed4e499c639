// RUN: coop-opt %s -split-input-file --coop-plan-scratch --test-coop-print-scratch -verify-diagnostics | FileCheck %s

// Two transposes on one shared descriptor share one slice.
// CHECK-LABEL: gpu.func @shared_descriptor
// CHECK-SAME: coop.scratch_alignment = 16 : i64, coop.scratch_size = 2048 : i64
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 2048 bytes, aligned to 16}}
  gpu.func @shared_descriptor(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %ts = coop.temp_storage
    %items = memref.alloca() : memref<4xi32>
    // CHECK: coop.load {{.*}} {coop.scratch_offset = 0 : i64}
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes (512 items)}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // CHECK: coop.store {{.*}} {coop.scratch_offset = 0 : i64}
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes (512 items)}}
    coop.store %b, %items into %dst algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Exclusive: each call site gets its own slice.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 4096 bytes, aligned to 16}}
  gpu.func @exclusive(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %ts = coop.temp_storage sharing = exclusive
    %items = memref.alloca() : memref<4xi32>
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{scratch slice: offset 2048, 2048 bytes}}
    coop.store %b, %items into %dst algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Implicit storage first, then an over-aligned descriptor; the time-sliced
// exchange holds one warp's worth.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 2560 bytes, aligned to 128}}
  gpu.func @implicit_and_explicit(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %ts = coop.temp_storage alignment = 128
    %items = memref.alloca() : memref<4xi32>
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{scratch slice: offset 2048, 512 bytes (128 items)}}
    coop.store %b, %items into %dst algorithm = warp_transpose_timesliced temp_storage = %ts : !coop.group<block>, memref<4xi32>, memref<?xi32>
    // Direct and striped use no scratch.
    coop.store %b, %items into %dst algorithm = striped : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Mixed block and warp ops: a logical-warp transpose has width * ipt + 1
// items per group, for the 8 groups a block of 64 holds.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 800 bytes, aligned to 16}}
  gpu.func @mixed(%src: memref<?xf32>, %dst: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %items = memref.alloca() : memref<3xf32>
    // expected-remark @+1 {{scratch slice: offset 0, 800 bytes (200 items, per-group stride 25)}}
    coop.load %l, %src into %items algorithm = transpose : !coop.group<threads_within_warp, 8>, memref<?xf32>, memref<3xf32>
    // expected-remark @+1 {{scratch slice: offset 0, 768 bytes (192 items)}}
    coop.store %b, %items into %dst algorithm = transpose : !coop.group<block>, memref<3xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Power-of-two items_per_thread above 4 pads one slot per 32 items.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 4224 bytes}}
  gpu.func @padded(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xi32>
    // expected-remark @+1 {{scratch slice: offset 0, 4224 bytes (1056 items, padded)}}
    coop.load %b, %src into %items algorithm = warp_transpose : !coop.group<block>, memref<?xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// Past 48 KiB the kernel needs dynamic shared memory.
// CHECK-LABEL: gpu.func @dynamic
// CHECK-SAME: coop.dynamic_shared_memory
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 67584 bytes, aligned to 16, dynamic shared memory}}
  gpu.func @dynamic(%src: memref<?xf64>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xf64>
    // expected-remark @+1 {{scratch slice: offset 0, 67584 bytes}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xf64>, memref<8xf64>
    gpu.return
  }
}

// -----

// An explicit capacity below what its uses need.
gpu.module @m {
  gpu.func @undersized(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{temp_storage of 1000 bytes is too small: its uses need 2048 bytes; set size_in_bytes to at least 2048 or omit it to let the compiler size it}}
    %ts = coop.temp_storage size_in_bytes = 1000
    %items = memref.alloca() : memref<4xi32>
    // expected-note @+1 {{this use needs 2048 bytes}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

// Scratch cannot be planned without the block size.
func.func @no_block_size(%src: memref<?xi32>) {
  %b = coop.this_block
  %items = memref.alloca() : memref<4xi32>
  // expected-error @+1 {{needs the block size, which is a launch fact: set known_block_size on the enclosing gpu.func}}
  coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
  return
}
