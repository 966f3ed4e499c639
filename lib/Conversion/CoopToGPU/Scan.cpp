//===- Scan.cpp - coop.scan as CUB's scans --------------------------------===//
//
// Each thread folds its own items, the group scans the threads' partials
// exclusively, and each thread scans its items seeded with its prefix
// (CUB's ThreadScan). Warps scan by up-shuffles (WarpScanShfl); blocks
// follow BlockScanAlgorithm: warp scans and the warps' aggregates through
// scratch, or a raking grid that the first warp scans. A block prefix
// callback (`prefix = @f(%state)`) is called by the block's first thread
// with the tile's aggregate, and its result seeds the block's scan.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// Whether `op` is in a site function lowered alone for a host to inline.
bool inlinedSite(Operation *op) {
  auto function = op->getParentOfType<func::FuncOp>();
  return function && function->hasAttr(kInlinedSiteAttr);
}

/// The group-wide exclusive prefix of a thread's partial and the group's
/// aggregate (without the initial value: CUB's block aggregate). The
/// aggregate only where it is asked for: a shuffle's result nobody reads is
/// still a shuffle in the PTX, and where ptxas drops it its divergence check
/// and warp sync stay in the SASS. Warp scans also give the inclusive scan
/// of the partials (with a callback's prefix), which a thread of one item
/// takes as its result, as CUB's InclusiveScan does: no exclusive shuffle,
/// and CUB's additions for floats.
struct GroupScan {
  MaybeValue prefix;
  Value aggregate;
  Value inclusive;
};

Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// CUB's block prefix callback: `function(state, tile aggregate) -> prefix`,
/// or `function(tile aggregate) -> prefix` without a state.
struct PrefixCallback {
  FlatSymbolRefAttr function;
  Value state;
  Type item;

  explicit operator bool() const { return bool(function); }

  /// The prefix where `caller` holds (the callback runs in that thread
  /// alone, once per op); `aggregate` elsewhere.
  Value call(OpBuilder &b, Location loc, Value caller, Value aggregate) const {
    return valueIf(b, loc, caller, aggregate, [&](OpBuilder &in) {
      SmallVector<Value, 2> operands;
      if (state)
        operands.push_back(state);
      operands.push_back(aggregate);
      return func::CallOp::create(in, loc, function, TypeRange{item}, operands)
          .getResult(0);
    });
  }
};

/// WarpScanShfl over groups of `width` lanes: the inclusive scan, the lane
/// before's value as the exclusive prefix (unless `direct`: the inclusive
/// scan is the result), the last lane's as the aggregate (if `aggregate`).
GroupScan warpScan(OpBuilder &b, Location loc, const Combiner &combiner,
                   Value partial, Value laneInGroup, Value lane, int64_t width,
                   int64_t lanes, Value mask, bool aggregate,
                   ScanSteps steps = ScanSteps::fused, bool direct = false) {
  Ix ix{b, loc};
  Value inclusive = warpInclusiveScan(b, loc, combiner, partial, laneInGroup,
                                      width, mask, steps);
  Value before = direct ? Value()
                        : warpExclusiveFromInclusive(b, loc, combiner,
                                                     inclusive, partial, mask);
  Value total;
  if (aggregate) {
    Value last = ix.add(arith::SubIOp::create(b, loc, lane, laneInGroup),
                        lanes - 1);
    total = shuffle(b, loc, NVVM::ShflKind::idx, inclusive, last, mask);
  }
  if (direct)
    return {{}, total, inclusive};
  return {{before, exclusiveIsIdentityInFirstLane(combiner)
                       ? Value()
                       : ix.ge(laneInGroup, 1)},
          total, inclusive};
}

