//===- MergeSort.cpp - coop.merge_sort as CUB's merge sort ----------------===//
//
// CUB's BlockMergeSort and WarpMergeSort (BlockMergeSortStrategy): keys past
// valid_items become oob_default; each thread sorts its items by CUB's
// stable odd-even transposition network; then a loop over runs of 2, 4, ...
// threads up to the group: the keys go to the group's scratch region
// (blocked), a barrier, each thread finds where its ipt outputs start in the
// merge of its run's two halves by a merge-path binary search along its
// diagonal, and merges serially from there; the values follow the merged keys' input
// positions through scratch. A merge takes ties from the first half, so the
// sort is stable. Blocks synchronize with block barriers, warps and logical
// warps with warp barriers on their own regions.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// "a orders before b": the op's function, else `<` (unsigned or float as
/// the op says); `descending` swaps the arguments.
struct Order {
  FlatSymbolRefAttr function;
  bool isUnsigned;
  bool descending;

  Value before(OpBuilder &b, Location loc, Value x, Value y) const {
    if (descending)
      std::swap(x, y);
    if (function)
      return func::CallOp::create(b, loc, function, TypeRange{b.getI1Type()},
                                  ValueRange{x, y})
          .getResult(0);
    if (isa<FloatType>(x.getType()))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
    return arith::CmpIOp::create(b, loc,
                                 isUnsigned ? arith::CmpIPredicate::ult
                                            : arith::CmpIPredicate::slt,
                                 x, y);
  }
};

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value select(OpBuilder &b, Location loc, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, loc, c, x, y);
}

/// CUB's StableOddEvenSort of one thread's items (and values): a swap only
/// where the later item orders strictly before the earlier one.
void sortThreadItems(OpBuilder &b, Location loc, const Order &order,
                     SmallVectorImpl<Value> &keys,
                     SmallVectorImpl<Value> &values) {
  int64_t n = keys.size();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 1 & i; j < n - 1; j += 2) {
      Value swap = order.before(b, loc, keys[j + 1], keys[j]);
      Value low = select(b, loc, swap, keys[j + 1], keys[j]);
      Value high = select(b, loc, swap, keys[j], keys[j + 1]);
      keys[j] = low;
      keys[j + 1] = high;
      if (!values.empty()) {
        Value lowValue = select(b, loc, swap, values[j + 1], values[j]);
        Value highValue = select(b, loc, swap, values[j], values[j + 1]);
        values[j] = lowValue;
        values[j + 1] = highValue;
      }
    }
}

