//===- RunLengthDecode.cpp - coop.run_length_decode as CUB decodes runs ---===//
//
// CUB's BlockRunLengthDecode: an exclusive sum of the threads' run lengths
// (one warp scan, and for several warps their sums through scratch and one
// barrier) gives each run its first decoded offset; every thread stores its
// runs' values and offsets (and the last thread a run of 0 at the stream's
// end, where every position past it falls, and a sentinel offset past every
// position), a barrier, then each thread finds the run of its first decoded
// item by a binary search of the offsets (the last run whose offset is at
// most the item's) and steps forward for its next items. The barrier also
// tells every thread whether the block has a zero-length run (bar.red.or):
// without one, the next item's run is this one or the next, one
// comparison; with one, each item walks over the zero-length runs (they
// share their successor's offset).
// The destination form decodes the whole stream a window of T*D items at a
// time into the array.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// The block's runs in scratch: values[r], offsets[r], r < count; a run of
/// 0 at count, from the stream's length on (past its end every item is 0),
/// and a sentinel at offsets[count + 1] past every position, which stops the
/// steps there.
struct Runs {
  Value values;
  Value offsets;
  int64_t count;   // the block's runs (the zero run is run `count`)
  Value total;     // the stream's length (the offset type)
  Value anyEmpty;  // i1, uniform: the block has a zero-length run
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
/// of the block's runs whose offset is at most it (offsets[0] = 0 is at
/// most any), the zero run from the stream's length on. A branchless binary
/// search: the candidates [base, base + n) keep at least the larger half
/// whatever the comparison, so the steps and their probe distances are
/// constants, which fold into the loads' addresses (one load, one compare
/// and one select a step). The zero run is a compare and a select after it,
/// not a step more in the chain of dependent loads.
Value searchRun(OpBuilder &b, Location loc, const Runs &runs, Value position) {
  Ix ix{b, loc};
  Value base = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  for (int64_t n = runs.count; n > 1; n -= n / 2) {
    Value probe = ix.add(base, n / 2);
    Value atMost = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                         offsetAt(b, loc, runs, probe),
                                         position);
    base = arith::SelectOp::create(b, loc, atMost, probe, base);
  }
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       position, runs.total);
  return arith::SelectOp::create(b, loc, inside, base, ix.c(base, runs.count));
}

/// Whether the run after `run` starts at or before `position` (never past
/// the zero run: the sentinel offset is past every position).
Value nextStartsBy(OpBuilder &b, Location loc, const Runs &runs, Value run,
                   Value position) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                               offsetAt(b, loc, runs, Ix{b, loc}.add(run, 1)),
                               position);
}

/// From `run` (holding position - 1), the run holding `position`: forward
/// while the next run starts at or before it (over zero-length runs).
Value walkRun(OpBuilder &b, Location loc, const Runs &runs, Value run,
              Value position) {
  Type i32 = b.getI32Type();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{i32}, ValueRange{run});
  // createBlock leaves `b` at the new block's end.
  Block *before = b.createBlock(&loop.getBefore(), {}, {i32}, {loc});
  Value current = before->getArgument(0);
  scf::ConditionOp::create(b, loc,
                           nextStartsBy(b, loc, runs, current, position),
                           ValueRange{current});
  Block *after = b.createBlock(&loop.getAfter(), {}, {i32}, {loc});
  scf::YieldOp::create(b, loc,
                       ValueRange{Ix{b, loc}.add(after->getArgument(0), 1)});
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

/// The runs of positions first + 1 .. first + count - 1 from `run`, the
/// run of `first`; `walk`: over zero-length runs, else at most one run an
/// item.
SmallVector<Value> nextRuns(OpBuilder &b, Location loc, const Runs &runs,
                            Value run, Value first, int64_t count, bool walk) {
  Ix ix{b, loc};
  SmallVector<Value> found;
  for (int64_t k = 1; k < count; ++k) {
    Value position = ix.add(first, k);
    run = walk ? walkRun(b, loc, runs, run, position)
               : arith::SelectOp::create(
                     b, loc, nextStartsBy(b, loc, runs, run, position),
                     ix.add(run, 1), run);
    found.push_back(run);
  }
  return found;
}

