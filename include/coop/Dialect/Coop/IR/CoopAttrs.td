//===- CoopAttrs.td - coop enums and attributes ------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPATTRS_TD
#define COOP_DIALECT_COOP_IR_COOPATTRS_TD

include "coop/Dialect/Coop/IR/CoopDialect.td"
include "mlir/IR/EnumAttr.td"

def Coop_GroupKind : I32EnumAttr<"GroupKind", "which threads a group holds", [
    I32EnumAttrCase<"thread", 0>,
    I32EnumAttrCase<"warp", 1>,
    I32EnumAttrCase<"block", 2>,
    I32EnumAttrCase<"cluster", 3>,
    I32EnumAttrCase<"grid", 4>,
    I32EnumAttrCase<"threads_within_warp", 5>,
    I32EnumAttrCase<"warps_within_block", 6>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_Algorithm : I32EnumAttr<"Algorithm",
    "how a load or store maps a tile to threads and memory accesses", [
    I32EnumAttrCase<"direct", 0>,
    I32EnumAttrCase<"striped", 1>,
    I32EnumAttrCase<"vectorize", 2>,
    I32EnumAttrCase<"transpose", 3>,
    I32EnumAttrCase<"warp_transpose", 4>,
    I32EnumAttrCase<"warp_transpose_timesliced", 5>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_AlgorithmAttr : EnumAttr<Coop_Dialect, Coop_Algorithm, "algorithm"> {
  let summary = "load/store algorithm (CUB's BlockLoadAlgorithm and "
                "WarpLoadAlgorithm)";
  let description = [{
    `direct` and `vectorize` give each thread consecutive items (blocked);
    `striped` gives neighbouring threads neighbouring items at each item index;
    `transpose`, `warp_transpose` and `warp_transpose_timesliced` access memory
    striped and exchange through shared scratch into blocked order. Blocks
    accept all six; physical and logical warps accept `direct`, `striped`,
    `vectorize` and `transpose`.

    ```mlir
    coop.load %block, %src into %items algorithm = warp_transpose
        : !coop.group<block>, memref<?xf32>, memref<4xf32>
    ```
  }];
}

def Coop_Sharing : I32EnumAttr<"Sharing", "scratch allocation policy", [
    I32EnumAttrCase<"shared", 0>,
    I32EnumAttrCase<"exclusive", 1>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_SharingAttr : EnumAttr<Coop_Dialect, Coop_Sharing, "sharing"> {
  let summary = "whether call sites on one temp storage share a slice";
  let description = [{
    `shared`: calls on the same descriptor may reuse one scratch slice.
    `exclusive`: each call site gets its own slice, trading shared memory for
    the barriers that cross-call reuse would need.

    ```mlir
    %ts = coop.temp_storage sharing = exclusive : !coop.temp_storage
    ```
  }];
}

#endif // COOP_DIALECT_COOP_IR_COOPATTRS_TD