/// A partial warp scan's aggregate (CUB's `*ScanPartial` warp_aggregate):
/// the inclusive scan at the last valid item, which the thread holding it
/// computes from its prefix and its items, and every lane of the group reads
/// by one shuffle. `valid` is clamped into [1, the group's tile].
Value validAggregate(OpBuilder &b, Location loc, const Combiner &combiner,
                     ArrayRef<Value> items, const GroupScan &scan, bool direct,
                     Value valid, int64_t groupSize, Value lane, Value rank,
                     Value mask) {
  Ix ix{b, loc};
  int64_t n = items.size();
  SmallVector<Value> inclusive =
      direct ? SmallVector<Value>{scan.inclusive}
             : threadScan(b, loc, combiner, items, scan.prefix, true);
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, valid, ix.c(valid, 1)),
      ix.c(valid, groupSize * n));
  Value last = ix.sub(clamped, 1);
  Value item = ix.rem(last, n);
  Value mine = inclusive.front();
  for (int64_t i = 1; i < n; ++i)
    mine = arith::SelectOp::create(b, loc, ix.eq(item, i), inclusive[i], mine);
  Value source = ix.add(arith::SubIOp::create(b, loc, lane, rank),
                        ix.div(last, n));
  return shuffle(b, loc, NVVM::ShflKind::idx, mine, source, mask);
}

struct ScanLowering : OpConversionPattern<ScanOp> {
  ScanLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    Combiner combiner = getCombiner(op);
    int64_t n = op.getItemsPerThread();
    bool payload = isa<MemRefType>(adaptor.getInput().getType());
    SmallVector<Value> items =
        payload ? readPayload(rewriter, loc, adaptor.getInput(), n)
                : SmallVector<Value>{adaptor.getInput()};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    Value ltid = linearThreadId(rewriter, loc, op);
    Value partial = threadReduce(rewriter, loc, combiner, items, sm);
    // Named operators seed exclusive scans and raking with their identity:
    // an exclusive scan's first item is then defined (0 for sums), and no
    // select guards the first thread. Warp scans' inclusive results take no
    // seed, as CUB applies no prefix to the first thread (for floats, 0 + x
    // is an addition the compiler cannot remove). A callback's prefix seeds
    // the block's scan instead.
    Value initial = adaptor.getInitialValue();
    PrefixCallback callback{op.getPrefixCallbackAttr(),
                            adaptor.getPrefixState(), op.getItemType()};
    // The group's aggregate: for the op's result or the callback's argument.
    bool withAggregate = op.getAggregate() || callback;
    bool byWarps = tile->warpLike ||
                   op.getBlockAlgorithm() == ScanAlgorithm::warp_scans;
    Value seed = initial;
    if (!initial && !callback && !(op.isInclusive() && byWarps))
      seed = combiner.identity(rewriter, loc);
    // One item, inclusive, no initial value, by warp scans: the group's
    // inclusive scan is the result.
    bool direct = n == 1 && op.isInclusive() && !initial && byWarps;

