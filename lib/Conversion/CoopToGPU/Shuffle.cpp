//===- Shuffle.cpp - coop.shuffle through shared scratch ------------------===//
//
// CUB's BlockShuffle: each thread stores one item at its rank's slot, the
// block synchronizes, each thread loads its neighbour's slot.
//
//===----------------------------------------------------------------------===//

#include "TileHelpers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// The slot at `source` when `inBlock`, `otherwise` elsewhere.
Value loadIf(OpBuilder &b, Location loc, Value inBlock, Value scratch,
             Value source, Value otherwise) {
  auto guard = scf::IfOp::create(b, loc, otherwise.getType(), inBlock, true);
  OpBuilder then = thenBuilder(b, guard);
  scf::YieldOp::create(then, loc,
                       Value(memref::LoadOp::create(then, loc, scratch, source)));
  OpBuilder other = elseBuilder(b, guard);
  scf::YieldOp::create(other, loc, otherwise);
  return guard.getResult(0);
}

struct ShuffleLowering : OpConversionPattern<ShuffleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ShuffleOp op, OpAdaptor adaptor,
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
    int64_t n = tile->itemsPerThread, blockSize = tile->blockSize;
    Value rank = linearThreadId(rewriter, loc, op);
    Value fill = adaptor.getFill();

    if (op.isShift()) {
      bool up = op.getMode() == ShuffleMode::up;
      SmallVector<Value> items = readPayload(rewriter, loc, adaptor.getInput(), n);
      // Up: each thread publishes its last item for its successor; down: its
      // first item for its predecessor.
      memref::StoreOp::create(rewriter, loc, up ? items.back() : items.front(),
                              *scratch, rank);
      gpu::BarrierOp::create(rewriter, loc);
      SmallVector<Value> result(n);
      for (int64_t i = 0; i < n; ++i) {
        int64_t from = up ? i - 1 : i + 1;
        if (from >= 0 && from < n)
          result[i] = items[from];
      }
      int64_t edge = up ? 0 : n - 1;
      Value inBlock = up ? ix.ge(rank, 1) : ix.lt(rank, blockSize - 1);
      Value neighbour = up ? ix.sub(rank, 1) : ix.add(rank, 1);
      result[edge] = loadIf(rewriter, loc, inBlock, *scratch, neighbour,
                            fill ? fill : items[edge]);
      writePayload(rewriter, loc, adaptor.getOutput(), result);
      if (!op.getResult()) {
        rewriter.eraseOp(op);
        return success();
      }
      // The item shifted out is in the slot of the block's last thread (up)
      // or first thread (down), published before the barrier.
      Value edgeSlot = ix.c(up ? blockSize - 1 : 0);
      rewriter.replaceOp(
          op, Value(memref::LoadOp::create(rewriter, loc, *scratch, edgeSlot)));
      return success();
    }

    Value input = adaptor.getInput();
    memref::StoreOp::create(rewriter, loc, input, *scratch, rank);
    gpu::BarrierOp::create(rewriter, loc);
    Value distance = adaptor.getDistance() ? adaptor.getDistance() : ix.c(1);
    Value source = arith::AddIOp::create(rewriter, loc, rank, distance);
    Value result;
    if (op.getMode() == ShuffleMode::offset) {
      // Signed: a negative distance reaches lower ranks.
      Value zero = ix.c(0), size = ix.c(blockSize);
      Value inBlock = ix.both(
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                source, zero),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                source, size));
      result = loadIf(rewriter, loc, inBlock, *scratch, source,
                      fill ? fill : input);
    } else {
      // (rank + distance) mod block size, for any sign of the distance.
      Value size = ix.c(blockSize);
      Value wrapped = arith::RemSIOp::create(rewriter, loc, source, size);
      Value negative = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, wrapped, ix.c(0));
      Value slot = arith::SelectOp::create(
          rewriter, loc, negative, ix.add(wrapped, size), wrapped);
      result = memref::LoadOp::create(rewriter, loc, *scratch, slot);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void lowering::populateShufflePatterns(RewritePatternSet &patterns) {
  patterns.add<ShuffleLowering>(patterns.getContext());
}
