//===- LowerToPTX.cpp - coop-lower-to-ptx ---------------------------------===//

#include "coop/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace {

/// LLVM IR translation converts each op at a gpu.module's top level with no
/// function to put instructions in, and crashes on one that needs it (a
/// barrier outside any function, which the verifiers allow). Such an op is
/// the input's mistake: report it before translation.
struct CheckGPUModuleTopLevel
    : PassWrapper<CheckGPUModuleTopLevel, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckGPUModuleTopLevel)
  StringRef getArgument() const final {
    return "coop-check-gpu-module-top-level";
  }
  StringRef getDescription() const final {
    return "Reject ops outside functions in a gpu.module (before PTX)";
  }
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](gpu::GPUModuleOp module) {
      for (Operation &op : module.getBody()->getOperations()) {
        if (isa<SymbolOpInterface, LLVM::GlobalCtorsOp, LLVM::GlobalDtorsOp,
                LLVM::ModuleFlagsOp, LLVM::LinkerOptionsOp>(op))
          continue;
        op.emitOpError("is outside any function in gpu.module '")
            << module.getName()
            << "': only functions and globals can be compiled to PTX";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::coop::buildLowerToPTXPipeline(OpPassManager &pm,
                                         const LowerToPTXOptions &options) {
  std::string pipeline = llvm::formatv(
      "nvvm-attach-target{{chip={0} features={1} O={2}}", options.chip.getValue(),
      options.features.getValue(), options.optLevel.getValue());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("coop-lower-to-ptx: ") + errors);
  buildLowerToNVVMPipeline(pm);
  pm.addPass(std::make_unique<CheckGPUModuleTopLevel>());
  if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", pm, os)))
    llvm::report_fatal_error(llvm::Twine("coop-lower-to-ptx: ") + errors);
}

void mlir::coop::registerLowerToPTXDialectExtensions(
    DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::coop::registerLowerToPTXPipeline() {
  // A pipeline registered twice is a fatal error.
  static std::once_flag once;
  std::call_once(once, [] {
    registerGpuNVVMAttachTarget();
    registerGpuModuleToBinaryPass();
    PassPipelineRegistration<LowerToPTXOptions>(
        "coop-lower-to-ptx",
        "coop-lower-to-nvvm, then PTX for every gpu.module (gpu.binary)",
        buildLowerToPTXPipeline);
  });
}
