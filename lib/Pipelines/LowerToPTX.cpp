//===- LowerToPTX.cpp - coop-lower-to-ptx ---------------------------------===//

#include "coop/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
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
