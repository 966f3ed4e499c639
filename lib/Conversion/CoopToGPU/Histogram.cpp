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
// nvcc compiles CUB's atomicAdd; `red.global` for a global array). A sample
// that is not counted increments the scratch's spare counter past the last
// bin, or in a shared array bin 0, each thread then taking its such
// increments back by one more atomic.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "Radix.h"
#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// The state space of an atomic's address: `red.global` is nvcc's
/// fire-and-forget REDG for CUB's atomicAdd on a global array, where a
/// generic `red` compiles to an ATOM that waits for its old value.
enum class Space { Shared, Global, Generic };

/// Adds `value` (the counter type) at `address` (an i64 of `space`) where
/// `condition` holds (always without one), by one PTX `red`.
void addAt(OpBuilder &b, Location loc, Value condition, Value address,
           Value value, Space space) {
  unsigned bits = value.getType().getIntOrFloatBitWidth();
  const char *spaceSuffix = space == Space::Shared   ? ".shared"
                            : space == Space::Global ? ".global"
                                                     : "";
  std::string red = "red" + std::string(spaceSuffix) + ".add.u" +
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

/// Adds `value` to `memory[index]` where `condition` holds (addAt).
void addIf(OpBuilder &b, Location loc, Value condition, Value memory,
           Value index, Value value, Space space) {
  addAt(b, loc, condition, itemAddress(b, loc, memory, index), value, space);
}

/// Whether `memory` (a generic address) is in global memory: a `red.global`
/// there; anywhere else (a shared array that reached the op through a call
/// that was not inlined, typed as global) a generic one.
Value inGlobalMemory(OpBuilder &b, Location loc, Value memory) {
  Value first = itemAddress(b, loc, memory, Ix{b, loc}.c(0));
  Value flag = inlinePtx(
      b, loc, b.getI32Type(), ValueRange{first},
      "{ .reg .pred p; isspacep.global p, $1; selp.u32 $0, 1, 0, p; }", "=r,l",
      /*isVolatile=*/false);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                               Ix{b, loc}.c(flag, 0));
}

/// Counts each sample in its bin of a shared array `out`: one unpredicated
/// atomic increment a sample. A sample not counted increments bin 0, and then
/// one atomic a thread takes those increments back (where there were any: a
/// count a sample). A null `counted` entry: that sample always counts.
/// ptxas turns a predicated shared atomic into a branch around it with a
/// divergence scope (BSSY/BSYNC) each: H100, int32 loops of 16 samples a
/// thread at 0.70 of CUB's unchecked atomics.
void countSamples(OpBuilder &b, Location loc, Value out, ArrayRef<Value> binOf,
                  ArrayRef<Value> counted, Type counter) {
  Ix ix{b, loc};
  Value one = arith::ConstantIntOp::create(b, loc, counter, 1);
  Value zero = arith::ConstantIntOp::create(b, loc, counter, 0);
  Value firstBin = ix.c(0);
  Value missed;
  for (auto [bin, count] : llvm::zip(binOf, counted)) {
    if (!count) {
      addIf(b, loc, Value(), out, bin, one, Space::Shared);
      continue;
    }
    Value slot = arith::SelectOp::create(b, loc, count, bin, firstBin);
    addIf(b, loc, Value(), out, slot, one, Space::Shared);
    Value miss = arith::SelectOp::create(b, loc, count, zero, one);
    missed = missed ? arith::AddIOp::create(b, loc, missed, miss).getResult()
                    : miss;
  }
  if (!missed)
    return;
  Value anyMissed =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, missed, zero);
  addIf(b, loc, anyMissed, out, firstBin,
        arith::SubIOp::create(b, loc, zero, missed), Space::Shared);
}

/// Each sample's counter address in the op's scratch `counters`: its bin's,
/// or `spare` (a counter past the last bin nobody reads) where it is not
/// counted: one unsigned min a sample. A null `counted` entry: that sample
/// always counts (uint8 samples into 256 bins, no valid_items).
SmallVector<Value> counterAddresses(OpBuilder &b, Location loc,
                                    Value counters, ArrayRef<Value> binOf,
                                    ArrayRef<Value> counted, int64_t spare) {
  Ix ix{b, loc};
  SmallVector<Value> addresses;
  for (auto [bin, count] : llvm::zip(binOf, counted)) {
    Value slot =
        count ? arith::SelectOp::create(b, loc, count, bin, ix.c(spare)) : bin;
    addresses.push_back(itemAddress(b, loc, counters, slot));
  }
  return addresses;
}

/// The first and past-the-end positions of each bin's run in the block's
/// sorted bins: i32 views of `bins` entries each (CUB's run_begin and
/// run_end), the tile's size where a bin has no samples.
struct Runs {
  Value begin;
  Value end;
};