    GroupScan scan;
    Value valid = adaptor.getValidItems();
    if (tile->warpLike) {
      Value lane = ix.rem(ltid, kWarpThreads);
      Value rank = ix.rem(ltid, tile->groupSize);
      Value mask = i32Constant(rewriter, loc, -1);
      scan = warpScan(rewriter, loc, combiner, partial, rank, lane,
                      tile->groupSize, tile->groupSize, mask,
                      withAggregate && !valid, ScanSteps::fused, direct);
      if (valid && withAggregate)
        scan.aggregate =
            validAggregate(rewriter, loc, combiner, items, scan, direct,
                           valid, tile->groupSize, lane, rank, mask);
    } else {
      ScratchLayout layout = *op.getScratchLayout(*tile);
      FailureOr<Value> scratch = scratchSlice(rewriter, op, *tile, layout);
      if (failed(scratch))
        return failure();
      if (op.getBlockAlgorithm() == ScanAlgorithm::warp_scans)
        scan = warpScans(rewriter, loc, combiner, *tile, *scratch, ltid,
                         partial, direct ? Value() : seed, callback, direct,
                         withAggregate, sm, inlinedSite(op));
      else
        scan = raking(rewriter, loc, op, combiner, *tile, *scratch, ltid,
                      partial, seed, callback, withAggregate);
    }
    MaybeValue prefix = scan.prefix;
    Value aggregate = scan.aggregate;
    if (seed && tile->warpLike && !direct)
      prefix = prefix.seeded(rewriter, loc, combiner, seed);
    SmallVector<Value> scanned =
        direct ? SmallVector<Value>{scan.inclusive}
               : threadScan(rewriter, loc, combiner, items, prefix,
                            op.isInclusive());
    SmallVector<Value> results;
    if (payload)
      writePayload(rewriter, loc, adaptor.getOutput(), scanned);
    else
      results.push_back(scanned.front());
    if (op.getAggregate())
      results.push_back(aggregate);
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// BlockScanWarpScans: every warp scans; the last lane of each warp
  /// publishes the warp's aggregate; after one barrier every thread combines
  /// the aggregates of the warps before its own (CUB's ApplyWarpAggregates,
  /// unrolled over the warps) and of all of them. A callback's prefix
  /// reaches the other warps through one more slot and barrier (CUB's
  /// block_prefix); a single warp shuffles it. `direct`: only the
  /// inclusive scan (CUB's InclusiveScan of one item: the warp prefix
  /// combined with the warp's inclusive scan). `seed` (null where there is
  /// none) seeds every exclusive prefix. `aggregate`: the block's aggregate
  /// is wanted (else none is given).
  static GroupScan warpScans(OpBuilder &b, Location loc,
                             const Combiner &combiner, const TileGeometry &tile,
                             Value scratch, Value ltid, Value partial,
                             Value seed, const PrefixCallback &callback,
                             bool direct, bool aggregate, unsigned sm,
                             bool inlined) {
    Ix ix{b, loc};
    int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
    // The lane from %laneid, as CUB's LaneId(): ptxas then recomputes each
    // lane test from it, where from the rank's remainder it keeps them as
    // predicates saved to and restored from registers (float32
    // exclusive_max at 256x4: 30 -> 25 registers, 0.87 -> 0.95 of CUB's
    // loop). Not at 1024 threads: there %laneid is one register more beside
    // the rank, and past 32 registers a 1024-thread block has an SM alone
    // (float32 exclusive_sum 1024x1: 32 -> 33, 1.20 -> 1.00 of CUB).
    auto [warp, lane] = warpAndLane(b, loc, ltid, tile.blockSize < 1024);
    Value mask = activeLanes(b, loc, warp, tile.blockSize);
    int64_t lastWarpThreads = tile.blockSize - (warps - 1) * kWarpThreads;
    Value inclusive = warpInclusiveScan(b, loc, combiner, partial, lane,
                                        kWarpThreads, mask,
                                        ScanSteps::fusedFloat64);
    Value before =
        direct ? Value()
               : warpExclusiveFromInclusive(b, loc, combiner, inclusive,
                                            partial, mask);
    bool exact = exclusiveIsIdentityInFirstLane(combiner);
    Value laneHas = exact || direct ? Value() : ix.ge(lane, 1);
    if (warps == 1) {
      Value total;
      if (aggregate)
        total = shuffle(b, loc, NVVM::ShflKind::idx, inclusive,
                        ix.c(lastWarpThreads - 1), mask);
      MaybeValue prefix{before, laneHas};
      if (seed)
        prefix = prefix.seeded(b, loc, combiner, seed);
      if (callback) {
        Value blockPrefix = shuffle(b, loc, NVVM::ShflKind::idx,
                                    callback.call(b, loc, ix.eq(lane, 0),
                                                  total),
                                    ix.c(0), mask);
        if (direct)
          inclusive = combiner.combine(b, loc, blockPrefix, inclusive);
        else
          prefix = prefix.seeded(b, loc, combiner, blockPrefix);
      }
      return {prefix, total, inclusive};
    }
    Value isLast = isLastLaneOfWarp(b, loc, warp, lane, tile.blockSize);
    storeIf(b, loc, isLast, inclusive, scratch, ix.index(warp));
    gpu::BarrierOp::create(b, loc);
    // A one-redux.sync prefix (8- to 32-bit integers) beats CUB's fold from
    // two warps on (H200, int32 loops at 128 threads: exclusive_max 1.08 ->
    // 1.18 of CUB, with prefix_op 0.98 -> 1.03); the shuffled scan, and the
    // three reduxes of a 64-bit sum (int64 at 128 threads: 0.94-0.95 of CUB
    // against main's 1.02-1.06), only past four.
    bool redux = reducesByRedux(combiner, sm);
    bool oneRedux = redux && !combiner.type.isInteger(64);
    bool byWarp = (warps > 4 || oneRedux) &&
                  lastWarpThreads == kWarpThreads && combiner.kind &&
                  isa<IntegerType>(combiner.type);
    // Sixteen 64-bit aggregates: ptxas reads them by LDS.128, three in
    // flight (12 registers) beside the thread's items, past the 32 registers
    // that keep 4 blocks of 512 threads on an SM (float64 inclusive_sum
    // 512x4 tile: 38 registers, 0.969 of CUB). Read one at a time, as CUB's
    // fold does, it takes 32 (1.034; the 512x8 loop 44 -> 40, 1.047 ->
    // 1.109). Not at 32 warps, where the chain of dependent reads is twice
    // as long (float64 exclusive_sum 1024x4 loop 1.030 -> 0.934), nor at 8
    // or fewer (128- and 256-thread loops 0.95-0.97 of main's speed).
    // A site inlined into a kernel we don't see reads them in order at 32
    // warps too: there ptxas may read all 31 ahead (the CuTe DSL float64
    // inclusive_sum 1024x4 tile: 62 registers, one block an SM, 0.74 of
    // CUB) where the kernel's loop is unknown.
    bool ordered = (warps == 16 || (warps == 32 && inlined)) &&
                   combiner.type.isIntOrFloat() &&
                   combiner.type.getIntOrFloatBitWidth() == 64;
    auto [warpPrefix, total] =
        byWarp ? scanWarpAggregatesByWarp(b, loc, combiner, scratch, warp,
                                          lane, warps, aggregate, sm)
               : combineWarpAggregates(b, loc, combiner, scratch, warp, warps,
                                       /*opaqueWarp=*/bool(callback), ordered);
    // A masked reduction gives warp 0 the identity as its prefix, exact
    // for the integer operators redux.sync has: no warp takes a select.
    Value warpHas = byWarp && redux ? Value() : Value(ix.ge(warp, 1));
    auto afterWarps = [&](Value combined, Value otherwise) -> Value {
      return warpHas ? arith::SelectOp::create(b, loc, warpHas, combined,
                                               otherwise)
                     : combined;
    };
    // CUB's ComputeWarpPrefix with an initial value: the seed joins the
    // warp's prefix (warp 0's is the seed alone), then the lanes' prefix
    // joins that. Seeding the lanes' prefix after the warps' selects twice
    // more (float64 exclusive_sum at 256x4: 91 -> 84 instructions an
    // iteration, CUB's count; 0.946 -> 1.006 of CUB's loop). Not where a
    // thread selects its warp's prefix among more than 8 aggregates of 32
    // bits or fewer, a predicate each, live across a kernel's loop: ptxas
    // then keeps them in more registers (float32 exclusive_sum 512x4: 35 ->
    // 44, 0.996 -> 0.933 of CUB; 1024x1: 32 -> 33, 1.20 -> 1.02). 64-bit
    // aggregates gain there too (float64 exclusive_sum 1024x1 0.968 ->
    // 0.982, 512x4 1.028 -> 1.061; measured on the H200).
    bool wide = combiner.type.isIntOrFloat() &&
                combiner.type.getIntOrFloatBitWidth() > 32;
    bool seedWarpPrefix = seed && (byWarp || warps <= 8 || wide);
    MaybeValue prefix;
    if (direct) {
      inclusive = afterWarps(combiner.combine(b, loc, warpPrefix, inclusive),
                             inclusive);
    } else if (seedWarpPrefix) {
      Value warpSeed =
          afterWarps(combiner.combine(b, loc, seed, warpPrefix), seed);
      Value combined = combiner.combine(b, loc, warpSeed, before);
      prefix = {exact ? combined
                      : arith::SelectOp::create(b, loc, laneHas, combined,
                                                warpSeed),
                Value()};
    } else {
      Value withWarp =
          afterWarps(combiner.combine(b, loc, warpPrefix, before), before);
      // A lane's prefix from the warps before and the lanes before; the
      // first lane of warp 0 has none (the identity, where the lanes' is
      // exact, or where the warps' is).
      if (exact) {
        prefix = {withWarp, Value()};
      } else {
        prefix.value = arith::SelectOp::create(b, loc, laneHas, withWarp,
                                               warpPrefix);
        if (warpHas)
          prefix.present = arith::OrIOp::create(b, loc, laneHas, warpHas);
      }
      if (seed)
        prefix = prefix.seeded(b, loc, combiner, seed);
    }
    if (callback) {
      Value first = ix.eq(ltid, 0);
      storeIf(b, loc, first, callback.call(b, loc, first, total), scratch,
              ix.c(warps));
      gpu::BarrierOp::create(b, loc);
      Value blockPrefix = memref::LoadOp::create(b, loc, scratch, ix.c(warps));
      if (direct)
        inclusive = combiner.combine(b, loc, blockPrefix, inclusive);
      else
        prefix = prefix.seeded(b, loc, combiner, blockPrefix);
    }
    return {prefix, total, inclusive};
  }

