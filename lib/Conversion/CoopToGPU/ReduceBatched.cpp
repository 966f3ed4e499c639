//===- ReduceBatched.cpp - coop.reduce_batched by recursive halving --------===//
//
// CUB's WarpReduceBatched: every lane holds one partial result per batch.
// Each exchange step (distance W/2 first, down to 1) pairs a lane with the
// lane `distance` away; of every pair of batches that the two lanes will
// end up in different halves of the group for, each lane keeps one, sends
// the other by one shfl.xor and combines what it keeps with what it
// receives. After log2(W) steps each lane holds only the batches it owns in
// the output layout, each reduced over the whole group. Which batches a
// register holds is decided here, at compile time, from the layout; only
// the choice between the two halves of a pair (a select on the lane's bit)
// happens at run time.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// A partial result a lane holds: the batch's owner lane in the output,
/// with the bits of the steps already done cleared (every lane of a pair
/// then names its register alike), and its output slot.
struct Partial {
  Value value;
  int64_t lane;
  int64_t slot;
};

struct ReduceBatchedLowering : OpConversionPattern<ReduceBatchedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceBatchedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    // The lanes' ranks come from the block's shape: without it, a
    // diagnostic.
    if (failed(getTileGeometry(op)))
      return failure();
    Combiner combiner = getCombiner(op);
    int64_t batches = op.getItemsPerThread();
    GroupType group = op.getGroup().getType();
    int64_t width = group.getKind() == GroupKind::threads_within_warp
                        ? group.getCount()
                        : kWarpThreads;
    int64_t slots = llvm::divideCeil(batches, width);
    bool striped = op.getLayout() == BatchLayout::striped;
    SmallVector<Value> items =
        readPayload(rewriter, loc, adaptor.getInput(), batches);

    // Batches past the last are padding: their results are unspecified, so
    // any item serves.
    SmallVector<Partial> partials;
    for (int64_t b = 0; b < slots * width; ++b) {
      Value value = items[std::min(b, batches - 1)];
      partials.push_back(striped ? Partial{value, b % width, b / width}
                                 : Partial{value, b / slots, b % slots});
    }
    Value rank = ix.rem(linearThreadId(rewriter, loc, op), width);
    Value mask = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    for (int64_t distance = width / 2; distance >= 1; distance /= 2) {
      Value upper = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(rewriter, loc, rank, ix.c(distance)), ix.c(0));
      llvm::DenseMap<std::pair<int64_t, int64_t>, Value> lower;
      for (const Partial &p : partials)
        if (!(p.lane & distance))
          lower[{p.lane, p.slot}] = p.value;
      SmallVector<Partial> kept;
      for (const Partial &p : partials) {
        if (!(p.lane & distance))
          continue;
        Value low = lower.lookup({p.lane & ~distance, p.slot});
        // The lane whose bit is set keeps the batch owned by the upper half.
        Value send = arith::SelectOp::create(rewriter, loc, upper, low, p.value);
        Value keep = arith::SelectOp::create(rewriter, loc, upper, p.value, low);
        Value received = shuffle(rewriter, loc, NVVM::ShflKind::bfly, send,
                                 ix.c(distance), mask);
        kept.push_back({combiner.combine(rewriter, loc, keep, received),
                        p.lane & ~distance, p.slot});
      }
      partials = std::move(kept);
    }
    SmallVector<Value> results(slots);
    for (const Partial &p : partials)
      results[p.slot] = p.value;
    writePayload(rewriter, loc, adaptor.getOutput(), results);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateReduceBatchedPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceBatchedLowering>(patterns.getContext());
}
