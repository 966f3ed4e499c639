//===- InitAll.cpp - what coop-opt and the C API register -----------------===//

#include "coop/InitAll.h"
#include "coop/Dialect/Coop/IR/CoopDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

void mlir::coop::registerCoopAndUpstreamDialects(DialectRegistry &registry) {
  registry.insert<coop::CoopDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, memref::MemRefDialect, scf::SCFDialect,
                  vector::VectorDialect>();
}

void mlir::coop::registerCoopAndUpstreamPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCanonicalizerPass();
    registerCSEPass();
    registerInlinerPass();
    registerSymbolDCEPass();
    registerStripDebugInfoPass();
  });
}
