//===- Passes.h - coop transformation passes ----------------------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_TRANSFORMS_PASSES_H
#define COOP_DIALECT_COOP_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::coop {

#define GEN_PASS_DECL
#include "coop/Dialect/Coop/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coop/Dialect/Coop/Transforms/Passes.h.inc"

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_TRANSFORMS_PASSES_H
