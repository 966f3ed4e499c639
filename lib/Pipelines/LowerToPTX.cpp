//===- LowerToPTX.cpp - coop-lower-to-ptx ---------------------------------===//

#include "coop/Pipelines/Pipelines.h"
#include "coop/Pipelines/Passes.h"

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

namespace mlir::coop {
#define GEN_PASS_DEF_COOPCHECKGPUMODULETOPLEVEL
#include "coop/Pipelines/Passes.h.inc"
} // namespace mlir::coop

namespace {

struct CheckGPUModuleTopLevel
    : coop::impl::CoopCheckGPUModuleTopLevelBase<CheckGPUModuleTopLevel> {
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
  pm.addPass(coop::createCoopCheckGPUModuleTopLevel());
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
    registerCoopPipelinesPasses();
    PassPipelineRegistration<LowerToPTXOptions>(
        "coop-lower-to-ptx",
        "coop-lower-to-nvvm, then PTX for every gpu.module (gpu.binary)",
        buildLowerToPTXPipeline);
  });
}
