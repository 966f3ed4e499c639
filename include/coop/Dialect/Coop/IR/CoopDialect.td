//===- CoopDialect.td - the coop dialect -------------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPDIALECT_TD
#define COOP_DIALECT_COOP_IR_COOPDIALECT_TD

include "mlir/IR/OpBase.td"

def Coop_Dialect : Dialect {
  let name = "coop";
  let cppNamespace = "::mlir::coop";
  let summary = "Cooperative block and warp primitives (CUB's BlockLoad, "
                "BlockStore, WarpLoad, WarpStore, ...) for GPU kernels";
  let description = [{
    The `coop` dialect describes which threads cooperate (groups), what each
    thread owns (payloads: fixed-size per-thread memrefs) and the shared
    scratch an algorithm may use (temp storage), and the collective operations
    over them. Its passes plan shared scratch, insert only the barriers that
    the algorithms and scratch reuse need, and lower to the `gpu`, `nvvm`,
    `memref`, `arith` and `scf` dialects.

    Launch facts (the block dimensions) come from the `known_block_size`
    attribute of the enclosing `gpu.func`, or from the discardable
    `gpu.known_block_size` attribute of any other enclosing function. Rules
    that depend on the block size are checked when it is known.

    ```mlir
    gpu.func @copy(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %block = coop.this_block
      %items = memref.alloca() : memref<4xi32>
      coop.load %block, %src[%off] into %items algorithm = transpose
          : !coop.group<block>, memref<?xi32>, memref<4xi32>
      coop.store %block, %items into %dst[%off]
          : !coop.group<block>, memref<4xi32>, memref<?xi32>
      gpu.return
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // COOP_DIALECT_COOP_IR_COOPDIALECT_TD
