//===- CoopInterfaces.td - coop op interfaces --------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPINTERFACES_TD
#define COOP_DIALECT_COOP_IR_COOPINTERFACES_TD

include "mlir/IR/OpBase.td"

def Coop_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::coop";
  let description = [{
    An operation that every thread of a group calls together on per-thread
    items. The scratch planner, the barrier analysis, the shared verifier
    and the lowering's tile helpers read a collective through this interface
    and never name concrete ops: a new collective implements it and is
    planned, synchronized and checked like the others.

    The scratch layout is computed in one place per op (CUB's formulas);
    the planner sizes slices with it and the lowering indexes them with it.
  }];
  let methods = [
    InterfaceMethod<"The group that runs the operation.",
      "::mlir::TypedValue<::mlir::coop::GroupType>", "getGroup", (ins),
      [{ return $_op.getGroup(); }]>,
    InterfaceMethod<"The explicit temp storage descriptor, or null when the "
                    "compiler plans the scratch.",
      "::mlir::Value", "getTempStorage", (ins),
      [{ return $_op.getTempStorage(); }]>,
    InterfaceMethod<"Items each thread owns.", "int64_t", "getItemsPerThread",
      (ins), [{ return $_op.getItemsPerThread(); }]>,
    InterfaceMethod<"The element type of the items.", "::mlir::Type",
      "getItemType", (ins), [{ return $_op.getItemType(); }]>,
    InterfaceMethod<"The op's scratch layout in a tile of this geometry, or "
                    "nothing when the op needs no scratch.",
      "std::optional<::mlir::coop::ScratchLayout>", "getScratchLayout",
      (ins "const ::mlir::coop::TileGeometry &":$tile)>,
    InterfaceMethod<"How the op's phases index its scratch (only called when "
                    "it has a scratch layout).",
      "::mlir::coop::ScratchAccess", "getScratchAccess",
      (ins "const ::mlir::coop::TileGeometry &":$tile)>,
    InterfaceMethod<"For an operation only blocks run, the CUB primitive "
                    "that errors name; empty for the others.",
      "::llvm::StringRef", "getBlockPrimitive", (ins), [{}],
      [{ return {}; }]>,
    InterfaceMethod<"Whether a `thread` group (the calling thread's own "
                    "items) is a valid target.",
      "bool", "acceptsThreadGroup", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<"Whether a kernel with this op should declare its block "
                    "exact (`.reqntid` in PTX, not `.maxntid`): a host "
                    "compiler that specializes kernels per launch knows it.",
      "bool", "needsExactBlock", (ins), [{}], [{ return false; }]>,
  ];
  let verify = [{ return ::mlir::coop::verifyCollectiveOp($_op); }];
  let verifyWithRegions = 0;
}

#endif // COOP_DIALECT_COOP_IR_COOPINTERFACES_TD