/// CUB's BlockHistogramSort up to its composite: the samples' bins (a
/// sample not counted as bin `bins`, which sorts last and has no run) radix
/// sorted over the bits that hold `bins` (CUB sorts every bit of the
/// samples), a barrier, each thread's last sorted bin to scratch beside the
/// runs' bounds, set to the tile's size, a barrier, each run's head records
/// its begin and its predecessor's end (CUB's head flags), a barrier.
FailureOr<Runs> sortRuns(RewriterBase &rewriter, Location loc, HistogramOp op,
                         const TileGeometry &tile, const TileThreads &t,
                         ArrayRef<Value> binOf, ArrayRef<Value> counted,
                         unsigned sm) {
  Ix ix{rewriter, loc};
  Type i32 = rewriter.getI32Type();
  int64_t bins = op.getBins();
  int64_t threads = tile.blockSize;
  int64_t n = binOf.size();
  auto c32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(rewriter, loc, i32, v).getResult();
  };
  Value outside = c32(bins);
  SmallVector<Value> keys;
  for (auto [bin, count] : llvm::zip(binOf, counted)) {
    Value key = arith::IndexCastUIOp::create(rewriter, loc, i32, bin);
    keys.push_back(count ? arith::SelectOp::create(rewriter, loc, count, key,
                                                   outside)
                               .getResult()
                         : key);
  }
  // Bits that hold every key: bins - 1, and `bins` where a sample may not
  // count (uint8 samples into 256 bins: 8 bits, CUB's 2 passes).
  bool everyCounted = llvm::all_of(counted, [](Value c) { return !c; });
  int64_t keyBits =
      std::max<int64_t>(1, llvm::Log2_64_Ceil(everyCounted ? bins : bins + 1));
  RadixSortSpec spec{HistogramOp::kSortRadixBits,
                     /*floatKeys=*/false,
                     Type(),
                     /*descending=*/false,
                     /*blockedToStriped=*/false,
                     c32(0),
                     c32(keyBits),
                     sm};
  FailureOr<SortedTile> sorted = sortOrderedKeys(
      rewriter, loc, op, op.getSortTile(tile), t, spec, keys, {});
  if (failed(sorted))
    return failure();
  gpu::BarrierOp::create(rewriter, loc);

  FailureOr<Value> lastBins = scratchView(rewriter, op, threads, i32);
  FailureOr<Value> begin = scratchView(rewriter, op, bins, i32, threads * 4);
  FailureOr<Value> end =
      scratchView(rewriter, op, bins, i32, (threads + bins) * 4);
  if (failed(lastBins) || failed(begin) || failed(end))
    return failure();
  Value tileItems = c32(threads * n);
  for (int64_t i = 0; i * threads < bins; ++i) {
    Value bin = ix.add(t.linearTid, i * threads);
    for (Value bounds : {*begin, *end}) {
      if ((i + 1) * threads <= bins)
        memref::StoreOp::create(rewriter, loc, tileItems, bounds, bin);
      else
        storeIf(rewriter, loc, ix.lt(bin, ix.c(bins)), tileItems, bounds, bin);
    }
  }
  memref::StoreOp::create(rewriter, loc, sorted->keys.back(), *lastBins,
                          t.linearTid);
  gpu::BarrierOp::create(rewriter, loc);

  Value tid = arith::IndexCastUIOp::create(rewriter, loc, i32, t.linearTid);
  Value first = arith::MulIOp::create(rewriter, loc, tid, c32(n));
  for (int64_t i = 0; i < n; ++i) {
    Value key = sorted->keys[i];
    Value position = arith::AddIOp::create(rewriter, loc, first, c32(i));
    Value prev, isFirst;
    if (i > 0) {
      prev = sorted->keys[i - 1];
    } else {
      // Thread 0 reads its own last bin; its first position is a head.
      Value before = arith::MaxSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, tid, c32(1)),
          c32(0));
      prev = memref::LoadOp::create(rewriter, loc, *lastBins,
                                    ix.index(before));
      isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      tid, c32(0));
    }
    Value differs = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, key, prev);
    Value head = isFirst ? arith::OrIOp::create(rewriter, loc, differs, isFirst)
                               .getResult()
                         : differs;
    Value keyIsBin = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, key, outside);
    storeIf(rewriter, loc, ix.both(head, keyIsBin), position, *begin,
            ix.index(key));
    Value ends = arith::CmpIOp::create(rewriter, loc,
                                       arith::CmpIPredicate::ult, prev, outside);
    if (isFirst)
      ends = ix.both(ends, arith::XOrIOp::create(rewriter, loc, isFirst,
                                                 ix.c(isFirst, 1)));
    storeIf(rewriter, loc, ix.both(differs, ends), position, *end,
            ix.index(prev));
  }
  gpu::BarrierOp::create(rewriter, loc);
  return Runs{*begin, *end};
}

