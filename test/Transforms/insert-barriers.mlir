// RUN: coop-opt %s -split-input-file --coop-plan-scratch --test-coop-print-barriers -verify-diagnostics
// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers | FileCheck %s

// A transpose load then the matching transpose store: each slot the load
// gathers last is scattered first by the same thread in the store, so reuse
// needs no barrier (CUB's idiom puts __syncthreads() there); likewise the
// store then a matching load. A time-sliced load scatters over slots other
// threads gathered: a block barrier. Direct, striped and vectorized ops use
// no scratch.
// CHECK-LABEL: gpu.func @load_store_load
gpu.module @m {
  gpu.func @load_store_load(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    // CHECK: coop.load {{.*}} algorithm = striped
    // CHECK-NEXT: coop.load {{.*}} algorithm = transpose
    // CHECK-NEXT: coop.store {{.*}} algorithm = transpose
    // CHECK-NEXT: coop.store {{.*}} algorithm = vectorize
    // CHECK-NEXT: coop.load {{.*}} algorithm = transpose
    // CHECK-NEXT: %[[B:.*]] = coop.this_block
    // CHECK-NEXT: coop.barrier %[[B]] : !coop.group<block>
    // CHECK-NEXT: coop.load {{.*}} algorithm = warp_transpose_timesliced
    // CHECK-NEXT: gpu.return
    coop.load %b, %src into %items algorithm = striped : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.store %b, %items into %dst algorithm = transpose : !coop.group<block>, memref<4xi32>, memref<?xi32>
    coop.store %b, %items into %dst algorithm = vectorize : !coop.group<block>, memref<4xi32>, memref<?xi32>
    // expected-note @+2 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.load %b, %src into %items algorithm = warp_transpose_timesliced : !coop.group<block>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}

// -----

// A store then the next iteration's matching load: again each slot is
// reused by one thread; a time-sliced exchange shares one region between
// all warps and always needs the barrier.
gpu.module @m {
  gpu.func @copy_loops(%src: memref<?xf64>, %dst: memref<?xf64>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %items = memref.alloca() : memref<2xf64>
    scf.for %i = %c0 to %n step %c1 {
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.load %b, %src[%i] into %items algorithm = warp_transpose : !coop.group<block>, memref<?xf64>, memref<2xf64>
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.store %b, %items into %dst[%i] algorithm = warp_transpose : !coop.group<block>, memref<2xf64>, memref<?xf64>
    }
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.load %b, %src[%i] into %items algorithm = warp_transpose_timesliced : !coop.group<block>, memref<?xf64>, memref<2xf64>
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.store %b, %items into %dst[%i] algorithm = warp_transpose_timesliced : !coop.group<block>, memref<2xf64>, memref<?xf64>
    }
    gpu.return
  }
}

// -----

// In a loop, one transpose reuses its own slice of the previous iteration.
// CHECK-LABEL: gpu.func @loop
gpu.module @m {
  gpu.func @loop(%src: memref<?xi32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %items = memref.alloca() : memref<2xi32>
    // CHECK: scf.for
    // CHECK-NEXT: coop.this_block
    // CHECK-NEXT: coop.barrier
    // CHECK-NEXT: coop.load
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.load %b, %src[%i] into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    }
    gpu.return
  }
}

// -----

