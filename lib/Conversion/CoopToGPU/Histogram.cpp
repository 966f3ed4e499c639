//===- Histogram.cpp - coop.histogram by shared-memory atomics ------------===//
//
// CUB's BlockHistogramAtomic: one atomic add a counted sample. Fresh
// counters (and a global array) count in the op's scratch: each thread
// zeroes its striped counters, a barrier, the samples' shared atomics, a
// barrier, then each thread reads its striped counters (adding an earlier
// call's) or adds each non-zero one to the global array by one atomic, so
// a whole-array histogram takes one global atomic a bin and block, not one
// a sample. A shared array takes the samples' atomics directly, between the
// two barriers that make it safe to zero before and read after.
//
// The atomics are PTX `red` (an atomic add whose old value nobody reads, as
// nvcc compiles CUB's atomicAdd); a sample that is not counted increments
// bin 0, and each thread takes its such increments back by one more atomic.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// Adds `value` (the counter type) to `memory[index]` where `condition`
/// holds (always without one), by one PTX `red` (shared or generic
/// addressing).
void addIf(OpBuilder &b, Location loc, Value condition, Value memory,
           Value index, Value value, bool shared) {
  unsigned bits = value.getType().getIntOrFloatBitWidth();
  Value address = itemAddress(b, loc, memory, index);
  std::string red = "red" + std::string(shared ? ".shared" : "") + ".add.u" +
                    std::to_string(bits) + " [$0], $1;";
  std::string valueConstraint = bits == 64 ? "l" : "r";
  if (!condition) {
    inlinePtx(b, loc, Type(), ValueRange{address, value}, red,
              "l," + valueConstraint + ",~{memory}", /*isVolatile=*/true);
    return;
  }
  Value guard = arith::ExtUIOp::create(b, loc, b.getI32Type(), condition);
  inlinePtx(b, loc, Type(), ValueRange{address, value, guard},
            "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p " + red + " }",
            "l," + valueConstraint + ",r,~{memory}", /*isVolatile=*/true);
}

/// Counts each sample in its bin of the shared `counters`: one unpredicated
/// atomic increment a sample, a sample not counted incrementing bin 0, then
/// one atomic a thread that takes those increments back from bin 0 (where
/// there were any). A null `counted` entry: that sample always counts (uint8
/// samples into 256 bins, no valid_items), and takes nothing back. ptxas
/// turns a predicated shared atomic into a branch around it with a
/// divergence scope (BSSY/BSYNC) each: H100, int32 loops of 16 samples a
/// thread at 0.70 of CUB's unchecked atomics.
void countSamples(OpBuilder &b, Location loc, Value counters,
                  ArrayRef<Value> binOf, ArrayRef<Value> counted,
                  Type counter) {
  Ix ix{b, loc};
  Value one = arith::ConstantIntOp::create(b, loc, counter, 1);
  Value zero = arith::ConstantIntOp::create(b, loc, counter, 0);
  Value firstBin = ix.c(0);
  Value missed;
  for (auto [bin, count] : llvm::zip(binOf, counted)) {
    if (!count) {
      addIf(b, loc, Value(), counters, bin, one, /*shared=*/true);
      continue;
    }
    Value slot = arith::SelectOp::create(b, loc, count, bin, firstBin);
    addIf(b, loc, Value(), counters, slot, one, /*shared=*/true);
    Value miss = arith::SelectOp::create(b, loc, count, zero, one);
    missed = missed ? arith::AddIOp::create(b, loc, missed, miss).getResult()
                    : miss;
  }
  if (!missed)
    return;
  Value anyMissed =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, missed, zero);
  addIf(b, loc, anyMissed, counters, firstBin,
        arith::SubIOp::create(b, loc, zero, missed), /*shared=*/true);
}

