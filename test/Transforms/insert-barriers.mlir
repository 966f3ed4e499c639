// RUN: coop-opt %s -split-input-file --coop-plan-scratch --test-coop-print-barriers -verify-diagnostics
// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers | FileCheck %s

// A transpose store reuses the implicit slice its load just read: one block
// barrier between them, none after; direct and striped ops need none.
// CHECK-LABEL: gpu.func @load_then_store
gpu.module @m {
  gpu.func @load_then_store(%src: memref<?xi32>, %dst: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    // CHECK: coop.load {{.*}} algorithm = striped
    // CHECK-NEXT: coop.load {{.*}} algorithm = transpose
    // CHECK-NEXT: %[[B:.*]] = coop.this_block
    // CHECK-NEXT: coop.barrier %[[B]] : !coop.group<block>
    // CHECK-NEXT: coop.store {{.*}} algorithm = transpose
    // CHECK-NEXT: coop.store {{.*}} algorithm = vectorize
    // CHECK-NEXT: gpu.return
    coop.load %b, %src into %items algorithm = striped : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-note @+2 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: none}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    // expected-remark @+1 {{reuse barrier before: block}}
    coop.store %b, %items into %dst algorithm = transpose : !coop.group<block>, memref<4xi32>, memref<?xi32>
    coop.store %b, %items into %dst algorithm = vectorize : !coop.group<block>, memref<4xi32>, memref<?xi32>
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
// barrier over the group suffices. Another width lays groups out differently.
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
    // CHECK-NEXT: coop.store
    // expected-note @-3 {{reuses the scratch of this op}}
    // expected-remark @+1 {{reuse barrier before: warp}}
    coop.store %l8, %items into %dst algorithm = transpose : !coop.group<threads_within_warp, 8>, memref<2xf32>, memref<?xf32>
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
