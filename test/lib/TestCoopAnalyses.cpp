//===- TestCoopAnalyses.cpp - print the scratch plan and barrier decisions ===//
//
// Test-only passes: they print what the planner and the barrier analysis
// decided as remarks, which lit checks with -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "coop/Dialect/Coop/Analysis/Barriers.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::coop;

namespace {

std::string phaseWavefronts(const TileGeometry &tile,
                            const ScratchAccess &access,
                            const ScratchLayout &layout) {
  return std::to_string(bankWavefronts(tile, access.scatter, layout)) + " + " +
         std::to_string(bankWavefronts(tile, access.gather, layout));
}

/// The bank model's cost of an exchange between static maps, which picked
/// its layout, beside CUB's layout's: ", bank wavefronts S + G (CUB's: S +
/// G)" for its two phases.
std::string wavefronts(const TileGeometry &tile, const ScratchAccess &access,
                       const ScratchLayout &layout) {
  if (!isExchangeMap(access.scatter) || !isExchangeMap(access.gather))
    return "";
  ScratchLayout cub = cubExchangeLayout(tile, /*timeSliced=*/false,
                                        /*padPositions=*/false);
  return ", bank wavefronts " + phaseWavefronts(tile, access, layout) +
         " (CUB's: " + phaseWavefronts(tile, access, cub) + ")";
}

struct TestPrintScratch
    : PassWrapper<TestPrintScratch, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintScratch)
  StringRef getArgument() const final { return "test-coop-print-scratch"; }
  StringRef getDescription() const final {
    return "Print the scratch plan (after --coop-plan-scratch) as remarks";
  }
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto size = op->getAttrOfType<IntegerAttr>(kScratchSizeAttr)) {
        auto alignment = op->getAttrOfType<IntegerAttr>(kScratchAlignmentAttr);
        InFlightDiagnostic remark = op->emitRemark("scratch buffer: ")
                                    << size.getInt() << " bytes, aligned to "
                                    << (alignment ? alignment.getInt() : 0);
        if (op->hasAttr(kDynamicSharedMemoryAttr))
          remark << ", dynamic shared memory";
      }
      auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
      auto collective = dyn_cast<CollectiveOpInterface>(op);
      if (!offset || !collective)
        return;
      FailureOr<TileGeometry> tile = getTileGeometry(collective);
      if (failed(tile))
        return;
      ScratchLayout layout = *collective.getScratchLayout(*tile);
      op->emitRemark("scratch slice: offset ")
          << offset.getInt() << ", " << layout.bytes(tile->elementBytes)
          << " bytes (" << layout.elements << " items"
          << (layout.padding.kind != SlotPadding::Kind::none
                  ? ", " + layout.padding.str()
                  : std::string())
          << (layout.groupStride ? ", per-group stride " +
                                       std::to_string(layout.groupStride)
                                 : std::string())
          << ")" << wavefronts(*tile, collective.getScratchAccess(*tile), layout);
    });
  }
};

struct TestPrintBarriers
    : PassWrapper<TestPrintBarriers, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintBarriers)
  StringRef getArgument() const final { return "test-coop-print-barriers"; }
  StringRef getDescription() const final {
    return "Print the reuse-barrier decisions (after --coop-plan-scratch) as "
           "remarks";
  }
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface fn) {
      llvm::DenseMap<Operation *, BarrierDecision> decisions =
          analyzeReuseBarriers(fn);
      fn->walk([&](Operation *op) {
        auto it = decisions.find(op);
        if (it == decisions.end())
          return;
        const BarrierDecision &d = it->second;
        InFlightDiagnostic remark = op->emitRemark("reuse barrier before: ");
        remark << (d.before == BarrierKind::none   ? "none"
                   : d.before == BarrierKind::warp ? "warp"
                                                   : "block");
        if (d.trailing)
          remark << "; trailing block barrier (auto_sync)";
        if (d.reuses)
          remark.attachNote(d.reuses->getLoc()) << "reuses the scratch of this op";
      });
    });
  }
};

} // namespace

namespace mlir::coop::test {
void registerTestPasses() {
  PassRegistration<TestPrintScratch>();
  PassRegistration<TestPrintBarriers>();
}
} // namespace mlir::coop::test
