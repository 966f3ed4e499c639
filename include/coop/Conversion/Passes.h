//===- Passes.h - coop conversion passes --------------------------*- C++ -*-===//

#ifndef COOP_CONVERSION_PASSES_H
#define COOP_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::coop {

#define GEN_PASS_DECL
#include "coop/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coop/Conversion/Passes.h.inc"

} // namespace mlir::coop

#endif // COOP_CONVERSION_PASSES_H
