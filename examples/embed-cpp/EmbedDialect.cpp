//===- EmbedDialect.cpp - the example DSL's dialect and its lowering ------===//

#include "EmbedDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

#include "EmbedOpsDialect.cpp.inc"

void embed::EmbedDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "EmbedOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "EmbedOps.cpp.inc"

LogicalResult embed::ScaleOp::verify() {
  if (getItems().getType().getElementType() != getFactor().getType())
    return emitOpError("factor type ")
           << getFactor().getType() << " differs from the item type "
           << getItems().getType().getElementType();
  return success();
}

namespace {
struct LowerScale : OpRewritePattern<embed::ScaleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(embed::ScaleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value count = arith::ConstantIndexOp::create(
        rewriter, loc, op.getItems().getType().getNumElements());
    scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange(),
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          Value item = memref::LoadOp::create(b, loc, op.getItems(), i);
          Value scaled = arith::MulIOp::create(b, loc, item, op.getFactor());
          memref::StoreOp::create(b, loc, scaled, op.getItems(), i);
          scf::YieldOp::create(b, loc);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerScalePass
    : PassWrapper<LowerScalePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerScalePass)
  StringRef getArgument() const override { return "embed-lower-scale"; }
  StringRef getDescription() const override {
    return "Lower embed.scale to an scf.for over the payload's items";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerScale>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void embed::registerLowerScalePass() { PassRegistration<LowerScalePass>(); }