struct HistogramLowering : OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t n = op.getItemsPerThread();
    int64_t bins = op.getBins();
    Type counter = op.getCounterType();
    SmallVector<Value> samples =
        isa<MemRefType>(adaptor.getSamples().getType())
            ? readPayload(rewriter, loc, adaptor.getSamples(), n)
            : SmallVector<Value>{adaptor.getSamples()};
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());

    // Each sample's bin, and whether it is counted: in [0, bins) compared
    // unsigned (a negative signed sample wraps past bins) in 32 bits for
    // samples of up to 32, and before `valid_items`.
    SmallVector<Value> binOf, counted;
    Value valid = adaptor.getValidItems();
    IndexFn position = blockedPositions(ix, *tile, t.rank);
    for (auto [i, sample] : llvm::enumerate(samples)) {
      unsigned bits = sample.getType().getIntOrFloatBitWidth();
      Type wide = rewriter.getIntegerType(std::max(bits, 32u));
      Value bin = sample;
      if (bits < 32)
        bin = op.getIsUnsigned()
                  ? Value(arith::ExtUIOp::create(rewriter, loc, wide, sample))
                  : Value(arith::ExtSIOp::create(rewriter, loc, wide, sample));
      // Null: always counted (unsigned samples too narrow to pass the bins).
      bool everyValueABin = op.getIsUnsigned() && bits < 63 &&
                            (int64_t(1) << bits) <= bins;
      Value inRange;
      if (!everyValueABin)
        inRange = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ult, bin,
                                        ix.c(bin, bins));
      if (valid) {
        Value before = ix.lt(position(i), valid);
        inRange = inRange ? ix.both(inRange, before) : before;
      }
      binOf.push_back(arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(), bin));
      counted.push_back(inRange);
    }

    if (op.hasSharedOut()) {
      gpu::BarrierOp::create(rewriter, loc);
      countSamples(rewriter, loc, adaptor.getOut(), binOf, counted, counter);
      gpu::BarrierOp::create(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }

    FailureOr<Value> counters = scratchView(rewriter, op, bins, counter);
    if (failed(counters))
      return failure();
    // Thread t's counters: bins t + i*T (CUB's striped InitHistogram and
    // Composite), the last stripe only where it holds a bin.
    int64_t threads = tile->blockSize;
    int64_t slots = adaptor.getOutput()
                        ? cast<MemRefType>(adaptor.getOutput().getType())
                              .getDimSize(0)
                        : llvm::divideCeil(bins, threads);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, counter, 0);
    auto stripe = [&](int64_t i) { return ix.add(t.linearTid, i * threads); };
    auto forEachStripe = [&](auto body) {
      for (int64_t i = 0; i < slots && i * threads < bins; ++i) {
        Value bin = stripe(i);
        Value inside = (i + 1) * threads <= bins ? Value()
                                                 : ix.lt(bin, ix.c(bins));
        body(i, bin, inside);
      }
    };
    forEachStripe([&](int64_t, Value bin, Value inside) {
      if (inside)
        storeIf(rewriter, loc, inside, zero, *counters, bin);
      else
        memref::StoreOp::create(rewriter, loc, zero, *counters, bin);
    });
    gpu::BarrierOp::create(rewriter, loc);
    countSamples(rewriter, loc, *counters, binOf, counted, counter);
    gpu::BarrierOp::create(rewriter, loc);

    // A bin's count; 0 past the last bin (its slot reads a valid one).
    auto countOf = [&](Value bin, Value inside) -> Value {
      if (!inside)
        return memref::LoadOp::create(rewriter, loc, *counters, bin);
      Value last = ix.c(bins - 1);
      Value slot = arith::MinUIOp::create(rewriter, loc, bin, last);
      Value read = memref::LoadOp::create(rewriter, loc, *counters, slot);
      return arith::SelectOp::create(rewriter, loc, inside, read, zero);
    };
    if (Value out = adaptor.getOut()) {
      forEachStripe([&](int64_t, Value bin, Value inside) {
        Value count = countOf(bin, inside);
        Value nonZero = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ne, count, zero);
        addIf(rewriter, loc, nonZero, out, bin, count, /*shared=*/false);
      });
      rewriter.eraseOp(op);
      return success();
    }
    SmallVector<Value> results(slots, zero);
    forEachStripe([&](int64_t i, Value bin, Value inside) {
      results[i] = countOf(bin, inside);
    });
    if (Value earlier = adaptor.getAccumulate()) {
      SmallVector<Value> before = readPayload(rewriter, loc, earlier, slots);
      for (auto [result, add] : llvm::zip(results, before))
        result = arith::AddIOp::create(rewriter, loc, result, add);
    }
    writePayload(rewriter, loc, adaptor.getOutput(), results);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateHistogramPatterns(RewritePatternSet &patterns) {
  patterns.add<HistogramLowering>(patterns.getContext());
}