  /// CUB's ApplyWarpAggregates, unrolled over the warps: every thread reads
  /// every aggregate, folds them in warp order and selects those before its
  /// warp. (warp prefix, block aggregate); warp 0's prefix is unspecified.
  /// `opaqueWarp`: the selects' compares read an opaque copy of `warp`.
  /// `ordered`: the aggregates are read one at a time, in warp order, each
  /// by `ld.volatile.shared` in a volatile asm: the asm stays below the
  /// barrier before it, and ptxas neither merges the reads nor reorders
  /// them.
  static std::pair<Value, Value> combineWarpAggregates(
      OpBuilder &b, Location loc, const Combiner &combiner, Value scratch,
      Value warp, int64_t warps, bool opaqueWarp, bool ordered) {
    Ix ix{b, loc};
    if (opaqueWarp && warps > 2)
      warp = opaqueCopy(b, loc, warp);
    auto read = [&](int64_t w) {
      if (!ordered)
        return Value(memref::LoadOp::create(b, loc, scratch, ix.c(w)));
      return loadByPtx(b, loc, combiner.type,
                       itemAddress(b, loc, scratch, ix.c(w)), 1,
                       "ld.volatile.shared", /*isVolatile=*/true)
          .front();
    };
    Value total = read(0);
    Value warpPrefix = total;
    for (int64_t w = 1; w < warps; ++w) {
      if (w > 1)
        warpPrefix =
            arith::SelectOp::create(b, loc, ix.eq(warp, w), total, warpPrefix);
      total = combiner.combine(b, loc, total, read(w));
    }
    return {warpPrefix, total};
  }

