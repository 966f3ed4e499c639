//===- Passes.h - passes of the coop pipelines --------------------*- C++ -*-===//

#ifndef COOP_PIPELINES_PASSES_H
#define COOP_PIPELINES_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::coop {

#define GEN_PASS_DECL
#include "coop/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coop/Pipelines/Passes.h.inc"

} // namespace mlir::coop

#endif // COOP_PIPELINES_PASSES_H
