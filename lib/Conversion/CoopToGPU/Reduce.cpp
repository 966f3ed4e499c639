//===- Reduce.cpp - coop.reduce as CUB's reductions -----------------------===//
//
// Each thread first folds its own items (ThreadReduce). Warps then combine
// by butterfly shuffles, which leave the aggregate in every lane
// (WarpReduceShfl's work, broadcast included). Blocks follow
// BlockReduceAlgorithm: warp reductions and one aggregate per warp in
// scratch, or a raking grid that the first warp reduces.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// The lanes (in lane order) whose partials take part, of a group of
/// `width` starting at lane rank `first`: all of them (null) for full tiles
/// of whole groups.
Value validLanes(Ix ix, Value validThreads, Value first, int64_t width,
                 int64_t groupThreads) {
  if (!validThreads) {
    if (groupThreads >= width)
      return {};
    return ix.c(groupThreads);
  }
  Value remaining = arith::SubIOp::create(ix.b, ix.loc, validThreads, first);
  Value some = ix.lt(first, validThreads);
  Value clamped = arith::MinUIOp::create(ix.b, ix.loc, remaining,
                                         ix.c(remaining, width));
  return arith::SelectOp::create(ix.b, ix.loc, some, clamped,
                                 ix.c(remaining, 0));
}

