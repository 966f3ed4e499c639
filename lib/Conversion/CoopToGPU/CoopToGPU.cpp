//===- CoopToGPU.cpp - the convert-coop-to-gpu pass -----------------------===//
//
// A dialect conversion with the coop dialect illegal: every coop op is
// lowered by its family's pattern (LoadStore.cpp, Exchange.cpp, Shuffle.cpp,
// Reduce.cpp, Scan.cpp, Groups.cpp), or the pass fails with the pattern's
// diagnostic.
//
//===----------------------------------------------------------------------===//

#include "coop/Conversion/CoopToGPU/CoopToGPU.h"
#include "coop/Conversion/Passes.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "Combining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "convert-coop-to-gpu"

namespace mlir::coop {
#define GEN_PASS_DEF_CONVERTCOOPTOGPU
#include "coop/Conversion/Passes.h.inc"
} // namespace mlir::coop

using namespace mlir;
using namespace mlir::coop;

void mlir::coop::populateCoopToGPUConversionPatterns(
    RewritePatternSet &patterns, unsigned sm) {
  lowering::populateLoadStorePatterns(patterns);
  lowering::populateExchangePatterns(patterns);
  lowering::populateShufflePatterns(patterns);
  lowering::populateReducePatterns(patterns, sm);
  lowering::populateScanPatterns(patterns, sm);
  lowering::populateReduceBatchedPatterns(patterns);
  lowering::populateGroupPatterns(patterns);
  lowering::populateSelectPatterns(patterns, sm);
  lowering::populateHistogramPatterns(patterns, sm);
  lowering::populateRunLengthDecodePatterns(patterns, sm);
  lowering::populateRadixPatterns(patterns, sm);
  lowering::populateMergeSortPatterns(patterns);
}

void mlir::coop::configureCoopToGPUConversionTarget(ConversionTarget &target) {
  target.addIllegalDialect<CoopDialect>();
  // func: calls of the host compiler's operator functions; llvm: CUB's
  // inline PTX scan steps.
  target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                         gpu::GPUDialect, LLVM::LLVMDialect,
                         memref::MemRefDialect, NVVM::NVVMDialect,
                         scf::SCFDialect, vector::VectorDialect>();
}

namespace {

/// Groups and temp storage are compile-time descriptors: only coop ops may
/// use them,
/// and coop ops lower only inside functions (their launch facts). The
/// lowering finds the scratch buffer it made by its marker, so an input may
/// not carry the marker.
LogicalResult checkConvertible(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    if (op->hasAttr(kScratchBufferAttr)) {
      op->emitOpError("carries '")
          << kScratchBufferAttr
          << "', which only convert-coop-to-gpu sets (on the scratch buffer "
             "it makes); remove it";
      return WalkResult::interrupt();
    }
    if (!isa<CoopDialect>(op->getDialect()))
      return WalkResult::advance();
    if (!op->getParentOfType<FunctionOpInterface>()) {
      op->emitOpError("was not lowered: coop ops must be inside a function");
      return WalkResult::interrupt();
    }
    for (OpOperand &use : op->getUses()) {
      Operation *user = use.getOwner();
      if (!isa<GroupType, TempStorageType>(use.get().getType()) ||
          isa<CoopDialect>(user->getDialect()))
        continue;
      op->emitOpError("is still used after lowering: coop descriptors cannot "
                      "flow into other operations")
              .attachNote(user->getLoc())
          << "used here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertCoopToGPU : coop::impl::ConvertCoopToGPUBase<ConvertCoopToGPU> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    if (failed(checkConvertible(root)))
      return signalPassFailure();
    ConversionTarget target(getContext());
    configureCoopToGPUConversionTarget(target);
    RewritePatternSet patterns(&getContext());
    populateCoopToGPUConversionPatterns(patterns, sm);

    // A pattern that fails has reported why at the op; the framework's own
    // "failed to legalize" that follows would only repeat it.
    bool reported = false;
    ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (reported && StringRef(diag.str()).starts_with("failed to legalize"))
        return success();
      reported = true;
      return failure();
    });
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();
    root->walk([](Operation *op) {
      for (StringRef attr : {StringRef(kScratchSizeAttr),
                             StringRef(kScratchAlignmentAttr),
                             StringRef(kScratchBufferAttr),
                             StringRef(kScratchSymbolAttr),
                             StringRef(kInlinedSiteAttr)})
        op->removeAttr(attr);
    });
  }
};

} // namespace
