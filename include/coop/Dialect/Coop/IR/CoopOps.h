//===- CoopOps.h - coop operations --------------------------------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPOPS_H
#define COOP_DIALECT_COOP_IR_COOPOPS_H

#include "coop/Dialect/Coop/IR/CoopDialect.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::coop {

/// The shared scratch that transpose-family algorithms exchange data through.
/// Ops declare exact read/write effects on it, so barrier placement is an
/// analysis over memory effects rather than a list of op names.
struct ScratchResource : public SideEffects::Resource::Base<ScratchResource> {
  StringRef getName() final { return "coop::Scratch"; }
};

/// True for the algorithms that exchange through shared scratch.
bool usesScratch(Algorithm algorithm);

} // namespace mlir::coop

#define GET_OP_CLASSES
#include "coop/Dialect/Coop/IR/CoopOps.h.inc"

#endif // COOP_DIALECT_COOP_IR_COOPOPS_H