/// In a partial tile, the threads past the valid ones take the operator's
/// exact identity as their partial, where it has one, and `validThreads` is
/// cleared: the block then reduces whole segments, warps and warp
/// aggregates, unguarded, into the value of CUB's fold of the valid
/// partials alone. CUB's guards, a compare and select a slot, lane or warp,
/// cost predicates that outnumbered the hardware's (H200, sums at 256x8:
/// float64 by raking 48 registers against CUB's 32 and 0.72 of its speed,
/// padded 40 and 1.08; int64 by warp_reductions 0.89, padded 1.23).
Value padWithIdentity(OpBuilder &b, Location loc, const Combiner &combiner,
                      Value partial, Value ltid, Value &validThreads) {
  if (!validThreads)
    return partial;
  Value identity = combiner.exactIdentity(b, loc);
  if (!identity)
    return partial;
  Ix ix{b, loc};
  Value valid = ix.lt(asI32(b, loc, ltid), validThreads);
  validThreads = {};
  return arith::SelectOp::create(b, loc, valid, partial, identity);
}

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  ReduceLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    Combiner combiner = getCombiner(op);
    int64_t n = op.getItemsPerThread();
    SmallVector<Value> items =
        isa<MemRefType>(adaptor.getInput().getType())
            ? readPayload(rewriter, loc, adaptor.getInput(), n)
            : SmallVector<Value>{adaptor.getInput()};
    Value valid = adaptor.getValidItems();
    GroupType group = op.getGroup().getType();
    if (group.getKind() == GroupKind::thread) {
      rewriter.replaceOp(op, threadReduce(rewriter, loc, combiner, items, sm, valid));
      return success();
    }

    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    Value ltid = linearThreadId(rewriter, loc, op);
    Value rank = tile->warpLike ? ix.rem(ltid, tile->groupSize) : ltid;
    // Blocked order: the thread's first `valid - rank * n` items take part,
    // and the first ceil(valid / n) threads have some. Counted in 32 bits
    // once `valid` is clamped to the tile, as CUB's int counts are: a 64-bit
    // count (NVPTX's index) costs a register pair and two-word arithmetic
    // in every compare below.
    Value threadValid, validThreads;
    if (valid) {
      Value valid32 = clampedCount(rewriter, loc, valid, tile->tileItems());
      Value first = ix.mul(asI32(rewriter, loc, rank), n);
      Value some = ix.lt(first, valid32);
      threadValid = arith::SelectOp::create(
          rewriter, loc, some,
          arith::SubIOp::create(rewriter, loc, valid32, first),
          ix.c(valid32, 0));
      validThreads = ix.div(ix.add(valid32, n - 1), n);
    }
    Value partial = threadReduce(rewriter, loc, combiner, items, sm, threadValid);

    Value result;
    if (tile->warpLike) {
      Value all = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
      result = warpReduce(rewriter, loc, combiner, partial, rank,
                          tile->groupSize, all, validThreads, sm,
                          op.getBroadcast());
    } else {
      ScratchLayout layout = *op.getScratchLayout(*tile);
      FailureOr<Value> scratch = scratchSlice(rewriter, op, *tile, layout);
      if (failed(scratch))
        return failure();
      ReduceAlgorithm algorithm = op.getBlockAlgorithm();
      bool commutativeOnly =
          algorithm == ReduceAlgorithm::raking_commutative_only &&
          tile->blockSize % kWarpThreads == 0 &&
          tile->blockSize > kWarpThreads && !valid;
      if (algorithm == ReduceAlgorithm::warp_reductions)
        result = warpReductions(rewriter, loc, op, combiner, *tile, *scratch,
                                ltid, partial, validThreads, sm);
      else if (commutativeOnly)
        result = rakingCommutativeOnly(rewriter, loc, op, combiner, *tile,
                                       *scratch, ltid, partial, sm);
      else
        result = raking(rewriter, loc, op, combiner, *tile, *scratch, ltid,
                        partial, validThreads, sm);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The target's compute capability (0: unknown).
  unsigned sm;

  /// BlockReduceWarpReductions: every warp reduces, lane 0 publishes the
  /// warp's aggregate, and after one barrier the aggregates are combined in
  /// warp order: by every thread with broadcast (no second barrier), by
  /// thread 0 without.
  static Value warpReductions(OpBuilder &b, Location loc, ReduceOp op,
                              const Combiner &combiner, const TileGeometry &tile,
                              Value scratch, Value ltid, Value partial,
                              Value validThreads, unsigned sm) {
    Ix ix{b, loc};
    int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
    auto [warp, lane] = warpAndLane(b, loc, ltid);
    Value mask = activeLanes(b, loc, warp, tile.blockSize);
    int64_t lastWarpThreads = tile.blockSize - (warps - 1) * kWarpThreads;
    partial = padWithIdentity(b, loc, combiner, partial, ltid, validThreads);
    Value warpValid;
    if (validThreads)
      warpValid = validLanes(ix, validThreads, ix.mul(warp, kWarpThreads),
                             kWarpThreads, kWarpThreads);
    else if (lastWarpThreads < kWarpThreads)
      warpValid = arith::SelectOp::create(b, loc, ix.eq(warp, warps - 1),
                                          ix.c(lastWarpThreads),
                                          ix.c(kWarpThreads));
    // Lane 0 publishes the warp's aggregate; a single warp is the block.
    Value aggregate =
        warpReduce(b, loc, combiner, partial, lane, kWarpThreads, mask,
                   warpValid, sm, warps == 1 && op.getBroadcast());
    if (warps == 1)
      return aggregate;
    storeIf(b, loc, ix.eq(lane, 0), aggregate, scratch, ix.index(warp));
    gpu::BarrierOp::create(b, loc);
    Value threads = validThreads
                        ? clampedCount(b, loc, validThreads, tile.blockSize)
                        : Value();
    auto combineWarps = [&](OpBuilder &at) {
      Ix ax{at, loc};
      Value total = memref::LoadOp::create(at, loc, scratch, ax.c(0));
      for (int64_t w = 1; w < warps; ++w) {
        Value next = memref::LoadOp::create(at, loc, scratch, ax.c(w));
        Value combined = combiner.combine(at, loc, total, next);
        total = threads ? Value(arith::SelectOp::create(
                              at, loc, countExceeds(at, loc, threads, w * kWarpThreads),
                              combined, total))
                        : combined;
      }
      return total;
    };
    // Past four warps, for integer named operators (exact in any order), a
    // warp reads the aggregates, lane w warp w's, and combines them as a
    // warp reduction (one redux.sync for 32 bits on sm_80+, else
    // butterflies): CUB's thread reads and folds every one (at 1024 threads
    // 8 vector loads and 31 combines a thread, whose registers in a
    // relocatable compile cost the block half its occupancy). Floats keep
    // CUB's warp order, and so its rounding.
    auto combineByWarp = [&](OpBuilder &at) {
      Ix ax{at, loc};
      Value value =
          laneWarpAggregate(at, loc, combiner, scratch, lane, warps, [&] {
            return threads ? Value(arith::CmpIOp::create(
                                 at, loc, arith::CmpIPredicate::sgt, threads,
                                 ax.mul(lane, kWarpThreads)))
                           : ax.lt(lane, warps);
          });
      return Value(warpReduce(at, loc, combiner, value, lane, kWarpThreads,
                              mask, Value(), sm, true));
    };
    bool byWarp = warps > 4 && tile.blockSize % kWarpThreads == 0 &&
                  combiner.commutative() && isa<IntegerType>(combiner.type);
    if (op.getBroadcast())
      return byWarp ? combineByWarp(b) : combineWarps(b);
    if (byWarp)
      return valueIf(b, loc, ix.eq(warp, 0), aggregate, combineByWarp);
    return valueIf(b, loc, ix.eq(ltid, 0), aggregate, combineWarps);
  }

  /// BlockReduceRaking: every thread places its partial in the raking grid;
  /// the raking threads of the first warp reduce their segments serially,
  /// then by shuffles. With broadcast, thread 0 publishes the aggregate in
  /// the grid's first slot (every raking read is done: the shuffles consumed
  /// them) for every thread to read after a second barrier.
  static Value raking(OpBuilder &b, Location loc, ReduceOp op,
                      const Combiner &combiner, const TileGeometry &tile,
                      Value scratch, Value ltid, Value partial,
                      Value validThreads, unsigned sm) {
    Ix ix{b, loc};
    RakingLayout grid(tile.blockSize);
    Value slot = ltid;
    if (grid.padded)
      slot = ix.add(ltid, ix.div(ltid, grid.segment));
    partial = padWithIdentity(b, loc, combiner, partial, ltid, validThreads);
    memref::StoreOp::create(b, loc, partial, scratch, slot);
    gpu::BarrierOp::create(b, loc);
    Value limit = validThreads;
    if (!limit && !grid.unguarded())
      limit = ix.c(tile.blockSize);
    Value result = valueIf(
        b, loc, ix.lt(ltid, grid.rakingThreads), partial, [&](OpBuilder &at) {
          Ix ax{at, loc};
          Value first = ax.mul(limit && limit.getType().isInteger(32)
                                   ? asI32(at, loc, ltid)
                                   : ltid,
                               grid.segment);
          Value start = ax.mul(ltid, grid.segment + grid.padded);
          // The segment's slots below `limit`, counted in 32 bits.
          Value count;
          if (limit)
            count = clampedCount(
                at, loc,
                validLanes(ax, limit, first, grid.segment, grid.segment),
                grid.segment);
          Value total = memref::LoadOp::create(at, loc, scratch, start);
          for (int64_t j = 1; j < grid.segment; ++j) {
            Value next = memref::LoadOp::create(at, loc, scratch,
                                                ax.add(start, j));
            Value combined = combiner.combine(at, loc, total, next);
            total = limit ? Value(arith::SelectOp::create(
                                at, loc, countExceeds(at, loc, count, j),
                                combined, total))
                          : combined;
          }
          int64_t width = llvm::PowerOf2Ceil(grid.rakingThreads);
          Value lanes =
              validThreads
                  ? ax.div(ax.add(validThreads, grid.segment - 1), grid.segment)
                  : (grid.rakingThreads < width ? ax.c(grid.rakingThreads)
                                                : Value());
          Value mask = arith::ConstantIntOp::create(
              at, loc,
              grid.rakingThreads == kWarpThreads
                  ? -1
                  : (1ll << grid.rakingThreads) - 1,
              32);
          return warpReduce(at, loc, combiner, total, ltid, width, mask, lanes,
                            sm, /*everyLane=*/false);
        });
    if (!op.getBroadcast())
      return result;
    return broadcastFromThreadZero(b, loc, scratch, ltid, result);
  }

  /// BlockReduceRakingCommutativeOnly: the threads past the first warp share
  /// their partials; the first warp folds them into its own and reduces by
  /// shuffles.
  static Value rakingCommutativeOnly(OpBuilder &b, Location loc, ReduceOp op,
                                     const Combiner &combiner,
                                     const TileGeometry &tile, Value scratch,
                                     Value ltid, Value partial, unsigned sm) {
    Ix ix{b, loc};
    RakingLayout grid(tile.blockSize - kWarpThreads);
    Value sharing = ix.ge(ltid, kWarpThreads);
    Value placed = arith::SubIOp::create(b, loc, ltid, ix.c(kWarpThreads));
    if (grid.padded)
      placed = ix.add(placed, ix.div(placed, grid.segment));
    storeIf(b, loc, sharing, partial, scratch, placed);
    gpu::BarrierOp::create(b, loc);
    Value result = valueIf(
        b, loc, ix.lt(ltid, kWarpThreads), partial, [&](OpBuilder &at) {
          Ix ax{at, loc};
          Value start = ax.mul(ltid, grid.segment + grid.padded);
          Value total = partial;
          for (int64_t j = 0; j < grid.segment; ++j)
            total = combiner.combine(
                at, loc, total,
                memref::LoadOp::create(at, loc, scratch, ax.add(start, j)));
          Value all = arith::ConstantIntOp::create(at, loc, -1, 32);
          return warpReduce(at, loc, combiner, total, ltid, kWarpThreads, all,
                            {}, sm, /*everyLane=*/false);
        });
    if (!op.getBroadcast())
      return result;
    return broadcastFromThreadZero(b, loc, scratch, ltid, result);
  }

  static Value broadcastFromThreadZero(OpBuilder &b, Location loc,
                                       Value scratch, Value ltid, Value value) {
    Ix ix{b, loc};
    storeIf(b, loc, ix.eq(ltid, 0), value, scratch, ix.c(0));
    gpu::BarrierOp::create(b, loc);
    return memref::LoadOp::create(b, loc, scratch, ix.c(0));
  }
};

} // namespace

void lowering::populateReducePatterns(RewritePatternSet &patterns,
                                      unsigned sm) {
  patterns.add<ReduceLowering>(patterns.getContext(), sm);
}
