//===- RunLengthDecode.cpp - coop.run_length_decode as CUB decodes runs ---===//
//
// CUB's BlockRunLengthDecode: an exclusive sum of the threads' run lengths
// (one warp scan, and for several warps their sums through scratch and one
// barrier) gives each run its first decoded offset; every thread stores its
// runs' values and offsets (and the last thread the stream's length after
// them), a barrier, then each thread finds the run of its first decoded item
// by a binary search of the offsets (the last run whose offset is at most
// the item's) and walks forward for its next items, over zero-length runs
// too (they share their successor's offset). Items past the stream's end
// are 0. The destination form decodes the whole stream a window of T*D items
// at a time into the array.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// The block's runs in scratch: values[r], offsets[r] (the stream's length
/// at offsets[runs]).
struct Runs {
  Value values;
  Value offsets;
  int64_t count;
  Value total; // the stream's length (the offset type)
};

/// `value` (an integer) as `type`, zero-extended or truncated.
Value asOffset(OpBuilder &b, Location loc, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (from < to)
    return arith::ExtUIOp::create(b, loc, type, value);
  if (from > to)
    return arith::TruncIOp::create(b, loc, type, value);
  return value;
}

Value indexOf(OpBuilder &b, Location loc, Value offset) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), offset);
}

/// Run numbers are i32 (a block has at most 1024 * 64 runs): CUB's int
/// arithmetic, one instruction a step where an index takes two.
Value offsetAt(OpBuilder &b, Location loc, const Runs &runs, Value run) {
  return memref::LoadOp::create(b, loc, runs.offsets, Ix{b, loc}.index(run));
}

/// The run holding decoded position `position` (the offset type): the last
/// run whose offset is at most it, by a binary search of the offsets
/// (CUB's StaticUpperBound, minus one).
Value searchRun(OpBuilder &b, Location loc, const Runs &runs, Value position) {
  Ix ix{b, loc};
  Type i32 = b.getI32Type();
  Value lo = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value hi = ix.c(lo, runs.count);
  for (int64_t span = runs.count; span > 0; span /= 2) {
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         lo, hi);
    Value mid = arith::ShRUIOp::create(b, loc, ix.add(lo, hi), ix.c(lo, 1));
    Value probe =
        arith::MinUIOp::create(b, loc, mid, ix.c(lo, runs.count - 1));
    Value atMost = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                         offsetAt(b, loc, runs, probe),
                                         position);
    Value right = ix.both(active, atMost);
    Value left = ix.both(active, arith::XOrIOp::create(
                                     b, loc, atMost, ix.c(atMost, 1)));
    lo = arith::SelectOp::create(b, loc, right, ix.add(mid, 1), lo);
    hi = arith::SelectOp::create(b, loc, left, mid, hi);
  }
  // lo >= 1 but for an empty stream's position 0 (run 0).
  Value run = arith::SubIOp::create(b, loc, lo, ix.c(lo, 1));
  return arith::MaxSIOp::create(b, loc, run, ix.c(lo, 0));
}

/// From `run` (holding an earlier position), the run holding `position`:
/// forward while the next run starts at or before it.
Value walkRun(OpBuilder &b, Location loc, const Runs &runs, Value run,
              Value position) {
  Ix ix{b, loc};
  Type i32 = b.getI32Type();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{i32}, ValueRange{run});
  // createBlock leaves `b` at the new block's end.
  Block *before = b.createBlock(&loop.getBefore(), {}, {i32}, {loc});
  Value current = before->getArgument(0);
  Value next = ix.add(current, 1);
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                       ix.c(next, runs.count));
  Value starts = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                       offsetAt(b, loc, runs, next), position);
  scf::ConditionOp::create(b, loc, ix.both(inside, starts),
                           ValueRange{current});
  Block *after = b.createBlock(&loop.getAfter(), {}, {i32}, {loc});
  scf::YieldOp::create(b, loc, ValueRange{ix.add(after->getArgument(0), 1)});
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

/// Thread `t`'s decoded items `first .. first + count - 1` and whether each
/// is inside the stream (0 outside).
SmallVector<std::pair<Value, Value>> decodeWindow(OpBuilder &b, Location loc,
                                                   const Runs &runs,
                                                   Value first, int64_t count,
                                                   Type item) {
  Ix ix{b, loc};
  Value zero = isa<FloatType>(item)
                   ? Value(arith::ConstantOp::create(
                         b, loc, b.getFloatAttr(item, 0.0)))
                   : Value(arith::ConstantIntOp::create(b, loc, item, 0));
  SmallVector<std::pair<Value, Value>> decoded;
  Value run;
  for (int64_t k = 0; k < count; ++k) {
    Value position = ix.add(first, k);
    run = k == 0 ? searchRun(b, loc, runs, position)
                 : walkRun(b, loc, runs, run, position);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         position, runs.total);
    Value value = memref::LoadOp::create(b, loc, runs.values, ix.index(run));
    decoded.push_back(
        {arith::SelectOp::create(b, loc, inside, value, zero), inside});
  }
  return decoded;
}

struct RunLengthDecodeLowering : OpConversionPattern<RunLengthDecodeOp> {
  RunLengthDecodeLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(RunLengthDecodeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t perThread = op.getItemsPerThread();
    int64_t window = op.getDecodedItemsPerThread();
    int64_t threads = tile->blockSize;
    Type item = op.getItemType();
    Type offset = op.getOffsetType();
    int64_t offsetBytes = offset.getIntOrFloatBitWidth() / 8;
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());

