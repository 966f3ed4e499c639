//===- LowerToNVVM.cpp - coop-lower-to-nvvm -------------------------------===//

#include "coop/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static constexpr llvm::StringLiteral kLowerToNVVM =
    "coop-plan-scratch,coop-insert-barriers,convert-coop-to-gpu,"
    "canonicalize,cse,convert-scf-to-cf,"
    "gpu.module(convert-gpu-to-nvvm),canonicalize,cse,"
    "reconcile-unrealized-casts";

void mlir::coop::buildLowerToNVVMPipeline(OpPassManager &pm) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(kLowerToNVVM, pm, os)))
    llvm::report_fatal_error(llvm::Twine("coop-lower-to-nvvm: ") + errors);
}

void mlir::coop::registerLowerToNVVMPipeline() {
  PassPipelineRegistration<>(
      "coop-lower-to-nvvm",
      "Plan scratch, insert barriers, lower coop ops and convert gpu.module "
      "bodies to the NVVM and LLVM dialects",
      [](OpPassManager &pm) { buildLowerToNVVMPipeline(pm); });
}