// A barrier the program already has ends the pending use; a transpose in one
// branch of an if reaches the op after the if.
gpu.module @m {
  gpu.func @existing_barrier_and_if(%src: memref<?xi32>, %c: i1) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xi32>
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    gpu.barrier
    scf.if %c {
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    }
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

// Warp transposes of one width touch only their own group's region: a warp
// barrier over the group suffices (here two loads, which scatter over slots
// other lanes gathered). Another width lays groups out differently.
// CHECK-LABEL: gpu.func @warps
gpu.module @m {
  gpu.func @warps(%src: memref<?xf32>, %dst: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l8 = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %l16 = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 16>
    %items = memref.alloca() : memref<2xf32>
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %l8, %src into %items algorithm = transpose : !coop.group<threads_within_warp, 8>, memref<?xf32>, memref<2xf32>
    // CHECK: coop.barrier %{{.*}} : !coop.group<threads_within_warp, 8>
    // CHECK-NEXT: coop.load
    // expected-note @-3 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: warp}}
    coop.load %l8, %src into %items algorithm = transpose : !coop.group<threads_within_warp, 8>, memref<?xf32>, memref<2xf32>
    // CHECK: coop.barrier %{{.*}} : !coop.group<block>
    // CHECK-NEXT: coop.store
    // expected-note @-3 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.store %l16, %items into %dst algorithm = transpose : !coop.group<threads_within_warp, 16>, memref<2xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Explicit storage follows auto_sync: a trailing barrier after each use with
// it, nothing without it (the program synchronizes).
// CHECK-LABEL: gpu.func @explicit
gpu.module @m {
  gpu.func @explicit(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %auto = coop.temp_storage auto_sync
    %manual = coop.temp_storage sharing = exclusive
    %items = memref.alloca() : memref<2xi32>
    // CHECK: coop.load {{.*}} temp_storage = %[[AUTO:[^ ]*]]
    // CHECK-NEXT: coop.this_block
    // CHECK-NEXT: coop.barrier
    // CHECK-NEXT: coop.store {{.*}} temp_storage = %[[AUTO]]
    // CHECK-NEXT: coop.this_block
    // CHECK-NEXT: coop.barrier
    // CHECK-NEXT: coop.load
    // CHECK-NEXT: coop.store
    // CHECK-NEXT: gpu.return
    // expected-remark @+1 {{reuse barrier before: none; trailing block barrier (auto_sync)}}
    coop.load %b, %src into %items algorithm = transpose temp_storage = %auto : !coop.group<block>, memref<?xi32>, memref<2xi32>
    // expected-remark @+1 {{reuse barrier before: none; trailing block barrier (auto_sync)}}
    coop.store %b, %items into %dst algorithm = transpose temp_storage = %auto : !coop.group<block>, memref<2xi32>, memref<?xi32>
    coop.load %b, %src into %items algorithm = transpose temp_storage = %manual : !coop.group<block>, memref<?xi32>, memref<2xi32>
    coop.store %b, %items into %dst algorithm = transpose temp_storage = %manual : !coop.group<block>, memref<2xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Unstructured control flow: a back edge through blocks.
// CHECK-LABEL: func.func @cfg_loop
func.func @cfg_loop(%src: memref<?xi32>, %c: i1) attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
  %b = coop.this_block
  %items = memref.alloca() : memref<1xi32>
  cf.br ^body
^body:
  // CHECK: coop.barrier
  // CHECK-NEXT: coop.load
  // expected-note @+2 {{reuses the scratch of this op}}
  // expected-remark @+1 {{reuse barrier before: block}}
  coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<1xi32>
  cf.cond_br %c, ^body, ^exit
^exit:
  return
}

// -----

// Exchanges share the load's slice (the compiler's implicit region, CUB's
// union). The transpose load gathers blocked and blocked_to_striped scatters
// blocked: each slot is rewritten by the thread that read it, no barrier;
// the same again scatters blocked over slots other threads gathered striped:
// a block barrier. A shuffle's neighbour reads always need one before the
// next use. A callee that synchronizes the block orders the uses before the
// call; one that does not, does not.
// CHECK-LABEL: gpu.func @exchanges
gpu.module @x {
  func.func private @sync() {
    gpu.barrier
    return
  }
  func.func private @nosync() {
    return
  }
  gpu.func @exchanges(%src: memref<?xi32>, %x: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    %out = memref.alloca() : memref<4xi32>
    // CHECK: coop.load
    // CHECK-NEXT: coop.exchange {{.*}} mode = blocked_to_striped
    // CHECK-NEXT: %[[B:.*]] = coop.this_block
    // CHECK-NEXT: coop.barrier %[[B]]
    // CHECK-NEXT: coop.exchange {{.*}} mode = blocked_to_striped
    // CHECK-NEXT: call @sync
    // CHECK-NEXT: coop.shuffle
    // CHECK-NEXT: call @nosync
    // CHECK-NEXT: coop.this_block
    // CHECK-NEXT: coop.barrier
    // CHECK-NEXT: coop.shuffle
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.exchange %b, %items into %out mode = blocked_to_striped : !coop.group<block>, memref<4xi32>, memref<4xi32>
    // expected-note @-1 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.exchange %b, %out into %items mode = blocked_to_striped : !coop.group<block>, memref<4xi32>, memref<4xi32>
    func.call @sync() : () -> ()
    // expected-remark @+1 {{reuse barrier before: none}}
    %r = coop.shuffle %b, %x mode = offset : !coop.group<block>, i32 -> i32
    func.call @nosync() : () -> ()
    // expected-note @-2 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: block}}
    %s = coop.shuffle %b, %r mode = rotate : !coop.group<block>, i32 -> i32
    gpu.return
  }
}

// -----

// Warp-striped exchanges of one warp's region need only a warp barrier
// between them; logical-warp exchanges too.
// CHECK-LABEL: gpu.func @warp_regions
gpu.module @w {
  gpu.func @warp_regions(%src: memref<?xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %items = memref.alloca() : memref<2xf64>
    %out = memref.alloca() : memref<2xf64>
    // CHECK: coop.exchange {{.*}} mode = warp_striped_to_blocked
    // CHECK-NEXT: coop.barrier %{{.*}} : !coop.group<block>
    // CHECK-NEXT: coop.exchange {{.*}} mode = warp_striped_to_blocked
    // CHECK: coop.exchange {{.*}} mode = striped_to_blocked
    // CHECK-NEXT: coop.barrier %{{.*}} : !coop.group<threads_within_warp, 8>
    // CHECK-NEXT: coop.exchange {{.*}} mode = striped_to_blocked
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.exchange %b, %items into %out mode = warp_striped_to_blocked : !coop.group<block>, memref<2xf64>, memref<2xf64>
    // expected-note @-1 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: warp}}
    coop.exchange %b, %out into %items mode = warp_striped_to_blocked : !coop.group<block>, memref<2xf64>, memref<2xf64>
    // expected-note @-1 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.exchange %l, %items into %out mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<2xf64>, memref<2xf64>
    // expected-note @-1 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: warp}}
    coop.exchange %l, %out into %items mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<2xf64>, memref<2xf64>
    gpu.return
  }
}

// -----

// Block scans in loops. warp_scans with a prefix callback: its warps write
// their aggregates before its first barrier and every thread reads only the
// block prefix after them past its last, so the next iteration's scan needs
// no reuse barrier (CUB's loop has the user's __syncthreads). Without a
// callback every thread reads the warp aggregates last: a block barrier.
// Raking scans: a thread reads its prefix last from the grid slot it wrote
// its partial to first, so the next raking scan of the same tile needs no
// barrier; a scan of another tile (here 4 items a thread) does.
// CHECK-LABEL: gpu.func @warp_scans_prefix_loop
// CHECK: scf.for
// CHECK-NEXT: coop.scan {{.*}} prefix
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-LABEL: gpu.func @warp_scans_loop
// CHECK: scf.for
// CHECK-NEXT: coop.this_block
// CHECK-NEXT: coop.barrier
// CHECK-NEXT: coop.scan {{.*}} algorithm = warp_scans
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-LABEL: gpu.func @raking_loop
// CHECK: scf.for
// CHECK-NEXT: coop.scan {{.*}} algorithm = raking {
// CHECK-NEXT: coop.scan {{.*}} algorithm = raking_memoize
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-LABEL: gpu.func @raking_tiles_loop
// CHECK: scf.for
// CHECK-NEXT: coop.this_block
// CHECK-NEXT: coop.barrier
// CHECK-NEXT: coop.scan {{.*}} memref<1xi32>, memref<1xi32>
// CHECK-NEXT: coop.this_block
// CHECK-NEXT: coop.barrier
// CHECK-NEXT: coop.scan {{.*}} memref<4xi32>, memref<4xi32>
// CHECK-NEXT: {{^ +[}]$}}
gpu.module @m {
  func.func private @running_total(%state: memref<1xi32>, %aggregate: i32) -> i32
  gpu.func @warp_scans_prefix_loop(%n: index, %state: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = memref.alloca() : memref<1xi32>
    scf.for %i = %c0 to %n step %c1 {
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.scan %b, %one into %one mode = exclusive op = sum prefix = @running_total(%state : memref<1xi32>) algorithm = warp_scans : !coop.group<block>, memref<1xi32>, memref<1xi32>
    }
    gpu.return
  }
  gpu.func @warp_scans_loop(%n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = memref.alloca() : memref<1xi32>
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.scan %b, %one into %one mode = exclusive op = sum algorithm = warp_scans : !coop.group<block>, memref<1xi32>, memref<1xi32>
    }
    gpu.return
  }
  gpu.func @raking_loop(%n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = memref.alloca() : memref<1xi32>
    scf.for %i = %c0 to %n step %c1 {
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.scan %b, %one into %one mode = exclusive op = sum algorithm = raking : !coop.group<block>, memref<1xi32>, memref<1xi32>
      // expected-remark @+1 {{reuse barrier before: none}}
      coop.scan %b, %one into %one mode = inclusive op = sum algorithm = raking_memoize : !coop.group<block>, memref<1xi32>, memref<1xi32>
    }
    gpu.return
  }
  gpu.func @raking_tiles_loop(%n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = memref.alloca() : memref<1xi32>
    %four = memref.alloca() : memref<4xi32>
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.scan %b, %one into %one mode = exclusive op = sum algorithm = raking : !coop.group<block>, memref<1xi32>, memref<1xi32>
      // expected-note @+2 {{reuses the scratch of this op}}
      // expected-remark @+1 {{reuse barrier before: block}}
      coop.scan %b, %four into %four mode = exclusive op = sum algorithm = raking : !coop.group<block>, memref<4xi32>, memref<4xi32>
    }
    gpu.return
  }
}

// -----

// Back-to-back selects on one slice: the second writes only the warps'
// counts (after the tile) before its first barrier, and the first reads only
// the tile after its last, so no reuse barrier; an exchange after them
// scatters over the tile the second select read last.
// CHECK-LABEL: gpu.func @two_selects
gpu.module @selects {
  gpu.func @two_selects(%in: memref<2xi32>, %out: memref<2xi32>, %keep: memref<2xi8>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    // CHECK: coop.select
    // CHECK-NEXT: coop.select
    // CHECK-NEXT: %[[B:.*]] = coop.this_block
    // CHECK-NEXT: coop.barrier %[[B]] : !coop.group<block>
    // CHECK-NEXT: coop.exchange
    // expected-remark @+1 {{reuse barrier before: none}}
    %n = coop.select %b, %in into %out flags = %keep : memref<2xi8> : !coop.group<block>, memref<2xi32>, memref<2xi32> -> i32
    // expected-remark @+2 {{reuse barrier before: none}}
    // expected-note @+1 {{reuses the scratch of this op}}
    %m = coop.select %b, %out into %in flags = %keep : memref<2xi8> : !coop.group<block>, memref<2xi32>, memref<2xi32> -> i32
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.exchange %b, %in into %out mode = striped_to_blocked : !coop.group<block>, memref<2xi32>, memref<2xi32>
    gpu.return
  }
}
