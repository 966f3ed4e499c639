//===- Radix.cpp - coop.radix_rank and coop.radix_sort --------------------===//
//
// CUB's BlockRadixRank (basic) and BlockRadixSort. Keys are ranked and
// sorted by their bit-ordered form (CUB's twiddle): unsigned integers as
// they are, signed ones with the sign bit flipped, floats with the sign bit
// flipped when positive and every bit when negative. A digit of a float's
// -0.0 is taken from +0.0, so the two rank as equal while the keys keep
// their bits.
//
// Ranking: each thread counts its keys' digits, in order, in its own column
// of 16-bit counters (two packed in a word, laid out [lane][thread] with a
// padding lane); a barrier; each thread sums its raking segment of the
// packed words, one block exclusive sum of the segments (the low halves'
// total carried into the high halves), the thread writes its segment's
// exclusive prefixes back; a barrier; a key's rank is its count before it
// in its thread plus its counter's prefix.
//
// Sorting: a pass of `radix_bits` bits ranks the keys and scatters keys and
// values to their ranks through scratch (BlockExchange's padded layout),
// reading them back in blocked order (striped after the last pass with
// blocked_to_striped); the passes are a loop over the bit range.
//
//===----------------------------------------------------------------------===//

#include "Radix.h"

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// How a key type's bits order: signed or unsigned integers, or floats.
struct KeyBits {
  Type key;
  IntegerType bits;
  bool isFloat;
  bool isUnsigned;

  KeyBits(Type key, bool isUnsigned)
      : key(key),
        bits(IntegerType::get(key.getContext(), key.getIntOrFloatBitWidth())),
        isFloat(isa<FloatType>(key)), isUnsigned(isUnsigned) {}

  unsigned width() const { return bits.getWidth(); }
  Value c(OpBuilder &b, Location loc, const APInt &v) const {
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(bits, v));
  }
  Value signBit(OpBuilder &b, Location loc) const {
    return c(b, loc, APInt::getSignMask(width()));
  }
  /// All ones where the bits' sign bit is set, else zero.
  Value signMask(OpBuilder &b, Location loc, Value v) const {
    return arith::ShRSIOp::create(b, loc, v, c(b, loc, APInt(width(), width() - 1)));
  }

  /// The key's bit-ordered form (CUB's TwiddleIn).
  Value toOrdered(OpBuilder &b, Location loc, Value key) const {
    Value v = isFloat ? Value(arith::BitcastOp::create(b, loc, bits, key)) : key;
    if (isUnsigned)
      return v;
    if (!isFloat)
      return arith::XOrIOp::create(b, loc, v, signBit(b, loc));
    Value flip = arith::OrIOp::create(b, loc, signMask(b, loc, v), signBit(b, loc));
    return arith::XOrIOp::create(b, loc, v, flip);
  }

  /// The key of a bit-ordered form (CUB's TwiddleOut).
  Value fromOrdered(OpBuilder &b, Location loc, Value v) const {
    if (isUnsigned)
      return v;
    if (!isFloat)
      return arith::XOrIOp::create(b, loc, v, signBit(b, loc));
    Value ones = c(b, loc, APInt::getAllOnes(width()));
    Value notMask = arith::XOrIOp::create(b, loc, signMask(b, loc, v), ones);
    Value flip = arith::OrIOp::create(b, loc, notMask, signBit(b, loc));
    Value key = arith::XOrIOp::create(b, loc, v, flip);
    return arith::BitcastOp::create(b, loc, this->key, key);
  }

  /// The digit of `count` bits (i32, at most 8) from bit `begin` (i32) of
  /// bit-ordered `v`, as an i32; -0.0's digits are +0.0's.
  Value digit(OpBuilder &b, Location loc, Value v, Value begin,
              Value mask) const {
    if (isFloat) {
      Value minusZero = c(b, loc, ~APInt::getSignMask(width()));
      Value isMinusZero = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, v, minusZero);
      v = arith::SelectOp::create(b, loc, isMinusZero, signBit(b, loc), v);
    }
    Type i32 = b.getI32Type();
    if (width() < 32)
      v = arith::ExtUIOp::create(b, loc, i32, v);
    Value shift = begin;
    if (width() > 32)
      shift = arith::ExtUIOp::create(b, loc, bits, begin);
    v = arith::ShRUIOp::create(b, loc, v, shift);
    if (width() > 32)
      v = arith::TruncIOp::create(b, loc, i32, v);
    return arith::AndIOp::create(b, loc, v, mask);
  }
};

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value asIndex(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
}