struct MergeSortLowering : OpConversionPattern<MergeSortOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MergeSortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t n = tile->itemsPerThread;
    int64_t group = tile->groupSize;
    Type keyType = op.getItemType();
    Type valueType = op.getValueType();
    ScratchLayout layout = *op.getScratchLayout(*tile);
    FailureOr<Value> keySlots =
        scratchView(rewriter, op, layout.elements, keyType);
    if (failed(keySlots))
      return failure();
    Value valueSlots;
    if (valueType) {
      int64_t valueBytes = valueType.getIntOrFloatBitWidth() / 8;
      FailureOr<Value> view = scratchView(
          rewriter, op, layout.elements * tile->elementBytes / valueBytes,
          valueType);
      if (failed(view))
        return failure();
      valueSlots = *view;
    }
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());
    Value region = scratchRegion(ix, *tile, layout, t);
    // A value region's slots: the group's stride in values, not keys.
    Value valueRegion = region;
    if (valueType && tile->warpLike) {
      int64_t valueBytes = valueType.getIntOrFloatBitWidth() / 8;
      valueRegion = ix.div(ix.mul(region, tile->elementBytes), valueBytes);
    }
    Order order{op.getCompareAttr(), op.getIsUnsigned(), op.getDescending()};
    auto sync = [&](OpBuilder &b) {
      groupSync(b, loc, op, *tile, tile->warpLike);
    };

    SmallVector<Value> keys = readPayload(rewriter, loc, adaptor.getKeys(), n);
    SmallVector<Value> values;
    if (valueType)
      values = readPayload(rewriter, loc, adaptor.getValues(), n);
    Value rank32 =
        arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                     t.rank);
    Value first32 = arith::MulIOp::create(rewriter, loc, rank32, i32(rewriter, loc, n));
    if (Value valid = adaptor.getValidItems()) {
      Value count = clampedCount(rewriter, loc, valid, group * n);
      for (auto [i, key] : llvm::enumerate(keys)) {
        Value position = arith::AddIOp::create(rewriter, loc, first32,
                                               i32(rewriter, loc, i));
        Value inside = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, position, count);
        key = select(rewriter, loc, inside, key, adaptor.getOobDefault());
      }
    }
    sortThreadItems(rewriter, loc, order, keys, values);

    auto slotOf = [&](Value region, Value position32) {
      return ix.add(region, arith::IndexCastUIOp::create(
                                rewriter, loc, rewriter.getIndexType(),
                                position32));
    };
    auto load = [&](Value slots, Value region, Value position32) {
      return memref::LoadOp::create(rewriter, loc, slots,
                                    slotOf(region, position32))
          .getResult();
    };
    // The rounds are a loop over log2(runs of threads), as CUB's: unrolled,
    // a 128-thread sort's 7 rounds and their searches took 196 ms to compile.
    int64_t rounds = llvm::Log2_64(group);
    if (rounds > 0) {
      SmallVector<Value> carried(keys);
      carried.append(values);
      auto loop = scf::ForOp::create(rewriter, loc, i32(rewriter, loc, 1),
                                     i32(rewriter, loc, rounds + 1),
                                     i32(rewriter, loc, 1), carried);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value round = loop.getInductionVar();
      ValueRange args = loop.getRegionIterArgs();
      SmallVector<Value> runKeys(args.take_front(n));
      SmallVector<Value> runValues(args.drop_front(n));
      // The round before reads the scratch until its merge is done.
      auto wait = scf::IfOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, round,
                                i32(rewriter, loc, 1)),
          /*withElseRegion=*/false);
      {
        OpBuilder then = thenBuilder(rewriter, wait);
        sync(then);
      }
      for (auto [i, key] : llvm::enumerate(runKeys))
        memref::StoreOp::create(rewriter, loc, key, *keySlots,
                                ix.add(region, ix.add(ix.mul(t.rank, n), i)));
      sync(rewriter);

      // This thread's run of 2^round threads: two sorted halves of `half`
      // items; its outputs start at diagonal `diag` of their merge.
      Value one = i32(rewriter, loc, 1);
      Value threads = arith::ShLIOp::create(rewriter, loc, one, round);
      Value half = arith::MulIOp::create(
          rewriter, loc, i32(rewriter, loc, n),
          arith::ShRUIOp::create(rewriter, loc, threads, one));
      Value local = arith::AndIOp::create(
          rewriter, loc, rank32, arith::SubIOp::create(rewriter, loc, threads, one));
      Value firstBegin = arith::MulIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, rank32, local),
          i32(rewriter, loc, n));
      Value secondBegin = arith::AddIOp::create(rewriter, loc, firstBegin, half);
      Value diag =
          arith::MulIOp::create(rewriter, loc, local, i32(rewriter, loc, n));
      // Merge path: the first half's share of the outputs before `diag`, the
      // least `m` in [max(0, diag - half), min(diag, half)] whose first-half
      // key does not order after the second half's key before the diagonal
      // (CUB's MergePath).
      Value lo0 = arith::MaxSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, diag, half),
          i32(rewriter, loc, 0));
      Value hi0 = arith::MinSIOp::create(rewriter, loc, diag, half);
      Type i32t = rewriter.getI32Type();
      auto search = scf::WhileOp::create(rewriter, loc, TypeRange{i32t, i32t},
                                         ValueRange{lo0, hi0});
      {
        OpBuilder::InsertionGuard guard(rewriter);
        Block *before = rewriter.createBlock(&search.getBefore(), {},
                                             {i32t, i32t}, {loc, loc});
        Value lo = before->getArgument(0), hi = before->getArgument(1);
        scf::ConditionOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lo,
                                  hi),
            ValueRange{lo, hi});
        Block *after = rewriter.createBlock(&search.getAfter(), {},
                                            {i32t, i32t}, {loc, loc});
        lo = after->getArgument(0);
        hi = after->getArgument(1);
        Value mid = arith::ShRSIOp::create(
            rewriter, loc, arith::AddIOp::create(rewriter, loc, lo, hi), one);
        Value firstKey =
            load(*keySlots, region,
                 arith::AddIOp::create(rewriter, loc, firstBegin, mid));
        Value across = arith::SubIOp::create(
            rewriter, loc, arith::SubIOp::create(rewriter, loc, diag, mid), one);
        Value secondKey =
            load(*keySlots, region,
                 arith::AddIOp::create(rewriter, loc, secondBegin, across));
        Value secondFirst = order.before(rewriter, loc, secondKey, firstKey);
        Value nextLo = select(rewriter, loc, secondFirst, lo,
                              arith::AddIOp::create(rewriter, loc, mid, one));
        Value nextHi = select(rewriter, loc, secondFirst, mid, hi);
        scf::YieldOp::create(rewriter, loc, ValueRange{nextLo, nextHi});
      }
      rewriter.setInsertionPointAfter(search);
      Value lo = search.getResult(0);
      // Serial merge from (first + lo, second + diag - lo): take the second
      // half's key only where it orders strictly before the first's.
      Value firstAt = arith::AddIOp::create(rewriter, loc, firstBegin, lo);
      Value firstEnd = secondBegin;
      Value secondAt = arith::AddIOp::create(
          rewriter, loc, secondBegin,
          arith::SubIOp::create(rewriter, loc, diag, lo));
      Value secondEnd = arith::AddIOp::create(rewriter, loc, secondBegin, half);
      Value firstKey = load(*keySlots, region, firstAt);
      Value secondKey = load(*keySlots, region, secondAt);
      SmallVector<Value> merged, from;
      for (int64_t i = 0; i < n; ++i) {
        Value secondLeft = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, secondAt, secondEnd);
        Value firstDone = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::sge, firstAt, firstEnd);
        Value takeSecond = ix.both(
            secondLeft,
            arith::OrIOp::create(
                rewriter, loc, firstDone,
                order.before(rewriter, loc, secondKey, firstKey)));
        merged.push_back(select(rewriter, loc, takeSecond, secondKey, firstKey));
        from.push_back(select(rewriter, loc, takeSecond, secondAt, firstAt));
        if (i + 1 == n)
          break;
        Value nextFirst = select(
            rewriter, loc, takeSecond, firstAt,
            arith::AddIOp::create(rewriter, loc, firstAt, one));
        Value nextSecond = select(
            rewriter, loc, takeSecond,
            arith::AddIOp::create(rewriter, loc, secondAt, one), secondAt);
        // The slot past a run's end is the next run's first or the spare
        // slot past the tile: read, never taken.
        Value reloaded = load(*keySlots, region,
                              select(rewriter, loc, takeSecond, nextSecond,
                                     nextFirst));
        firstKey = select(rewriter, loc, takeSecond, firstKey, reloaded);
        secondKey = select(rewriter, loc, takeSecond, reloaded, secondKey);
        firstAt = nextFirst;
        secondAt = nextSecond;
      }
      SmallVector<Value> next(merged);
      if (valueType) {
        sync(rewriter);
        for (auto [i, value] : llvm::enumerate(runValues))
          memref::StoreOp::create(
              rewriter, loc, value, valueSlots,
              ix.add(valueRegion, ix.add(ix.mul(t.rank, n), i)));
        sync(rewriter);
        for (Value position : from)
          next.push_back(load(valueSlots, valueRegion, position));
      }
      scf::YieldOp::create(rewriter, loc, next);
      rewriter.setInsertionPointAfter(loop);
      ValueRange sorted = loop.getResults();
      keys.assign(sorted.begin(), sorted.begin() + n);
      values.assign(sorted.begin() + n, sorted.end());
    }
    writePayload(rewriter, loc, adaptor.getOutput(), keys);
    if (valueType)
      writePayload(rewriter, loc, adaptor.getValuesOutput(), values);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateMergeSortPatterns(RewritePatternSet &patterns) {
  patterns.add<MergeSortLowering>(patterns.getContext());
}
