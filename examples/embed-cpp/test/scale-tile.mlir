// RUN: embed-opt %s | embed-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: embed-opt %s --embed-lower-scale --coop-lower-to-nvvm | FileCheck %s

// A kernel of the example DSL: coop loads a tile into a payload, the DSL's
// own op scales it, coop stores it back. One pipeline lowers both dialects:
// the DSL's pass, then coop's (scratch planning, barriers, conversion to
// gpu/nvvm and the LLVM dialect).

// ROUNDTRIP-LABEL: gpu.func @scale_tile
// ROUNDTRIP: coop.load
// ROUNDTRIP: embed.scale %{{.*}} by %{{.*}} : memref<4xi32>, i32
// ROUNDTRIP: coop.store

// CHECK-LABEL: llvm.func @scale_tile
// CHECK-NOT: coop.
// CHECK-NOT: embed.
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.barrier0
// The scale, by the kernel's factor argument, between the two exchanges.
// CHECK: llvm.mul %{{.*}}, %arg11 : i32
// CHECK: nvvm.barrier0
gpu.module @kernels {
  gpu.func @scale_tile(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index, %factor: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %block = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    coop.load %block, %src[%off] into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    embed.scale %items by %factor : memref<4xi32>, i32
    coop.store %block, %items into %dst[%off] algorithm = transpose : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}