/// The rank's views of its scratch: the packed words and their 16-bit
/// halves (the same bytes), and the warps' totals past them.
struct CounterViews {
  Value words;
  Value halves;
  std::function<FailureOr<Value>()> totals;
};

FailureOr<CounterViews> counterViews(RewriterBase &rewriter, Operation *op,
                                     const RadixCounters &counters) {
  FailureOr<Value> words =
      scratchView(rewriter, op, counters.words(), rewriter.getI32Type());
  FailureOr<Value> halves =
      scratchView(rewriter, op, 2 * counters.words(), rewriter.getI16Type());
  if (failed(words) || failed(halves))
    return failure();
  CounterViews views{*words, *halves, nullptr};
  views.totals = [&rewriter, op, counters]() {
    return scratchView(rewriter, op, counters.warps(), rewriter.getI32Type(),
                       counters.words() * 4);
  };
  return views;
}

/// The index of digit `digit`'s (i32) 16-bit counter in thread `thread`'s
/// column; `descending` ranks greater digits first.
Value counterIndex(OpBuilder &b, Location loc, const RadixCounters &counters,
                   Value digit, Value thread, bool descending) {
  if (descending)
    digit = arith::SubIOp::create(b, loc, i32(b, loc, counters.digits() - 1),
                                  digit);
  Value lane = arith::AndIOp::create(b, loc, digit,
                                     i32(b, loc, counters.lanes() - 1));
  Value half = arith::ShRUIOp::create(b, loc, digit,
                                      i32(b, loc, counters.logLanes()));
  Ix ix{b, loc};
  Value word = ix.add(ix.mul(asIndex(b, loc, lane), counters.blockSize), thread);
  return ix.add(ix.mul(word, 2), asIndex(b, loc, half));
}

/// CUB's BlockRadixRank::RankKeys of `digits` (i32 each): each key's rank
/// (i32) in the block's stable order by digit, keys in blocked order.
FailureOr<SmallVector<Value>>
rankDigits(OpBuilder &b, Location loc, const TileGeometry &tile,
           const TileThreads &t, const RadixCounters &counters,
           const CounterViews &views, ArrayRef<Value> digits, bool descending,
           unsigned sm) {
  Ix ix{b, loc};
  Type i16 = b.getI16Type();
  Type i32t = b.getI32Type();
  int64_t lanes = counters.paddedLanes();
  int64_t threads = counters.blockSize;
  Value zero32 = i32(b, loc, 0);
  for (int64_t lane = 0; lane < lanes; ++lane)
    memref::StoreOp::create(b, loc, zero32, views.words,
                            ix.add(t.linearTid, lane * threads));

  // Each key in order: its thread's count of the digit so far, then one
  // more. The column is the thread's own, so no barrier orders these.
  SmallVector<Value> slots, before;
  Value one16 = arith::ConstantIntOp::create(b, loc, i16, 1);
  for (Value digit : digits) {
    Value slot =
        counterIndex(b, loc, counters, digit, t.linearTid, descending);
    Value count = memref::LoadOp::create(b, loc, views.halves, slot);
    memref::StoreOp::create(b, loc,
                            arith::AddIOp::create(b, loc, count, one16),
                            views.halves, slot);
    slots.push_back(slot);
    before.push_back(arith::ExtUIOp::create(b, loc, i32t, count));
  }
  gpu::BarrierOp::create(b, loc);

  // The raking scan: the thread's segment of `lanes` words in registers.
  Value first = ix.mul(t.linearTid, lanes);
  SmallVector<Value> segment;
  Value sum;
  for (int64_t j = 0; j < lanes; ++j) {
    segment.push_back(
        memref::LoadOp::create(b, loc, views.words, ix.add(first, j)));
    sum = sum ? arith::AddIOp::create(b, loc, sum, segment.back()).getResult()
              : segment.back();
  }
  FailureOr<GroupSum> scanned = groupExclusiveSum(
      b, loc, tile, t.linearTid, t.rank, sum, sm, views.totals);
  if (failed(scanned))
    return failure();
  // The low halves' total precedes every high half.
  Value carry = arith::ShLIOp::create(b, loc, scanned->total, i32(b, loc, 16));
  Value running = arith::AddIOp::create(b, loc, scanned->before, carry);
  for (int64_t j = 0; j < lanes; ++j) {
    memref::StoreOp::create(b, loc, running, views.words, ix.add(first, j));
    running = arith::AddIOp::create(b, loc, running, segment[j]);
  }
  gpu::BarrierOp::create(b, loc);

  SmallVector<Value> ranks;
  for (auto [slot, count] : llvm::zip(slots, before)) {
    Value prefix = memref::LoadOp::create(b, loc, views.halves, slot);
    ranks.push_back(arith::AddIOp::create(
        b, loc, count, arith::ExtUIOp::create(b, loc, i32t, prefix)));
  }
  return ranks;
}

