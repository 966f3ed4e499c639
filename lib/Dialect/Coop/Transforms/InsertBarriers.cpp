//===- InsertBarriers.cpp - the reuse barriers scratch needs --------------===//

#include "coop/Dialect/Coop/Analysis/Barriers.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "coop-insert-barriers"

namespace mlir::coop {
#define GEN_PASS_DEF_COOPINSERTBARRIERS
#include "coop/Dialect/Coop/Transforms/Passes.h.inc"
} // namespace mlir::coop

using namespace mlir;
using namespace mlir::coop;

namespace {

struct InsertBarriers : coop::impl::CoopInsertBarriersBase<InsertBarriers> {
  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface fn) {
      llvm::DenseMap<Operation *, BarrierDecision> decisions =
          analyzeReuseBarriers(fn);
      // Walk in program order so the output does not depend on hashing.
      fn->walk([&](Operation *op) {
        auto it = decisions.find(op);
        if (it == decisions.end())
          return;
        const BarrierDecision &decision = it->second;
        OpBuilder builder(op);
        if (decision.before == BarrierKind::warp) {
          BarrierOp::create(builder, op->getLoc(),
                            cast<CollectiveOpInterface>(op).getGroup());
          ++numWarpBarriers;
        } else if (decision.before == BarrierKind::block) {
          blockBarrier(builder, op->getLoc());
        }
        if (decision.trailing) {
          builder.setInsertionPointAfter(op);
          blockBarrier(builder, op->getLoc());
        }
      });
    });
  }

  void blockBarrier(OpBuilder &builder, Location loc) {
    Value block = ThisBlockOp::create(builder, loc);
    BarrierOp::create(builder, loc, block);
    ++numBlockBarriers;
  }
};

} // namespace
