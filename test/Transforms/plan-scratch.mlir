// RUN: coop-opt %s -split-input-file --coop-plan-scratch --test-coop-print-scratch -verify-diagnostics | FileCheck %s

// Two transposes on one shared descriptor share one slice. At 4 int32 a
// thread CUB's unpadded tile reads a thread's items as one 16-byte access:
// 4 + 4 wavefronts, as a swizzle's.
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
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes (512 items), bank wavefronts 4 + 4 (CUB's: 4 + 4)}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // CHECK: coop.store {{.*}} {coop.scratch_offset = 0 : i64}
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes (512 items), bank wavefronts 4 + 4 (CUB's: 4 + 4)}}
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

// Mixed block and warp ops: a logical-warp transpose has a region per
// group, for the 8 groups a block of 64 holds: width * ipt items, which at
// an odd ipt no two lanes of a warp access in one bank at once (CUB's
// WarpExchange takes one more, which puts lanes 8 apart in one bank).
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 768 bytes, aligned to 16}}
  gpu.func @mixed(%src: memref<?xf32>, %dst: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %items = memref.alloca() : memref<3xf32>
    // expected-remark @+1 {{scratch slice: offset 0, 768 bytes (192 items, per-group stride 24)}}
    coop.load %l, %src into %items algorithm = transpose : !coop.group<threads_within_warp, 8>, memref<?xf32>, memref<3xf32>
    // expected-remark @+1 {{scratch slice: offset 0, 768 bytes (192 items)}}
    coop.store %b, %items into %dst algorithm = transpose : !coop.group<block>, memref<3xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A transpose at 8 items a thread: CUB's padding (one slot per 32 items)
// already leaves both phases free of bank conflicts, and a layout must beat
// CUB's to replace it (a swizzle would fit in 1024 slots at the same
// count, for one more instruction an access).
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 4224 bytes}}
  gpu.func @cubs_on_a_tie(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xi32>
    // expected-remark @+1 {{scratch slice: offset 0, 4224 bytes (1056 items, padded), bank wavefronts 8 + 8 (CUB's: 8 + 8)}}
    coop.load %b, %src into %items algorithm = warp_transpose : !coop.group<block>, memref<?xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// A scatter's slots are its ranks, which no layout can foresee: CUB's
// padding, one slot per 32 items at power-of-two items_per_thread above 4.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 4224 bytes}}
  gpu.func @padded(%in: memref<8xi32>, %out: memref<8xi32>, %ranks: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-remark @+1 {{scratch slice: offset 0, 4224 bytes (1056 items, padded)}}
    coop.exchange %b, %in into %out mode = scatter_to_striped ranks = %ranks : memref<8xi32> : !coop.group<block>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// Exchanges between static maps take the layout with the fewest bank
// wavefronts (the first warp's accesses, both phases) within CUB's
// TempStorage. A warp at 8 int32 a thread: CUB's blocked phase puts every
// 4th lane in one bank (64 wavefronts); a swizzle of each bank row's low 3
// bits by the row index puts them in distinct banks.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 2048 bytes}}
  gpu.func @warp_swizzled(%in: memref<8xi32>, %out: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    // expected-remark @+1 {{scratch slice: offset 0, 2048 bytes (512 items, swizzled (low 3 bits ^ row << 0), per-group stride 256), bank wavefronts 8 + 8 (CUB's: 8 + 64)}}
    coop.exchange %w, %in into %out mode = striped_to_blocked : !coop.group<warp>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// Logical warps of 8 at 8 int32 a thread: 4 groups share a warp's banks;
// the swizzle takes the row index shifted by 2 and keeps CUB's stride.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 2144 bytes}}
  gpu.func @logical_swizzled(%in: memref<8xi32>, %out: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    // expected-remark @+1 {{scratch slice: offset 0, 2144 bytes (536 items, swizzled (low 3 bits ^ row << 2), per-group stride 67), bank wavefronts 24 + 8 (CUB's: 24 + 16)}}
    coop.exchange %l, %in into %out mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// At 4 int32 a thread no layout within CUB's 33 slots a group does better
// than CUB's own, which it keeps.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 1056 bytes}}
  gpu.func @logical_cubs(%in: memref<4xi32>, %out: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    // expected-remark @+1 {{scratch slice: offset 0, 1056 bytes (264 items, per-group stride 33), bank wavefronts 16 + 4 (CUB's: 16 + 4)}}
    coop.exchange %l, %in into %out mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

// A block exchange of float64 (two words an item), 4 a thread: CUB's
// unpadded tile reads a thread's items as two 16-byte accesses, whose
// quarter-warps take two words of each bank they touch (16 wavefronts).
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 4096 bytes}}
  gpu.func @block_swizzled(%in: memref<4xf64>, %out: memref<4xf64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-remark @+1 {{scratch slice: offset 0, 4096 bytes (512 items, swizzled (low 2 bits ^ row << 0)), bank wavefronts 8 + 8 (CUB's: 16 + 8)}}
    coop.exchange %b, %in into %out mode = blocked_to_warp_striped : !coop.group<block>, memref<4xf64>, memref<4xf64>
    gpu.return
  }
}

// -----

// 8-byte accesses are served a half-warp at a time, and banks conflict only
// within a half: CUB's padding at 8 float64 a thread puts lanes 0 and 2 of
// a half in one bank (32 wavefronts for the blocked phase); the swizzle
// takes 16, the two halves' minimum.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 16384 bytes}}
  gpu.func @half_warps(%in: memref<8xf64>, %out: memref<8xf64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    // expected-remark @+1 {{scratch slice: offset 0, 16384 bytes (2048 items, swizzled (low 3 bits ^ row << 0)), bank wavefronts 16 + 16 (CUB's: 16 + 32)}}
    coop.exchange %b, %in into %out mode = striped_to_blocked : !coop.group<block>, memref<8xf64>, memref<8xf64>
    gpu.return
  }
}

// -----

// Past 48 KiB the kernel needs dynamic shared memory.
// CHECK-LABEL: gpu.func @dynamic
// CHECK-SAME: coop.dynamic_shared_memory
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 65536 bytes, aligned to 16, dynamic shared memory}}
  gpu.func @dynamic(%src: memref<?xf64>) kernel
      attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<8xf64>
    // expected-remark @+1 {{scratch slice: offset 0, 65536 bytes}}
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

// -----

// A raking scan's slice is CUB's raking grid (32 segments of 4 partials,
// each padded by a slot): a thread's own slot, no exchange, no bank model.
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 640 bytes, aligned to 16}}
  gpu.func @raking_scan(%items: memref<2xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-remark @+1 {{scratch slice: offset 0, 640 bytes (160 items)}}
    coop.scan %b, %items into %items mode = exclusive op = sum algorithm = raking : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// A warp group's temp_storage holds every warp's region: the exchange is
// placed in it. A warp scan shuffles: its temp_storage is unused.
// CHECK-LABEL: gpu.func @warp_temp_storage
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 1024 bytes, aligned to 16}}
  gpu.func @warp_temp_storage(%x: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %ts = coop.temp_storage size_in_bytes = 1024
    %items = memref.alloca() : memref<4xf32>
    // CHECK: coop.exchange {{.*}} {coop.scratch_offset = 0 : i64}
    // expected-remark @+1 {{scratch slice: offset 0, 1024 bytes}}
    coop.exchange %w, %items into %items mode = striped_to_blocked temp_storage = %ts : !coop.group<warp>, memref<4xf32>, memref<4xf32>
    // CHECK: coop.scan
    // CHECK-NOT: coop.scratch_offset
    %r = coop.scan %w, %x mode = inclusive op = sum temp_storage = %ts : !coop.group<warp>, i32 -> i32
    gpu.return
  }
}