/// The lanes of the warp whose `digit` (i32, `bits` bits) equals the
/// thread's: one ballot a bit, as CUB's MatchAny (cheaper than match.any).
Value matchAny(OpBuilder &b, Location loc, Value digit, int64_t bits) {
  Type i32t = b.getI32Type();
  Value peers;
  for (int64_t bit = 0; bit < bits; ++bit) {
    Value mask = inlinePtx(
        b, loc, i32t, ValueRange{digit, i32(b, loc, int64_t(1) << bit)},
        "{ .reg .pred p; and.b32 $0, $1, $2; setp.eq.u32 p, $0, $2; "
        "vote.ballot.sync.b32 $0, p, 0xffffffff; @!p not.b32 $0, $0; }",
        "=r,r,r", /*isVolatile=*/true);
    peers = peers ? arith::AndIOp::create(b, loc, peers, mask).getResult()
                  : mask;
  }
  return peers;
}

Value popCount(OpBuilder &b, Location loc, Value v) {
  return LLVM::CtPopOp::create(b, loc, v.getType(), v);
}

/// CUB's BlockRadixRankMatch::RankKeys of `digits` (i32 each, keys in
/// blocked order, a block of whole warps), stable in blocked order: the
/// digits go to warp-striped order through the warp's region, each strip
/// (item i of every lane) is ranked by the warp at once (the lanes of a
/// digit find each other by ballots; the first adds their count to the
/// digit's counter of the warp), a barrier, one raking block scan of the
/// counters ([digit][warp] order), a barrier, each rank adds its counter's
/// prefix, and the ranks go back to blocked order. The counters are
/// returned for the digit prefix (`counters`: i32 [digit][paddedWarps]).
FailureOr<SmallVector<Value>>
rankDigitsByMatch(RewriterBase &rewriter, Location loc, Operation *op,
                  const TileGeometry &tile, const TileThreads &t,
                  const RadixMatchCounters &layout, Value counters,
                  ArrayRef<Value> digits, bool descending, unsigned sm) {
  OpBuilder &b = rewriter;
  Ix ix{b, loc};
  Type i32t = b.getI32Type();
  int64_t n = digits.size();
  WarpLane wl = warpAndLane(b, loc, t.linearTid);
  Value warp = ix.index(wl.warp);
  Value lane = ix.index(wl.lane);
  Value region = ix.add(ix.mul(warp, layout.warpRegionWords()),
                        layout.regionsStart());
  auto slot = [&](Value p) { return ix.add(region, ix.add(p, ix.div(p, 32))); };
  Value blockedFirst = ix.mul(lane, n);
  auto blockedSlot = [&](int64_t i) { return slot(ix.add(blockedFirst, i)); };
  auto stripedSlot = [&](int64_t i) { return slot(ix.add(lane, i * 32)); };

  for (auto [i, digit] : llvm::enumerate(digits))
    memref::StoreOp::create(b, loc, digit, counters, blockedSlot(i));
  warpSync(b, loc, op, kWarpThreads);
  SmallVector<Value> striped;
  for (int64_t i = 0; i < n; ++i)
    striped.push_back(memref::LoadOp::create(b, loc, counters, stripedSlot(i)));

  int64_t segment = layout.segment();
  Value first = ix.mul(t.linearTid, segment);
  Value zero = i32(b, loc, 0);
  for (int64_t j = 0; j < segment; ++j)
    memref::StoreOp::create(b, loc, zero, counters, ix.add(first, j));
  gpu::BarrierOp::create(b, loc);

  Value lanesBefore = inlinePtx(b, loc, i32t, ValueRange{},
                                "mov.u32 $0, %lanemask_lt;", "=r",
                                /*isVolatile=*/false);
  SmallVector<Value> counterOf, ranks;
  for (Value digit : striped) {
    if (descending)
      digit = arith::SubIOp::create(b, loc, i32(b, loc, layout.digits() - 1),
                                    digit);
    Value peers = matchAny(b, loc, digit, layout.radixBits);
    Value counter =
        ix.add(ix.mul(asIndex(b, loc, digit), layout.paddedWarps()), warp);
    Value prefix = memref::LoadOp::create(b, loc, counters, counter);
    warpSync(b, loc, op, kWarpThreads);
    Value count = popCount(b, loc, peers);
    Value before = popCount(b, loc, arith::AndIOp::create(b, loc, peers,
                                                          lanesBefore));
    Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         before, zero);
    storeIf(b, loc, leader, arith::AddIOp::create(b, loc, prefix, count),
            counters, counter);
    warpSync(b, loc, op, kWarpThreads);
    counterOf.push_back(counter);
    ranks.push_back(arith::AddIOp::create(b, loc, prefix, before));
  }
  gpu::BarrierOp::create(b, loc);

  SmallVector<Value> grid;
  Value sum;
  for (int64_t j = 0; j < segment; ++j) {
    grid.push_back(memref::LoadOp::create(b, loc, counters, ix.add(first, j)));
    sum = sum ? arith::AddIOp::create(b, loc, sum, grid.back()).getResult()
              : grid.back();
  }
  FailureOr<GroupSum> scanned = groupExclusiveSum(
      b, loc, tile, t.linearTid, t.rank, sum, sm,
      [&]() -> FailureOr<Value> {
        return scratchView(rewriter, op, layout.warps(), i32t,
                           layout.gridWords() * 4);
      });
  if (failed(scanned))
    return failure();
  Value running = scanned->before;
  for (int64_t j = 0; j < segment; ++j) {
    memref::StoreOp::create(b, loc, running, counters, ix.add(first, j));
    running = arith::AddIOp::create(b, loc, running, grid[j]);
  }
  gpu::BarrierOp::create(b, loc);

  for (auto [rank, counter] : llvm::zip(ranks, counterOf))
    rank = arith::AddIOp::create(
        b, loc, rank, memref::LoadOp::create(b, loc, counters, counter));
  // The warp's region is its own: back to blocked order by a warp barrier.
  for (auto [i, rank] : llvm::enumerate(ranks))
    memref::StoreOp::create(b, loc, rank, counters, stripedSlot(i));
  warpSync(b, loc, op, kWarpThreads);
  SmallVector<Value> blocked;
  for (int64_t i = 0; i < n; ++i)
    blocked.push_back(memref::LoadOp::create(b, loc, counters, blockedSlot(i)));
  return blocked;
}

} // namespace

