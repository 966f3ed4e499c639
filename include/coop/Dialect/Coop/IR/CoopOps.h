//===- CoopOps.h - coop operations --------------------------------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPOPS_H
#define COOP_DIALECT_COOP_IR_COOPOPS_H

#include "coop/Dialect/Coop/IR/CoopCollective.h"
#include "coop/Dialect/Coop/IR/CoopDialect.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::coop {

/// The shared scratch that collectives exchange data through. Ops declare
/// exact read/write effects on it, so barrier placement is an analysis over
/// memory effects rather than a list of op names.
struct ScratchResource : public SideEffects::Resource::Base<ScratchResource> {
  StringRef getName() final { return "coop::Scratch"; }
};

/// True for the load/store algorithms that exchange through shared scratch.
bool usesScratch(Algorithm algorithm);

/// The rules every collective shares (CollectiveOpInterface's verifier).
LogicalResult verifyCollectiveOp(Operation *op);

} // namespace mlir::coop

#include "coop/Dialect/Coop/IR/CoopInterfaces.h.inc"

#define GET_OP_CLASSES
#include "coop/Dialect/Coop/IR/CoopOps.h.inc"

namespace mlir::coop {

/// The geometry of a collective; emits an error at the op and fails when the
/// block size is not a known launch fact.
FailureOr<TileGeometry> getTileGeometry(CollectiveOpInterface op);

/// True when `op` reads or writes the coop scratch resource.
bool hasScratchEffect(Operation *op);

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_IR_COOPOPS_H