struct HistogramLowering : OpConversionPattern<HistogramOp> {
  HistogramLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

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
      Value inRange;
      if (!op.everySampleIsABin())
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

    bool bySort = op.getAlgorithm() == HistogramAlgorithm::sort;
    if (op.hasSharedOut() && !bySort) {
      gpu::BarrierOp::create(rewriter, loc);
      countSamples(rewriter, loc, adaptor.getOut(), binOf, counted, counter);
      gpu::BarrierOp::create(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }

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
    // A bin's count read at `slot` (a valid bin's).
    std::function<Value(Value)> countAt;
    if (bySort) {
      FailureOr<Runs> runs =
          sortRuns(rewriter, loc, op, *tile, t, binOf, counted, sm);
      if (failed(runs))
        return failure();
      countAt = [&, bounds = *runs](Value slot) -> Value {
        Value count = arith::SubIOp::create(
            rewriter, loc,
            memref::LoadOp::create(rewriter, loc, bounds.end, slot),
            memref::LoadOp::create(rewriter, loc, bounds.begin, slot));
        if (counter.isInteger(32))
          return count;
        return arith::ExtUIOp::create(rewriter, loc, counter, count);
      };
    } else {
      bool spare = op.mayMissSamples();
      FailureOr<Value> counters =
          scratchView(rewriter, op, bins + (spare ? 1 : 0), counter);
      if (failed(counters))
        return failure();
      // The samples' counter addresses, then the zeroing, a barrier, one
      // atomic an address and a barrier (ptxas places the address
      // arithmetic around the first barrier as it likes).
      SmallVector<Value> addresses =
          counterAddresses(rewriter, loc, *counters, binOf, counted, bins);
      forEachStripe([&](int64_t, Value bin, Value inside) {
        if (inside)
          storeIf(rewriter, loc, inside, zero, *counters, bin);
        else
          memref::StoreOp::create(rewriter, loc, zero, *counters, bin);
      });
      gpu::BarrierOp::create(rewriter, loc);
      Value one = arith::ConstantIntOp::create(rewriter, loc, counter, 1);
      for (Value address : addresses)
        addAt(rewriter, loc, Value(), address, one, Space::Shared);
      gpu::BarrierOp::create(rewriter, loc);
      countAt = [&, view = *counters](Value slot) -> Value {
        return memref::LoadOp::create(rewriter, loc, view, slot);
      };
    }

    // A bin's count; 0 past the last bin (its slot reads a valid one).
    auto countOf = [&](Value bin, Value inside) -> Value {
      if (!inside)
        return countAt(bin);
      Value last = ix.c(bins - 1);
      Value slot = arith::MinUIOp::create(rewriter, loc, bin, last);
      return arith::SelectOp::create(rewriter, loc, inside, countAt(slot),
                                     zero);
    };
    if (op.hasSharedOut()) {
      // Each bin's count, added by the thread of its stripe (no other
      // thread touches the bin, not even to read: a clamped read of the
      // last bin would race with its owner's write), then a barrier before
      // the block reads.
      Value out = adaptor.getOut();
      forEachStripe([&](int64_t, Value bin, Value inside) {
        OpBuilder::InsertionGuard guard(rewriter);
        if (inside) {
          auto owned = scf::IfOp::create(rewriter, loc, inside, false);
          rewriter.setInsertionPoint(owned.thenBlock()->getTerminator());
        }
        Value sum = arith::AddIOp::create(
            rewriter, loc, memref::LoadOp::create(rewriter, loc, out, bin),
            countAt(bin));
        memref::StoreOp::create(rewriter, loc, sum, out, bin);
      });
      gpu::BarrierOp::create(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }
    if (Value out = adaptor.getOut()) {
      // Uniform: `out` is the same array in every thread.
      auto global = scf::IfOp::create(rewriter, loc, TypeRange{},
                                      inGlobalMemory(rewriter, loc, out),
                                      /*withElseRegion=*/true);
      for (Space space : {Space::Global, Space::Generic}) {
        OpBuilder::InsertionGuard guard(rewriter);
        Block *branch =
            space == Space::Global ? global.thenBlock() : global.elseBlock();
        rewriter.setInsertionPoint(branch->getTerminator());
        forEachStripe([&](int64_t, Value bin, Value inside) {
          Value count = countOf(bin, inside);
          Value nonZero = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::ne, count, zero);
          addIf(rewriter, loc, nonZero, out, bin, count, space);
        });
      }
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

  unsigned sm;
};

} // namespace

void lowering::populateHistogramPatterns(RewritePatternSet &patterns,
                                         unsigned sm) {
  patterns.add<HistogramLowering>(patterns.getContext(), sm);
}