  /// `value` (an i32) through a volatile asm where it is built, so that
  /// what is computed from it stays below that point. A prefix callback's
  /// scan folds the warp aggregates with `warp == w` compares that are
  /// loop-invariant in a kernel's loop: LICM hoists them and CodeGenPrepare
  /// sinks them back to the top of the loop's block, above the warp scan's
  /// shuffles, with their predicates live across the scan (the callback's
  /// branch ends that block). From a copy made after the barrier they stay
  /// beside their selects: H200, float32 prefix scans at 1024x4, 43 -> 28
  /// registers and 0.79 -> 1.08 of CUB's speed; 256x8 0.90 -> 0.98, float64
  /// 256x4/256x8 0.89-0.90 -> 0.93-0.94. Without a callback the copy
  /// measured slower (float32 512x4 scans 1.15-1.18 -> 0.97-1.00 of CUB, 30
  /// -> 35 registers), so those scans keep the plain warp number.
  static Value opaqueCopy(OpBuilder &b, Location loc, Value value) {
    return inlinePtx(b, loc, value.getType(), ValueRange{value},
                     "mov.b32 $0, $1;", "=r,r", /*isVolatile=*/true);
  }

  /// Whether a raking thread's segment, kept for the downsweep, would take
  /// 16 registers or more (4-byte items from 512 threads on, 8-byte from
  /// 256). Kept (by CUB's raking_memoize, or forwarded by nvcc for CUB's
  /// raking), 8-byte items at 1024 threads spill, and
  /// the others cost the registers that decide how many blocks an SM holds
  /// (4-byte items at 1024x4: 47-64 registers kept, 32 read again, two
  /// blocks an SM instead of one, 1.3-1.7x CUB's speed on the H200). Below
  /// 16 registers the kernels fit in 32 registers already and a reload
  /// would only lengthen the scan.
  static bool segmentOutgrowsRegisters(const RakingLayout &grid,
                                       const Combiner &combiner) {
    constexpr int64_t kSegmentRegisterBytes = 16 * 4;
    return combiner.type.isIntOrFloat() &&
           grid.segment * combiner.type.getIntOrFloatBitWidth() / 8 >=
               kSegmentRegisterBytes;
  }

