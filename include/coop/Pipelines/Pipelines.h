//===- Pipelines.h - coop lowering pipelines ----------------------*- C++ -*-===//

#ifndef COOP_PIPELINES_PIPELINES_H
#define COOP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
namespace coop {

/// Plan scratch, insert barriers, lower coop ops and take every gpu.module to
/// the NVVM and LLVM dialects.
void buildLowerToNVVMPipeline(OpPassManager &pm);

/// Registers `coop-lower-to-nvvm`.
void registerLowerToNVVMPipeline();

struct LowerToPTXOptions : public PassPipelineOptions<LowerToPTXOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("Target GPU"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level"),
      llvm::cl::init(3)};
};

/// `coop-lower-to-nvvm`, then PTX for each gpu.module through upstream
/// `gpu-module-to-binary` (format=isa), with the NVPTX back end.
void buildLowerToPTXPipeline(OpPassManager &pm, const LowerToPTXOptions &options);

/// Registers `coop-lower-to-ptx` and the upstream passes it names
/// (nvvm-attach-target, gpu-module-to-binary) in the global pass registry.
/// Safe to call more than once. Only programs with the NVPTX back end call
/// this (coop-opt, embedders); the Numba path's library does not.
void registerLowerToPTXPipeline();

/// Adds what PTX generation needs to a context's registry: the NVVM target
/// attribute's models and the LLVM IR translations of builtin, gpu, llvm and
/// nvvm.
void registerLowerToPTXDialectExtensions(DialectRegistry &registry);

} // namespace coop
} // namespace mlir

#endif // COOP_PIPELINES_PIPELINES_H