FailureOr<SortedTile>
lowering::sortOrderedKeys(RewriterBase &rewriter, Location loc, Operation *op,
                          const TileGeometry &tile, const TileThreads &t,
                          const RadixSortSpec &spec, ArrayRef<Value> keys,
                          ArrayRef<Value> values) {
  Ix ix{rewriter, loc};
  int64_t n = tile.itemsPerThread;
  RadixCounters counters{spec.radixBits, tile.blockSize};
  auto bits = cast<IntegerType>(keys.front().getType());
  KeyBits keyBits(bits, /*isUnsigned=*/true);
  keyBits.isFloat = spec.floatKeys;
  RadixSortScratch plan =
      radixSortScratch(tile, spec.valueType, spec.radixBits);
  ScratchLayout exchange =
      cubExchangeLayout(tile, /*timeSliced=*/false, /*padPositions=*/true);
  FailureOr<CounterViews> views = counterViews(rewriter, op, counters);
  FailureOr<Value> keySlots =
      scratchView(rewriter, op, exchange.elements, bits);
  FailureOr<Value> valueSlots =
      spec.valueType ? scratchView(rewriter, op, exchange.elements,
                                   spec.valueType, plan.valuesOffset)
                     : FailureOr<Value>(Value());
  if (failed(views) || failed(keySlots) || failed(valueSlots))
    return failure();
  IndexFn blocked = blockedPositions(ix, tile, t.rank);
  IndexFn striped = stripedPositions(ix, tile, t.rank);

  SmallVector<Value> carried(keys);
  carried.append(values.begin(), values.end());
  Value begin = spec.beginBit;
  Value end = spec.endBit;
  int64_t radixBits = spec.radixBits;
  // At least one pass, as CUB's loop: an empty range still synchronizes
  // (the op promises an internal barrier) and stripes the result, by a pass
  // of 0 bits (every digit 0: a stable identity).
  std::optional<int64_t> constantBegin = getConstantIntValue(begin);
  std::optional<int64_t> constantEnd = getConstantIntValue(end);
  Value last =
      constantBegin && constantEnd
          ? i32(rewriter, loc, std::max(*constantEnd, *constantBegin + 1))
          : arith::MaxSIOp::create(
                rewriter, loc, end,
                arith::AddIOp::create(rewriter, loc, begin,
                                      i32(rewriter, loc, 1)))
                .getResult();
  auto passes = scf::ForOp::create(rewriter, loc, begin, last,
                                   i32(rewriter, loc, radixBits), carried);
  rewriter.setInsertionPointToStart(passes.getBody());
  Ix in{rewriter, loc};
  Value bit = passes.getInductionVar();
  ValueRange args = passes.getRegionIterArgs();
  SmallVector<Value> passKeys(args.take_front(n));
  SmallVector<Value> passValues(args.drop_front(n));

  // The scratch of the pass before is read until its last barrier.
  Value later = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      bit, begin);
  auto sync = scf::IfOp::create(rewriter, loc, later, /*withElseRegion=*/false);
  {
    OpBuilder then = thenBuilder(rewriter, sync);
    gpu::BarrierOp::create(then, loc);
  }

  Value left = arith::SubIOp::create(rewriter, loc, end, bit);
  Value passBits = arith::MaxSIOp::create(
      rewriter, loc,
      arith::MinSIOp::create(rewriter, loc, left,
                             i32(rewriter, loc, radixBits)),
      i32(rewriter, loc, 0));
  Value mask = arith::SubIOp::create(
      rewriter, loc,
      arith::ShLIOp::create(rewriter, loc, i32(rewriter, loc, 1), passBits),
      i32(rewriter, loc, 1));
  SmallVector<Value> digits;
  for (Value key : passKeys)
    digits.push_back(keyBits.digit(rewriter, loc, key, bit, mask));
  FailureOr<SmallVector<Value>> ranks =
      rankDigits(rewriter, loc, tile, t, counters, *views, digits,
                 spec.descending, spec.sm);
  if (failed(ranks))
    return failure();
  gpu::BarrierOp::create(rewriter, loc);

  SmallVector<Value> scatter, gather;
  for (Value rank : *ranks)
    scatter.push_back(in.pad(asIndex(rewriter, loc, rank), exchange.padding));
  Value lastPass;
  if (spec.blockedToStriped)
    lastPass = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                                     left, i32(rewriter, loc, radixBits));
  for (int64_t i = 0; i < n; ++i) {
    Value slot = in.pad(blocked(i), exchange.padding);
    if (lastPass)
      slot = arith::SelectOp::create(
          rewriter, loc, lastPass, in.pad(striped(i), exchange.padding), slot);
    gather.push_back(slot);
  }
  auto barrier = [&](OpBuilder &b) { gpu::BarrierOp::create(b, loc); };
  SmallVector<Value> next;
  if (spec.valueType && plan.sideBySide) {
    for (auto [key, value, slot] : llvm::zip(passKeys, passValues, scatter)) {
      memref::StoreOp::create(rewriter, loc, key, *keySlots, slot);
      memref::StoreOp::create(rewriter, loc, value, *valueSlots, slot);
    }
    barrier(rewriter);
    for (Value slot : gather)
      next.push_back(memref::LoadOp::create(rewriter, loc, *keySlots, slot));
    for (Value slot : gather)
      next.push_back(memref::LoadOp::create(rewriter, loc, *valueSlots, slot));
  } else {
    next = exchangeThroughScratch(rewriter, loc, *keySlots, passKeys, scatter,
                                  gather, barrier);
    if (spec.valueType) {
      barrier(rewriter);
      next.append(exchangeThroughScratch(rewriter, loc, *valueSlots,
                                         passValues, scatter, gather,
                                         barrier));
    }
  }
  scf::YieldOp::create(rewriter, loc, next);
  rewriter.setInsertionPointAfter(passes);
  ValueRange sorted = passes.getResults();
  return SortedTile{SmallVector<Value>(sorted.take_front(n)),
                    SmallVector<Value>(sorted.drop_front(n))};
}

