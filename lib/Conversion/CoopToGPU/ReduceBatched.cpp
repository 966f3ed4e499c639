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
    // The lane's bits below `width` are its rank in the group. Read from
    // %laneid and tested in 32 bits, the bits stay four predicates across a
    // kernel's loop where a 64-bit rank was recomputed every iteration (H100,
    // int32 16-lane sums of 16 batches: 0.72 of the C++ reference).
    // A partial is padding when its first batch is: the batches it stands
    // for (its lane's cleared bits free) come in the lanes' order.
    auto isPadding = [&](int64_t lane, int64_t slot) {
      int64_t first = striped ? lane + slot * width : lane * slots + slot;
      return first >= batches;
    };
    Value lane = NVVM::LaneIdOp::create(rewriter, loc, rewriter.getI32Type());
    Value mask = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    for (int64_t distance = width / 2; distance >= 1; distance /= 2) {
      Value upper = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(rewriter, loc, lane, ix.c(lane, distance)),
          ix.c(lane, 0));
      llvm::DenseMap<std::pair<int64_t, int64_t>, Value> lower;
      for (const Partial &p : partials)
        if (!(p.lane & distance))
          lower[{p.lane, p.slot}] = p.value;
      SmallVector<Partial> kept;
      for (const Partial &p : partials) {
        if (!(p.lane & distance))
          continue;
        int64_t lowLane = p.lane & ~distance;
        Value low = lower.lookup({lowLane, p.slot});
        Value combined;
        if (isPadding(lowLane, p.slot)) {
          // Both halves are padding (the upper's batches come after the
          // lower's): nothing to exchange.
          combined = low;
        } else if (isPadding(p.lane, p.slot)) {
          // Only the lower half is a batch: the lanes whose bit is set end
          // with padding, so every lane sends and keeps the lower partial,
          // one warp reduction step (below W batches a lane then shuffles
          // about B * log2(W / B) values, not W - 1).
          combined = combiner.combine(
              rewriter, loc, low,
              shuffle(rewriter, loc, NVVM::ShflKind::bfly, low,
                      ix.c(distance), mask));
        } else {
          // The lane whose bit is set keeps the batch owned by the upper
          // half.
          Value send =
              arith::SelectOp::create(rewriter, loc, upper, low, p.value);
          Value keep =
              arith::SelectOp::create(rewriter, loc, upper, p.value, low);
          Value received = shuffle(rewriter, loc, NVVM::ShflKind::bfly, send,
                                   ix.c(distance), mask);
          combined = combiner.combine(rewriter, loc, keep, received);
        }
        kept.push_back({combined, lowLane, p.slot});
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
