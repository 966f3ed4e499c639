//===- Exchange.cpp - coop.exchange through shared scratch ----------------===//
//
// CUB's BlockExchange and WarpExchange (shared-memory algorithm): every
// thread stores its items at the slots of the input layout, the group
// synchronizes, every thread loads its items from the slots of the output
// layout. Scatter modes store at the given ranks. Time slicing (blocks)
// moves one warp's worth of the tile through scratch at a time.
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

bool toBlocked(ExchangeMode mode) {
  return mode == ExchangeMode::striped_to_blocked ||
         mode == ExchangeMode::warp_striped_to_blocked ||
         mode == ExchangeMode::scatter_to_blocked;
}

/// Per item: does the thread store it (guarded and flagged scatters).
SmallVector<Value> scatterGuards(Ix ix, ExchangeOp op, ArrayRef<Value> ranks,
                                 ArrayRef<Value> flags) {
  SmallVector<Value> guards;
  if (op.getMode() == ExchangeMode::scatter_to_striped_guarded) {
    for (Value rank : ranks) {
      Value zero = arith::ConstantIntOp::create(ix.b, ix.loc, rank.getType(), 0);
      guards.push_back(arith::CmpIOp::create(
          ix.b, ix.loc, arith::CmpIPredicate::sge, rank, zero));
    }
  } else if (op.getMode() == ExchangeMode::scatter_to_striped_flagged) {
    for (Value flag : flags) {
      Value zero = arith::ConstantIntOp::create(ix.b, ix.loc, flag.getType(), 0);
      guards.push_back(arith::CmpIOp::create(
          ix.b, ix.loc, arith::CmpIPredicate::ne, flag, zero));
    }
  }
  return guards;
}

/// Whether it is warp `turn`'s turn in a time-sliced block exchange (the
/// thread of block rank `rank`), as a vote over the warp. The vote's result
/// is uniform across the warp, and ptxas then branches around a turn of 8
/// shared accesses (8 items a thread). On a plain compare it predicated
/// them, so every warp issued every turn's accesses: the 256x8 time-sliced
/// exchange loop ran at 0.44 of CUB on the H200, its L1 pipe 94 % busy
/// against CUB's 55 % (1.06 of CUB with the vote). The block is whole warps
/// (the verifier's rule for time slicing), so all 32 lanes vote.
Value warpTurn(OpBuilder &b, Location loc, Value rank, int64_t turn) {
  Value warp = warpAndLane(b, loc, rank).warp;
  Value isTurn = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, warp,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), turn));
  Value allLanes = arith::ConstantIntOp::create(b, loc, b.getI32Type(), -1);
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), allLanes, isTurn,
                                  NVVM::VoteSyncKind::any);
}

