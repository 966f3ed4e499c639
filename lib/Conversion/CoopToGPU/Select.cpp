//===- Select.cpp - coop.select: order-preserving compaction ---------------===//
//
// As CUB composes a block filter: each thread counts its selected items, an
// exclusive sum of the counts (one warp scan, and for blocks of several
// warps the warps' totals through scratch and one barrier) gives each
// selected item its position in the compacted tile, every thread stores its
// selected items there (predicated stores), the group synchronizes, and
// every thread reads its items back in blocked order. The warps' totals sit
// after the tile in the op's slice, so the scatter needs no barrier of its
// own after the counts are read.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
#include "TileHelpers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

struct SelectLowering : OpConversionPattern<SelectOp> {
  SelectLowering(MLIRContext *context, unsigned sm)
      : OpConversionPattern(context), sm(sm) {}

  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Ix ix{rewriter, loc};
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    int64_t n = op.getItemsPerThread();
    bool payload = isa<MemRefType>(adaptor.getInput().getType());
    SmallVector<Value> items =
        payload ? readPayload(rewriter, loc, adaptor.getInput(), n)
                : SmallVector<Value>{adaptor.getInput()};
    TileThreads t = tileThreads(rewriter, loc, op, *tile, Value());
    SmallVector<Value> selected =
        selections(rewriter, loc, op, adaptor, items, *tile, t.rank);
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> counts;
    Value count;
    for (Value flag : selected) {
      Value one = arith::ExtUIOp::create(rewriter, loc, i32, flag);
      counts.push_back(one);
      count = count ? Value(arith::AddIOp::create(rewriter, loc, count, one))
                    : one;
    }

    ScratchLayout layout = *op.getScratchLayout(*tile);
    FailureOr<Value> scratch = scratchSlice(rewriter, op, *tile, layout);
    if (failed(scratch))
      return failure();
    FailureOr<GroupSum> scan = countScan(rewriter, loc, op, *tile, t, count);
    if (failed(scan))
      return failure();

    Value region = scratchRegion(ix, *tile, layout, t);
    Value position = scan->before;
    for (auto [item, flag, one] : llvm::zip(items, selected, counts)) {
      Value slot = ix.add(region, ix.pad(ix.index(position), layout.padding));
      storeIf(rewriter, loc, flag, item, *scratch, slot);
      position = arith::AddIOp::create(rewriter, loc, position, one);
    }
    groupSync(rewriter, loc, op, *tile, /*groupLocal=*/tile->warpLike);
    SmallVector<Value> compacted;
    for (Value slot : scratchSlots(ix, SlotMap::blocked, *tile, layout, t))
      compacted.push_back(memref::LoadOp::create(rewriter, loc, *scratch, slot));

    SmallVector<Value> results;
    if (payload)
      writePayload(rewriter, loc, adaptor.getOutput(), compacted);
    else
      results.push_back(compacted.front());
    results.push_back(scan->total);
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// Per item (i1): is it selected. Items at or past `valid_items` (blocked
  /// positions) never are.
  static SmallVector<Value> selections(OpBuilder &b, Location loc, SelectOp op,
                                       OpAdaptor adaptor,
                                       ArrayRef<Value> items,
                                       const TileGeometry &tile, Value rank) {
    Ix ix{b, loc};
    int64_t n = items.size();
    SmallVector<Value> flags;
    if (Value given = adaptor.getFlags()) {
      SmallVector<Value> raw = isa<MemRefType>(given.getType())
                                   ? readPayload(b, loc, given, n)
                                   : SmallVector<Value>{given};
      for (Value flag : raw) {
        Value zero = arith::ConstantIntOp::create(b, loc, flag.getType(), 0);
        flags.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              flag, zero));
      }
    } else {
      for (Value item : items)
        flags.push_back(func::CallOp::create(b, loc, op.getPredicateAttr(),
                                             TypeRange{b.getI1Type()},
                                             ValueRange{item})
                            .getResult(0));
    }
    if (Value valid = adaptor.getValidItems()) {
      IndexFn position = blockedPositions(ix, tile, rank);
      for (int64_t i = 0; i < n; ++i)
        flags[i] = ix.both(flags[i], ix.lt(position(i), valid));
    }
    return flags;
  }

  /// The exclusive sum of `count` over the group and its total; a block's
  /// warps' totals sit after the tile in the op's slice.
  FailureOr<GroupSum> countScan(ConversionPatternRewriter &b, Location loc,
                                SelectOp op, const TileGeometry &tile,
                                const TileThreads &t, Value count) const {
    int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
    return groupExclusiveSum(b, loc, tile, t.linearTid, t.rank, count, sm,
                             [&]() -> FailureOr<Value> {
                               return scratchView(
                                   b, op, warps, b.getI32Type(),
                                   op.getCountsStart(tile) * tile.elementBytes);
                             });
  }

  unsigned sm;
};

} // namespace

void lowering::populateSelectPatterns(RewritePatternSet &patterns,
                                      unsigned sm) {
  patterns.add<SelectLowering>(patterns.getContext(), sm);
}