namespace {

struct RadixRankLowering : OpConversionPattern<RadixRankOp> {
  RadixRankLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(RadixRankOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t radixBits = op.getRadixBits();
    RadixCounters counters{radixBits, tile->blockSize};
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());
    KeyBits keyBits(op.getItemType(), op.getIsUnsigned());
    Value begin = i32(rewriter, loc, op.getBeginBit());
    Value mask = i32(rewriter, loc, counters.digits() - 1);
    SmallVector<Value> digits;
    for (Value key : readPayload(rewriter, loc, adaptor.getKeys(),
                                 tile->itemsPerThread))
      digits.push_back(keyBits.digit(
          rewriter, loc, keyBits.toOrdered(rewriter, loc, key), begin, mask));
    bool descending = op.getDescending();
    bool byMatch = op.getAlgorithm() == RadixRankAlgorithm::match;
    RadixMatchCounters matchLayout{radixBits, tile->blockSize,
                                   tile->itemsPerThread};
    FailureOr<SmallVector<Value>> ranks;
    // Bin b's count of the keys before it, from its counter (the digit
    // flipped as ranked) after the scan.
    std::function<Value(Value)> prefixOf;
    if (byMatch) {
      FailureOr<Value> words = scratchView(
          rewriter, op, matchLayout.bytes() / 4, rewriter.getI32Type());
      if (failed(words))
        return failure();
      ranks = rankDigitsByMatch(rewriter, loc, op, *tile, t, matchLayout,
                                *words, digits, descending, sm);
      prefixOf = [&, words = *words](Value digit) -> Value {
        Ix ix{rewriter, loc};
        return memref::LoadOp::create(
            rewriter, loc, words,
            ix.mul(asIndex(rewriter, loc, digit), matchLayout.paddedWarps()));
      };
    } else {
      FailureOr<CounterViews> views = counterViews(rewriter, op, counters);
      if (failed(views))
        return failure();
      ranks = rankDigits(rewriter, loc, *tile, t, counters, *views, digits,
                         descending, sm);
      prefixOf = [&, halves = views->halves](Value digit) -> Value {
        Ix ix{rewriter, loc};
        Value slot = counterIndex(rewriter, loc, counters, digit, ix.c(0),
                                  /*descending=*/false);
        return arith::ExtUIOp::create(
            rewriter, loc, rewriter.getI32Type(),
            memref::LoadOp::create(rewriter, loc, halves, slot));
      };
    }
    if (failed(ranks))
      return failure();
    writePayload(rewriter, loc, adaptor.getRanks(), *ranks);