// -----

// Reserved arrays come first in their descriptor's region, each at its
// alignment; the operations' slices follow, so none touches them.
// CHECK-LABEL: gpu.func @reserved
// CHECK-SAME: coop.scratch_alignment = 16 : i64, coop.scratch_size = 2128 : i64
// CHECK: coop.reserve {{.*}} count = 10 {coop.scratch_offset = 0 : i64}
// CHECK: coop.load {{.*}} {coop.scratch_offset = 80 : i64}
// CHECK: coop.reserve {{.*}} count = 3 alignment = 16 {coop.scratch_offset = 48 : i64}
gpu.module @m {
  // expected-remark @+1 {{scratch buffer: 2128 bytes, aligned to 16}}
  gpu.func @reserved(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %ts = coop.temp_storage
    %hist = coop.reserve %ts count = 10 : memref<10xi32, #gpu.address_space<workgroup>>
    %items = memref.alloca() : memref<4xi32>
    // expected-remark @+1 {{scratch slice: offset 80, 2048 bytes}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    %h2 = coop.reserve %ts count = 3 alignment = 16 : memref<3xf64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A size_in_bytes that leaves no room for the reserved array.
gpu.module @m {
  gpu.func @reserved_too_small(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    // expected-error @+1 {{temp_storage of 2048 bytes is too small: its uses need 2064 bytes}}
    %ts = coop.temp_storage size_in_bytes = 2048
    // expected-note @+1 {{this reserved array takes 4 bytes}}
    %flag = coop.reserve %ts count = 1 : memref<1xi32, #gpu.address_space<workgroup>>
    %items = memref.alloca() : memref<4xi32>
    // expected-note @+1 {{this use needs 2048 bytes}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %ts : !coop.group<block>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}
