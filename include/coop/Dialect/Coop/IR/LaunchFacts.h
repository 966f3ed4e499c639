//===- LaunchFacts.h - launch dimensions known at compile time ----*- C++ -*-===//
//
// Block dimensions come from the enclosing gpu.func's `known_block_size`, or
// from a `gpu.known_block_size` attribute on any other enclosing function (the
// GPU dialect's convention for func.func and friends).
//
//===----------------------------------------------------------------------===//

#ifndef COOP_DIALECT_COOP_IR_LAUNCHFACTS_H
#define COOP_DIALECT_COOP_IR_LAUNCHFACTS_H

#include "mlir/IR/Operation.h"
#include <array>
#include <optional>

namespace mlir::coop {

/// The (x, y, z) block dimensions known for `op` (a function) or the function
/// enclosing it, or
/// nothing when no valid annotation (three positive extents) is present.
std::optional<std::array<int64_t, 3>> getKnownBlockDims(Operation *op);

/// The number of threads in a block, when the block dimensions are known.
std::optional<int64_t> getKnownBlockSize(Operation *op);

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_IR_LAUNCHFACTS_H