    SmallVector<Value> values =
        readPayload(rewriter, loc, adaptor.getRunValues(), perThread);
    SmallVector<Value> lengths;
    Value threadLength;
    for (Value length :
         readPayload(rewriter, loc, adaptor.getRunLengths(), perThread)) {
      lengths.push_back(asOffset(rewriter, loc, length, offset));
      threadLength = threadLength ? Value(arith::AddIOp::create(
                                        rewriter, loc, threadLength,
                                        lengths.back()))
                                  : lengths.back();
    }

    Runs runs;
    runs.count = threads * perThread;
    int64_t offsetsByte = op.getOffsetsStart(*tile) * tile->elementBytes;
    FailureOr<Value> valuesView = scratchView(rewriter, op, runs.count, item);
    FailureOr<Value> offsetsView = scratchView(
        rewriter, op, runs.count + 1, offset, offsetsByte);
    if (failed(valuesView) || failed(offsetsView))
      return failure();
    runs.values = *valuesView;
    runs.offsets = *offsetsView;
    int64_t warps = llvm::divideCeil(threads, kWarpThreads);
    FailureOr<GroupSum> sum = groupExclusiveSum(
        rewriter, loc, *tile, t.linearTid, t.rank, threadLength, sm,
        [&]() -> FailureOr<Value> {
          return scratchView(rewriter, op, warps, offset,
                             offsetsByte + (runs.count + 1) * offsetBytes);
        });
    if (failed(sum))
      return failure();
    runs.total = sum->total;

    // Thread t's runs are t*R .. t*R + R - 1; the last thread also stores
    // the stream's length after the last run (the walk's bound).
    Value start = sum->before;
    Value firstRun = ix.mul(t.linearTid, perThread);
    for (int64_t j = 0; j < perThread; ++j) {
      Value run = ix.add(firstRun, j);
      memref::StoreOp::create(rewriter, loc, values[j], runs.values, run);
      memref::StoreOp::create(rewriter, loc, start, runs.offsets, run);
      start = arith::AddIOp::create(rewriter, loc, start, lengths[j]);
    }
    storeIf(rewriter, loc, ix.eq(t.linearTid, threads - 1), runs.total,
            runs.offsets, ix.c(runs.count));
    gpu::BarrierOp::create(rewriter, loc);

    Value base = adaptor.getWindowOffset()
                     ? asOffset(rewriter, loc,
                                arith::IndexCastUIOp::create(
                                    rewriter, loc, rewriter.getI64Type(),
                                    adaptor.getWindowOffset()),
                                offset)
                     : ix.c(runs.total, 0);
    Value threadFirst = asOffset(
        rewriter, loc,
        arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                     ix.mul(t.linearTid, window)),
        offset);

    if (Value output = adaptor.getOutput()) {
      Value first = arith::AddIOp::create(rewriter, loc, base, threadFirst);
      SmallVector<Value> items;
      for (auto [value, inside] :
           decodeWindow(rewriter, loc, runs, first, window, item))
        items.push_back(value);
      writePayload(rewriter, loc, output, items);
      SmallVector<Value> results;
      if (op.getTotal())
        results.push_back(runs.total);
      rewriter.replaceOp(op, results);
      return success();
    }

    // The whole stream into the destination, from `window_offset` on, at
    // most as many items as it holds there.
    Value destination = adaptor.getDestination();
    Value destinationOffset =
        adaptor.getWindowOffset() ? adaptor.getWindowOffset() : ix.c(0);
    Value size = memref::DimOp::create(rewriter, loc, destination, 0);
    Value room = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              destinationOffset, size),
        arith::SubIOp::create(rewriter, loc, size, destinationOffset),
        ix.c(0));
    Value limit = arith::MinUIOp::create(rewriter, loc,
                                         indexOf(rewriter, loc, runs.total),
                                         room);
    auto windows = scf::ForOp::create(rewriter, loc, ix.c(0), limit,
                                      ix.c(threads * window));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(windows.getBody()->getTerminator());
      Ix in{rewriter, loc};
      Value windowStart = windows.getInductionVar();
      Value firstIndex = in.add(windowStart, in.mul(t.linearTid, window));
      Value first = asOffset(
          rewriter, loc,
          arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                       firstIndex),
          offset);
      for (auto [k, decoded] : llvm::enumerate(
               decodeWindow(rewriter, loc, runs, first, window, item))) {
        Value position = in.add(firstIndex, k);
        Value fits = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::ult,
                                           position, limit);
        auto store = scf::IfOp::create(rewriter, loc, TypeRange{}, fits,
                                       /*withElseRegion=*/false);
        OpBuilder then = thenBuilder(rewriter, store);
        memref::StoreOp::create(then, loc, decoded.first, destination,
                                Ix{then, loc}.add(destinationOffset, position));
      }
    }
    rewriter.replaceOp(op, ValueRange{runs.total});
    return success();
  }

  unsigned sm;
};

} // namespace

void lowering::populateRunLengthDecodePatterns(RewritePatternSet &patterns,
                                               unsigned sm) {
  patterns.add<RunLengthDecodeLowering>(patterns.getContext(), sm);
}