/// Thread `t`'s decoded items `first .. first + count - 1` (0 past the
/// stream's end: the zero run's).
SmallVector<Value> decodeWindow(OpBuilder &b, Location loc, const Runs &runs,
                                Value first, int64_t count) {
  Ix ix{b, loc};
  SmallVector<Value> found{searchRun(b, loc, runs, first)};
  if (count > 1) {
    // Uniform: every thread takes the same branch.
    auto branch = scf::IfOp::create(
        b, loc, SmallVector<Type>(count - 1, b.getI32Type()), runs.anyEmpty,
        /*withElseRegion=*/true);
    OpBuilder then = thenBuilder(b, branch);
    scf::YieldOp::create(
        then, loc, nextRuns(then, loc, runs, found[0], first, count, true));
    OpBuilder otherwise = elseBuilder(b, branch);
    scf::YieldOp::create(otherwise, loc,
                         nextRuns(otherwise, loc, runs, found[0], first, count,
                                  false));
    llvm::append_range(found, branch.getResults());
  }
  SmallVector<Value> decoded;
  for (Value run : found)
    decoded.push_back(
        memref::LoadOp::create(b, loc, runs.values, ix.index(run)));
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
    Value threadLength, threadEmpty;
    for (Value length :
         readPayload(rewriter, loc, adaptor.getRunLengths(), perThread)) {
      lengths.push_back(asOffset(rewriter, loc, length, offset));
      Value empty = ix.eq(lengths.back(), 0);
      threadLength = threadLength ? Value(arith::AddIOp::create(
                                        rewriter, loc, threadLength,
                                        lengths.back()))
                                  : lengths.back();
      threadEmpty = threadEmpty ? Value(arith::OrIOp::create(
                                      rewriter, loc, threadEmpty, empty))
                                : empty;
    }

    Runs runs;
    runs.count = threads * perThread;
    int64_t offsetsByte = op.getOffsetsStart(*tile) * tile->elementBytes;
    FailureOr<Value> valuesView =
        scratchView(rewriter, op, runs.count + 1, item);
    FailureOr<Value> offsetsView = scratchView(
        rewriter, op, runs.count + 2, offset, offsetsByte);
    if (failed(valuesView) || failed(offsetsView))
      return failure();
    runs.values = *valuesView;
    runs.offsets = *offsetsView;
    int64_t warps = llvm::divideCeil(threads, kWarpThreads);
    FailureOr<GroupSum> sum = groupExclusiveSum(
        rewriter, loc, *tile, t.linearTid, t.rank, threadLength, sm,
        [&]() -> FailureOr<Value> {
          return scratchView(rewriter, op, warps, offset,
                             offsetsByte + (runs.count + 2) * offsetBytes);
        });
    if (failed(sum))
      return failure();
    runs.total = sum->total;

    // Thread t's runs are t*R .. t*R + R - 1; the last thread also stores
    // the zero run from the stream's length on and the sentinel after it
    // (all ones: past every position).
    Value start = sum->before;
    Value firstRun = ix.mul(t.linearTid, perThread);
    for (int64_t j = 0; j < perThread; ++j) {
      Value run = ix.add(firstRun, j);
      memref::StoreOp::create(rewriter, loc, values[j], runs.values, run);
      memref::StoreOp::create(rewriter, loc, start, runs.offsets, run);
      start = arith::AddIOp::create(rewriter, loc, start, lengths[j]);
    }
    {
      auto last = scf::IfOp::create(rewriter, loc, TypeRange{},
                                    ix.eq(t.linearTid, threads - 1),
                                    /*withElseRegion=*/false);
      OpBuilder then = thenBuilder(rewriter, last);
      Ix in{then, loc};
      Value zero =
          isa<FloatType>(item)
              ? Value(arith::ConstantOp::create(then, loc,
                                                then.getFloatAttr(item, 0.0)))
              : Value(arith::ConstantIntOp::create(then, loc, item, 0));
      memref::StoreOp::create(then, loc, zero, runs.values,
                              in.c(runs.count));
      memref::StoreOp::create(then, loc, runs.total, runs.offsets,
                              in.c(runs.count));
      memref::StoreOp::create(then, loc, in.c(runs.total, -1), runs.offsets,
                              in.c(runs.count + 1));
    }
    Type i32 = rewriter.getI32Type();
    Value anyEmpty =
        NVVM::BarrierOp::create(
            rewriter, loc, i32, Value(), Value(),
            NVVM::BarrierReductionAttr::get(rewriter.getContext(),
                                            NVVM::BarrierReduction::OR),
            arith::ExtUIOp::create(rewriter, loc, i32, threadEmpty))
            .getRes();
    runs.anyEmpty = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, anyEmpty, ix.c(anyEmpty, 0));

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
      writePayload(rewriter, loc, output,
                   decodeWindow(rewriter, loc, runs, first, window));
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
      for (auto [k, decoded] :
           llvm::enumerate(decodeWindow(rewriter, loc, runs, first, window))) {
        Value position = in.add(firstIndex, k);
        Value fits = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::ult,
                                           position, limit);
        auto store = scf::IfOp::create(rewriter, loc, TypeRange{}, fits,
                                       /*withElseRegion=*/false);
        OpBuilder then = thenBuilder(rewriter, store);
        memref::StoreOp::create(then, loc, decoded, destination,
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