/// CUB's time-sliced StripedToBlocked, BlockedToStriped, ScatterToBlocked
/// and ScatterToStriped: in turn s, the items whose tile position falls in
/// slice s (32 * ipt positions) go through scratch; warp s gathers its
/// blocked items, or every thread gathers its striped items of the slice.
SmallVector<Value> timeSlicedBlockExchange(OpBuilder &b, Location loc,
                                           ExchangeOp op, Value scratch,
                                           const TileGeometry &tile,
                                           const ScratchLayout &layout,
                                           const TileThreads &t,
                                           ArrayRef<Value> items,
                                           ArrayRef<Value> ranks) {
  Ix ix{b, loc};
  int64_t n = tile.itemsPerThread, blockSize = tile.blockSize;
  int64_t sliceItems = kWarpThreads * n;
  Value lane = ix.rem(t.rank, kWarpThreads);
  bool blockedOut = toBlocked(op.getMode());
  IndexFn striped = stripedPositions(ix, tile, t.rank);
  // Whether strip i lies wholly in the slice [first, last): then every
  // thread's item i is in it, and needs no guard.
  auto stripInSlice = [&](int64_t i, int64_t first, int64_t last) {
    return i * blockSize >= first && (i + 1) * blockSize <= last;
  };
  // The scratch slot of tile position `position` in the slice at `first`.
  auto sliceSlot = [&](OpBuilder &at, Value position, int64_t first) {
    Ix ax{at, loc};
    return ax.pad(ax.sub(position, first), layout.padding);
  };
  SmallVector<Value> output(items);
  SmallVector<Type> types(n, tile.elementType);
  for (int64_t s = 0, slices = blockSize / kWarpThreads; s < slices; ++s) {
    int64_t first = s * sliceItems, last = first + sliceItems;
    if (s > 0)
      gpu::BarrierOp::create(b, loc);
    // Scatter the items that belong to this slice (all, without inSlice).
    for (int64_t i = 0; i < n; ++i) {
      Value position, inSlice;
      if (!ranks.empty()) {
        position = ix.index(ranks[i]);
        inSlice = ix.both(ix.ge(position, first), ix.lt(position, last));
      } else if (op.getMode() == ExchangeMode::blocked_to_striped) {
        continue; // stored below by warp s
      } else {
        // Strip i (positions [i*B, (i+1)*B)) may overlap the slice.
        if (i * blockSize >= last || (i + 1) * blockSize <= first)
          continue;
        position = striped(i);
        if (!stripInSlice(i, first, last))
          inSlice = ix.both(ix.ge(position, first), ix.lt(position, last));
      }
      if (!inSlice) {
        memref::StoreOp::create(b, loc, items[i], scratch,
                                sliceSlot(b, position, first));
        continue;
      }
      auto guard = scf::IfOp::create(b, loc, inSlice, /*withElseRegion=*/false);
      OpBuilder then = thenBuilder(b, guard);
      memref::StoreOp::create(then, loc, items[i], scratch,
                              sliceSlot(then, position, first));
    }
    if (op.getMode() == ExchangeMode::blocked_to_striped) {
      auto turn = scf::IfOp::create(b, loc, warpTurn(b, loc, t.rank, s), false);
      OpBuilder then = thenBuilder(b, turn);
      Ix tx{then, loc};
      for (int64_t i = 0; i < n; ++i)
        memref::StoreOp::create(
            then, loc, items[i], scratch,
            tx.pad(tx.add(tx.mul(lane, n), i), layout.padding));
    }
    gpu::BarrierOp::create(b, loc);
    // Gather this slice's items of the output layout.
    if (blockedOut) {
      auto turn =
          scf::IfOp::create(b, loc, types, warpTurn(b, loc, t.rank, s), true);
      OpBuilder then = thenBuilder(b, turn);
      Ix tx{then, loc};
      SmallVector<Value> loaded;
      for (int64_t i = 0; i < n; ++i)
        loaded.push_back(memref::LoadOp::create(
            then, loc, scratch,
            tx.pad(tx.add(tx.mul(lane, n), i), layout.padding)));
      scf::YieldOp::create(then, loc, ValueRange(loaded));
      OpBuilder otherwise = elseBuilder(b, turn);
      scf::YieldOp::create(otherwise, loc, ValueRange(output));
      output.assign(turn.getResults().begin(), turn.getResults().end());
      continue;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (i * blockSize >= last || (i + 1) * blockSize <= first)
        continue;
      Value position = striped(i);
      if (stripInSlice(i, first, last)) {
        output[i] = memref::LoadOp::create(b, loc, scratch,
                                           sliceSlot(b, position, first));
        continue;
      }
      Value inSlice = ix.both(ix.ge(position, first), ix.lt(position, last));
      auto guard = scf::IfOp::create(b, loc, tile.elementType, inSlice, true);
      OpBuilder then = thenBuilder(b, guard);
      scf::YieldOp::create(then, loc,
                           Value(memref::LoadOp::create(
                               then, loc, scratch,
                               sliceSlot(then, position, first))));
      OpBuilder otherwise = elseBuilder(b, guard);
      scf::YieldOp::create(otherwise, loc, output[i]);
      output[i] = guard.getResult(0);
    }
  }
  return output;
}

struct ExchangeLowering : OpConversionPattern<ExchangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExchangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    ScratchLayout layout = *op.getScratchLayout(*tile);
    FailureOr<Value> scratch = scratchSlice(rewriter, op, *tile, layout);
    if (failed(scratch))
      return failure();
    int64_t n = tile->itemsPerThread;
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());
    SmallVector<Value> items = readPayload(rewriter, loc, adaptor.getInput(), n);
    SmallVector<Value> ranks, flags;
    if (adaptor.getRanks())
      ranks = readPayload(rewriter, loc, adaptor.getRanks(), n);
    if (adaptor.getValidFlags())
      flags = readPayload(rewriter, loc, adaptor.getValidFlags(), n);

    ExchangeMode mode = op.getMode();
    ScratchAccess access = op.getScratchAccess(*tile);
    SmallVector<Value> result;
    if (op.getWarpTimeSlicing() &&
        (mode == ExchangeMode::warp_striped_to_blocked ||
         mode == ExchangeMode::blocked_to_warp_striped)) {
      result = timeSlicedWarpExchange(
          rewriter, loc, op, *scratch, *tile, layout, t, items,
          /*toBlocked=*/mode == ExchangeMode::warp_striped_to_blocked);
    } else if (op.getWarpTimeSlicing()) {
      result = timeSlicedBlockExchange(rewriter, loc, op, *scratch, *tile,
                                       layout, t, items, ranks);
    } else {
      SmallVector<Value> scatter;
      if (op.isScatter()) {
        Value region = scratchRegion(ix, *tile, layout, t);
        for (Value rank : ranks)
          scatter.push_back(
              ix.add(region, ix.pad(ix.index(rank), layout.padding)));
      } else {
        scatter = scratchSlots(ix, access.scatter, *tile, layout, t);
      }
      SmallVector<Value> gather =
          scratchSlots(ix, access.gather, *tile, layout, t);
      result = exchangeThroughScratch(
          rewriter, loc, *scratch, items, scatter, gather,
          [&](OpBuilder &b) { groupSync(b, loc, op, *tile, access.groupLocal); },
          scatterGuards(ix, op, ranks, flags));
    }
    writePayload(rewriter, loc, adaptor.getOutput(), result);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateExchangePatterns(RewritePatternSet &patterns) {
  patterns.add<ExchangeLowering>(patterns.getContext());
}