    if (Value out = adaptor.getDigitPrefix()) {
      // Bin t*P + i's count of the keys before it: its counter in thread
      // 0's column after the scan (the digit flipped as ranked).
      Ix ix{rewriter, loc};
      int64_t perThread = cast<MemRefType>(out.getType()).getDimSize(0);
      int64_t bins = counters.digits();
      Value zero = i32(rewriter, loc, 0);
      Value firstBin = ix.mul(t.linearTid, counters.binsPerThread());
      SmallVector<Value> prefixes;
      for (int64_t i = 0; i < perThread; ++i) {
        if (i >= counters.binsPerThread()) {
          prefixes.push_back(zero);
          continue;
        }
        Value bin = ix.add(firstBin, i);
        bool guarded = tile->blockSize * counters.binsPerThread() != bins;
        Value inside = guarded ? ix.lt(bin, bins) : Value();
        if (guarded)
          bin = arith::MinUIOp::create(rewriter, loc, bin, ix.c(bins - 1));
        Value digit = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(), bin);
        if (descending)
          digit = arith::SubIOp::create(rewriter, loc,
                                        i32(rewriter, loc, bins - 1), digit);
        Value prefix = prefixOf(digit);
        prefixes.push_back(
            inside ? arith::SelectOp::create(rewriter, loc, inside, prefix, zero)
                         .getResult()
                   : prefix);
      }
      writePayload(rewriter, loc, out, prefixes);
    }
    rewriter.eraseOp(op);
    return success();
  }

  unsigned sm;
};

