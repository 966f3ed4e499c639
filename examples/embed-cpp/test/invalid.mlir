// RUN: embed-opt %s --split-input-file --verify-diagnostics

// Both dialects' verifiers run in the embedding tool.

func.func @factor_type(%items: memref<4xi32>, %factor: i64) {
  // expected-error @below {{factor type 'i64' differs from the item type 'i32'}}
  embed.scale %items by %factor : memref<4xi32>, i64
  return
}

// -----

gpu.module @kernels {
  gpu.func @warp_transpose(%src: memref<?xi32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %warp = coop.this_warp
    %items = memref.alloca() : memref<4xi32>
    // expected-error @below {{algorithm 'warp_transpose' is not valid for a warp group}}
    coop.load %warp, %src[%off] into %items algorithm = warp_transpose : !coop.group<warp>, memref<?xi32>, memref<4xi32>
    gpu.return
  }
}
