// RUN: coop-opt %s --coop-lower-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: coop-opt %s --coop-lower-to-ptx="chip=sm_90" | FileCheck %s --check-prefix=PTX

// The whole pipeline: a transpose tile copy becomes NVVM, then PTX with the
// planned shared memory and exactly the barriers it needs: one inside each
// exchange, none for the reuse (each slot is rewritten by its reader).
// NVVM-LABEL: llvm.func @copy
// NVVM-NOT: coop.
// NVVM-COUNT-2: nvvm.barrier0
// NVVM-NOT: nvvm.barrier0
// PTX: gpu.binary @kernels
// PTX-SAME: .shared .align 16 .b8 __coop_scratch_copy[2048]
// PTX-SAME: bar.sync
gpu.module @kernels {
  gpu.func @copy(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    coop.load %b, %src[%off] into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<4xi32>
    coop.store %b, %items into %dst[%off] algorithm = transpose : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}