struct RadixSortLowering : OpConversionPattern<RadixSortOp> {
  RadixSortLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(RadixSortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t n = tile->itemsPerThread;
    KeyBits keyBits(op.getItemType(), op.getIsUnsigned());
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());
    IndexFn blocked = blockedPositions(ix, *tile, t.rank);

    SmallVector<Value> keys;
    for (Value key : readPayload(rewriter, loc, adaptor.getKeys(), n))
      keys.push_back(keyBits.toOrdered(rewriter, loc, key));
    if (Value valid = adaptor.getValidItems()) {
      // Keys past valid_items take the last digit in every pass: stable
      // ranking keeps them after every valid key.
      Value fill = keyBits.c(rewriter, loc,
                             op.getDescending()
                                 ? APInt::getZero(keyBits.width())
                                 : APInt::getAllOnes(keyBits.width()));
      Value count =
          clampedCount(rewriter, loc, valid, tile->blockSize * n);
      for (auto [i, key] : llvm::enumerate(keys)) {
        Value position = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(), blocked(i));
        Value inside = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, position, count);
        key = arith::SelectOp::create(rewriter, loc, inside, key, fill);
      }
    }
    Type valueType = op.getValueType();
    SmallVector<Value> values;
    if (Value given = adaptor.getValues())
      values = readPayload(rewriter, loc, given, n);
    else if (valueType)
      for (int64_t i = 0; i < n; ++i)
        values.push_back(arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(), blocked(i)));

    // A runtime bound past the key is clamped to its width: a digit's shift
    // by the width or more would be undefined.
    auto bit = [&](Value given, int64_t otherwise) -> Value {
      if (!given)
        return i32(rewriter, loc, otherwise);
      Value index = arith::MinUIOp::create(rewriter, loc, given,
                                           ix.c(keyBits.width()));
      return arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                          index);
    };
    RadixSortSpec spec{static_cast<int64_t>(op.getRadixBits()),
                       keyBits.isFloat,
                       valueType,
                       op.getDescending(),
                       op.getBlockedToStriped(),
                       bit(adaptor.getBeginBit(), 0),
                       bit(adaptor.getEndBit(), keyBits.width()),
                       sm};
    FailureOr<SortedTile> sorted =
        sortOrderedKeys(rewriter, loc, op, *tile, t, spec, keys, values);
    if (failed(sorted))
      return failure();
    SmallVector<Value> outKeys;
    for (Value bits : sorted->keys)
      outKeys.push_back(keyBits.fromOrdered(rewriter, loc, bits));
    writePayload(rewriter, loc, adaptor.getOutput(), outKeys);
    if (valueType)
      writePayload(rewriter, loc, adaptor.getValuesOutput(), sorted->values);
    rewriter.eraseOp(op);
    return success();
  }

  unsigned sm;
};

} // namespace

void lowering::populateRadixPatterns(RewritePatternSet &patterns,
                                     unsigned sm) {
  patterns.add<RadixRankLowering, RadixSortLowering>(patterns.getContext(),
                                                     sm);
}
