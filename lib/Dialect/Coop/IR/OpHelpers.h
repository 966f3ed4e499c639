//===- OpHelpers.h - what the coop ops' files share ---------------*- C++ -*-===//

#ifndef COOP_LIB_DIALECT_COOP_IR_OPHELPERS_H
#define COOP_LIB_DIALECT_COOP_IR_OPHELPERS_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::coop::detail {

/// An error if the block size is known and not a whole number of warps.
LogicalResult verifyWholeWarps(Operation *op, const Twine &what);

/// The op writes and reads the kernel's scratch.
void addScratchEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects);

/// A payload input is read (a scalar input is a value, not memory); output
/// payloads are written.
void addPayloadEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects,
    OpOperand &input, MutableOperandRange outputs);

} // namespace mlir::coop::detail

#endif // COOP_LIB_DIALECT_COOP_IR_OPHELPERS_H