  /// An empty asm that may touch memory: the compiler cannot forward the
  /// upsweep's loads of the segment past it, so raking's downsweep reads
  /// the segment again, as the algorithm says.
  static void forbidLoadForwarding(OpBuilder &b, Location loc) {
    inlinePtx(b, loc, Type(), ValueRange{}, "", "~{memory}",
              /*isVolatile=*/true);
  }

  /// BlockScanRaking: every thread places its partial in the raking grid;
  /// the raking threads of the first warp reduce their segments (upsweep),
  /// scan the segment totals by shuffles (seeded by `seed`, or by the
  /// prefix the callback returns for the segments' aggregate), and write
  /// each slot's exclusive prefix back (downsweep); after a second barrier
  /// each thread reads its prefix. raking and raking_memoize lower alike
  /// (`keep` below): CUB's raking_memoize keeps every segment, and from 16
  /// registers on spills or holds fewer blocks an SM.
  static GroupScan raking(OpBuilder &b, Location loc, ScanOp op,
                          const Combiner &combiner, const TileGeometry &tile,
                          Value scratch, Value ltid, Value partial, Value seed,
                          const PrefixCallback &callback, bool withAggregate) {
    Ix ix{b, loc};
    RakingLayout grid(tile.blockSize);
    bool outgrows = segmentOutgrowsRegisters(grid, combiner);
    // An int32 sum whose segment takes under 16 registers, and a 32- or
    // 64-bit integer sum whose segment and items take at most 20, keeps its
    // segment for the downsweep and scans the
    // segment totals with CUB's fused steps (2 instructions a step, the
    // select form 3), whose volatile asm would stop the compiler forwarding
    // the upsweep's loads. Those kernels stay in 32 registers. H200 loops
    // against CUB: int32 256x8 exclusive_sum 0.91 -> 0.96, with prefix_op
    // 0.90 -> 0.97; int32 512x4 (a segment of 16, as CUB's raking_memoize
    // keeps it) 0.935 -> 0.975, 108 -> 86 instructions an iteration; int64
    // 256x1 0.95 -> 0.99. Beside 8 items, or a segment of 32, int32 took
    // 36-54 registers. Other scans read the segment again with select steps
    // and leave the forwarding to the compiler: float32 sums with fused
    // steps beside a kept segment took 40 registers (256x8 with prefix_op,
    // 0.92 of CUB; with select steps 32, 0.97).
    bool keep = false;
    if (combiner.kind == BinaryOp::sum && isa<IntegerType>(combiner.type)) {
      int64_t words = combiner.type.getIntOrFloatBitWidth() / 32;
      keep = (words == 1 && !outgrows) ||
             ((words == 1 || words == 2) &&
              (grid.segment + op.getItemsPerThread()) * words <= 20);
    }
    Value slot = ltid;
    if (grid.padded)
      slot = ix.add(ltid, ix.div(ltid, grid.segment));
    memref::StoreOp::create(b, loc, partial, scratch, slot);
    gpu::BarrierOp::create(b, loc);

    auto rake = scf::IfOp::create(b, loc, TypeRange{},
                                  ix.lt(ltid, grid.rakingThreads), false);
    {
      OpBuilder at = thenBuilder(b, rake);
      Ix ax{at, loc};
      Value first = ax.mul(ltid, grid.segment);
      Value start = ax.mul(ltid, grid.segment + grid.padded);
      auto inTile = [&](int64_t j) -> Value {
        if (grid.unguarded())
          return {};
        return ax.lt(ax.add(first, j), tile.blockSize);
      };
      SmallVector<Value> segment;
      Value total;
      for (int64_t j = 0; j < grid.segment; ++j) {
        Value item = memref::LoadOp::create(at, loc, scratch, ax.add(start, j));
        if (keep)
          segment.push_back(item);
        if (j == 0) {
          total = item;
          continue;
        }
        Value combined = combiner.combine(at, loc, total, item);
        Value guard = inTile(j);
        total = guard ? Value(arith::SelectOp::create(at, loc, guard, combined,
                                                      total))
                      : combined;
      }
      int64_t width = llvm::PowerOf2Ceil(grid.rakingThreads);
      Value mask = i32Constant(at, loc,
                               grid.rakingThreads == kWarpThreads
                                   ? -1
                                   : (1ll << grid.rakingThreads) - 1);
      ScanSteps steps = keep ? ScanSteps::fused : ScanSteps::select;
      GroupScan segments =
          warpScan(at, loc, combiner, total, ltid, ltid, width,
                   grid.rakingThreads, mask, withAggregate, steps);
      Value rakeSeed = seed;
      if (callback)
        rakeSeed = shuffle(at, loc, NVVM::ShflKind::idx,
                           callback.call(at, loc, ax.eq(ltid, 0),
                                         segments.aggregate),
                           ax.c(0), mask);
      MaybeValue running = segments.prefix;
      if (rakeSeed)
        running = running.seeded(at, loc, combiner, rakeSeed);
      if (outgrows && !keep)
        forbidLoadForwarding(at, loc);
      for (int64_t j = 0; j < grid.segment; ++j) {
        Value item = keep ? segment[j]
                          : Value(memref::LoadOp::create(at, loc, scratch,
                                                         ax.add(start, j)));
        // Raking thread 0 without an initial value has no prefix: its first
        // slot holds an unspecified value that thread 0 never uses.
        memref::StoreOp::create(at, loc, running.value, scratch,
                                ax.add(start, j));
        running = {running.combineBefore(at, loc, combiner, item), Value()};
      }
      if (op.getAggregate())
        storeIf(at, loc, ax.eq(ltid, 0), segments.aggregate, scratch,
                ax.c(grid.gridElements()));
    }
    gpu::BarrierOp::create(b, loc);
    Value prefix = memref::LoadOp::create(b, loc, scratch, slot);
    Value aggregate;
    if (op.getAggregate())
      aggregate =
          memref::LoadOp::create(b, loc, scratch, ix.c(grid.gridElements()));
    return {{prefix, seed || callback ? Value() : ix.ge(ltid, 1)},
            aggregate};
  }

  unsigned sm;
};

} // namespace

void lowering::populateScanPatterns(RewritePatternSet &patterns,
                                    unsigned sm) {
  patterns.add<ScanLowering>(patterns.getContext(), sm);
}
