//===- Groups.cpp - coop.barrier and the group descriptors ----------------===//
//
// Blocks synchronize with a block barrier, warps and logical warps with a
// warp barrier over their lanes, groups of warps with a named barrier,
// clusters with arrive/wait. Descriptors (groups, temp storage) are
// compile-time facts: they lower to nothing once their users are lowered;
// an array reserved in a temp storage is a view of the scratch buffer.
//
//===----------------------------------------------------------------------===//

#include "TileHelpers.h"

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

/// Named barriers 1..15: 0 is the block barrier.
constexpr int64_t kNamedBarriers = 15;

struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp barrier, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = barrier.getLoc();
    GroupType group = barrier.getGroup().getType();
    switch (group.getKind()) {
    case GroupKind::thread:
      break;
    case GroupKind::warp:
      NVVM::SyncWarpOp::create(
          rewriter, loc, arith::ConstantIntOp::create(rewriter, loc, -1, 32));
      break;
    case GroupKind::threads_within_warp:
      if (!getKnownBlockDims(barrier))
        return barrier.emitOpError("needs the block size to find its lanes: "
                                   "set known_block_size");
      warpSync(rewriter, loc, barrier, group.getCount());
      break;
    case GroupKind::block:
      gpu::BarrierOp::create(rewriter, loc);
      break;
    case GroupKind::warps_within_block:
      if (failed(namedBarrier(rewriter, barrier, group.getCount())))
        return failure();
      break;
    case GroupKind::cluster:
      NVVM::ClusterArriveOp::create(rewriter, loc, UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, UnitAttr());
      break;
    case GroupKind::grid:
      return barrier.emitOpError("cannot synchronize a grid");
    }
    rewriter.eraseOp(barrier);
    return success();
  }

  /// Group k of warps synchronizes on named barrier k + 1.
  static LogicalResult namedBarrier(OpBuilder &b, BarrierOp barrier,
                                    int64_t k) {
    std::optional<int64_t> blockSize = getKnownBlockSize(barrier);
    if (!blockSize)
      return barrier.emitOpError("needs the block size to number its "
                                 "named barriers: set known_block_size");
    int64_t warps = *blockSize / kWarpThreads;
    int64_t groups = llvm::divideCeil(warps, k);
    if (groups > kNamedBarriers)
      return barrier.emitOpError("needs ")
             << groups << " named barriers but a block has " << kNamedBarriers
             << " (besides barrier 0); use groups of at least "
             << llvm::divideCeil(warps, kNamedBarriers) << " warps";
    Location loc = barrier.getLoc();
    Ix ix{b, loc};
    Value warp = ix.div(linearThreadId(b, loc, barrier), kWarpThreads);
    Value index = ix.div(warp, k);
    Value id = ix.add(index, 1);
    // The last group of a non-exhaustive partition may be short.
    Value first = ix.mul(index, k);
    Value remaining = arith::SubIOp::create(b, loc, ix.c(warps), first);
    Value members = arith::MinUIOp::create(b, loc, remaining, ix.c(k));
    Value threads = ix.mul(members, kWarpThreads);
    auto i32 = [&](Value v) -> Value {
      return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v);
    };
    NVVM::BarrierOp::create(b, loc, Type(), i32(id), i32(threads),
                            NVVM::BarrierReductionAttr(), Value());
    return success();
  }
};

/// Descriptors are erased; their users are lowered by the other patterns
/// of the same conversion.
template <typename Op>
struct EraseDescriptor : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// A reserved array is a view of the scratch buffer at its planned offset.
struct ReserveLowering : OpConversionPattern<ReserveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReserveOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getResult().getType();
    FailureOr<Value> view =
        scratchView(rewriter, op, type.getDimSize(0), type.getElementType());
    if (failed(view))
      return failure();
    rewriter.replaceOp(op, *view);
    return success();
  }
};

} // namespace

void lowering::populateGroupPatterns(RewritePatternSet &patterns) {
  patterns.add<BarrierLowering, ReserveLowering, EraseDescriptor<ThisThreadOp>,
               EraseDescriptor<ThisWarpOp>, EraseDescriptor<ThisBlockOp>,
               EraseDescriptor<ThisClusterOp>, EraseDescriptor<ThisGridOp>,
               EraseDescriptor<GroupByOp>, EraseDescriptor<TempStorageOp>>(
      patterns.getContext());
}
