//===- Combining.cpp - operators, shuffles and guarded steps ---------------===//

#include "Combining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// `cuda::minimum` / `cuda::maximum`: `a < b ? a : b` / `a < b ? b : a` on
/// integers, `fmin` / `fmax` on floats (a NaN operand yields the other one;
/// one min.f32 / max.f32 where a compare and select would be two dependent
/// instructions).
static Value minOrMax(OpBuilder &b, Location loc, Value lhs, Value rhs,
                      bool isUnsigned, bool max) {
  if (isa<FloatType>(lhs.getType()))
    return max ? Value(arith::MaxNumFOp::create(b, loc, lhs, rhs))
               : Value(arith::MinNumFOp::create(b, loc, lhs, rhs));
  Value less = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
      lhs, rhs);
  return arith::SelectOp::create(b, loc, less, max ? rhs : lhs,
                                 max ? lhs : rhs);
}

Value Combiner::combine(OpBuilder &b, Location loc, Value lhs,
                        Value rhs) const {
  if (function)
    return func::CallOp::create(b, loc, function, TypeRange{type},
                                ValueRange{lhs, rhs})
        .getResult(0);
  bool isFloat = isa<FloatType>(type);
  switch (*kind) {
  case BinaryOp::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case BinaryOp::multiplies:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case BinaryOp::min:
    return minOrMax(b, loc, lhs, rhs, isUnsigned, /*max=*/false);
  case BinaryOp::max:
    return minOrMax(b, loc, lhs, rhs, isUnsigned, /*max=*/true);
  case BinaryOp::bit_and:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case BinaryOp::bit_or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case BinaryOp::bit_xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown binary operator");
}

Value Combiner::identity(OpBuilder &b, Location loc) const {
  if (!kind)
    return {};
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(semantics);
    if (*kind == BinaryOp::multiplies)
      value = APFloat::getOne(semantics);
    else if (*kind == BinaryOp::min || *kind == BinaryOp::max)
      value = APFloat::getInf(semantics, /*Negative=*/*kind == BinaryOp::max);
    return arith::ConstantFloatOp::create(b, loc, floatType, value);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(width);
  switch (*kind) {
  case BinaryOp::multiplies:
    value = APInt(width, 1);
    break;
  case BinaryOp::min:
    value = isUnsigned ? APInt::getMaxValue(width)
                       : APInt::getSignedMaxValue(width);
    break;
  case BinaryOp::max:
    value = isUnsigned ? APInt::getMinValue(width)
                       : APInt::getSignedMinValue(width);
    break;
  case BinaryOp::bit_and:
    value = APInt::getAllOnes(width);
    break;
  default:
    break;
  }
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

Value Combiner::exactIdentity(OpBuilder &b, Location loc) const {
  if (!kind)
    return {};
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return identity(b, loc);
  if (*kind == BinaryOp::sum)
    return arith::ConstantFloatOp::create(
        b, loc, floatType,
        APFloat::getZero(floatType.getFloatSemantics(), /*Negative=*/true));
  if (*kind == BinaryOp::multiplies)
    return identity(b, loc);
  return {};
}

Value MaybeValue::combineBefore(OpBuilder &b, Location loc,
                                const Combiner &combiner, Value x) const {
  if (!value)
    return x;
  Value combined = combiner.combine(b, loc, value, x);
  if (!present)
    return combined;
  return arith::SelectOp::create(b, loc, present, combined, x);
}

MaybeValue MaybeValue::seeded(OpBuilder &b, Location loc,
                              const Combiner &combiner, Value seed) const {
  Value combined = combiner.combine(b, loc, seed, value);
  if (!present)
    return {combined, Value()};
  return {arith::SelectOp::create(b, loc, present, combined, seed), Value()};
}

//===----------------------------------------------------------------------===//
// Shuffles
//===----------------------------------------------------------------------===//

static Value shuffle32(OpBuilder &b, Location loc, NVVM::ShflKind kind,
                       Value value, Value offset, Value mask) {
  // Up shuffles clamp at lane 0 of the warp; the others at lane 31.
  int32_t clamp = kind == NVVM::ShflKind::up ? 0 : kWarpThreads - 1;
  Value clampValue = arith::ConstantIntOp::create(b, loc, clamp, 32);
  return NVVM::ShflOp::create(b, loc, value.getType(), mask, value, offset,
                              clampValue, kind, UnitAttr())
      .getResult();
}

WarpLane lowering::warpAndLane(OpBuilder &b, Location loc, Value ltid,
                               bool fromLaneId) {
  Ix ix{b, loc};
  Value rank = asI32(b, loc, ltid);
  Value warp = ix.div(rank, kWarpThreads);
  Value lane =
      fromLaneId ? Value(NVVM::LaneIdOp::create(b, loc, b.getI32Type()))
                 : ix.rem(rank, kWarpThreads);
  return {warp, lane};
}

Value lowering::shuffle(OpBuilder &b, Location loc, NVVM::ShflKind kind,
                        Value value, Value offset, Value mask) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  Value offset32 = asI32(b, loc, offset);
  if (type.isInteger(32) || type.isF32())
    return shuffle32(b, loc, kind, value, offset32, mask);
  unsigned width = type.getIntOrFloatBitWidth();
  Type bits = b.getIntegerType(width);
  Value integer = isa<FloatType>(type)
                      ? Value(arith::BitcastOp::create(b, loc, bits, value))
                      : value;
  Value moved;
  if (width < 32) {
    Value wide = arith::ExtUIOp::create(b, loc, i32, integer);
    moved = arith::TruncIOp::create(
        b, loc, bits, shuffle32(b, loc, kind, wide, offset32, mask));
  } else {
    // 64 bits: the low and the high word, one shuffle each.
    Type i64 = b.getI64Type();
    Value low = arith::TruncIOp::create(b, loc, i32, integer);
    Value shift = arith::ConstantIntOp::create(b, loc, 32, 64);
    Value high = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, integer, shift));
    Value movedLow = arith::ExtUIOp::create(
        b, loc, i64, shuffle32(b, loc, kind, low, offset32, mask));
    Value movedHigh = arith::ExtUIOp::create(
        b, loc, i64, shuffle32(b, loc, kind, high, offset32, mask));
    moved = arith::OrIOp::create(
        b, loc, movedLow, arith::ShLIOp::create(b, loc, movedHigh, shift));
  }
  return isa<FloatType>(type)
             ? Value(arith::BitcastOp::create(b, loc, type, moved))
             : moved;
}

Value lowering::activeLanes(OpBuilder &b, Location loc, Value warp,
                            int64_t blockSize) {
  Value all = arith::ConstantIntOp::create(b, loc, -1, 32);
  int64_t rest = blockSize % kWarpThreads;
  if (rest == 0)
    return all;
  Ix ix{b, loc};
  Value partial = arith::ConstantIntOp::create(b, loc, (1ll << rest) - 1, 32);
  Value last = ix.eq(warp, blockSize / kWarpThreads);
  return arith::SelectOp::create(b, loc, last, partial, all);
}

Value lowering::isLastLaneOfWarp(OpBuilder &b, Location loc, Value warp,
                                 Value lane, int64_t blockSize) {
  Ix ix{b, loc};
  int64_t warps = llvm::divideCeil(blockSize, kWarpThreads);
  int64_t lastWarpThreads = blockSize - (warps - 1) * kWarpThreads;
  Value lastLane =
      lastWarpThreads == kWarpThreads
          ? ix.c(lane, kWarpThreads - 1)
          : Value(arith::SelectOp::create(b, loc, ix.eq(warp, warps - 1),
                                          ix.c(lane, lastWarpThreads - 1),
                                          ix.c(lane, kWarpThreads - 1)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                               lastLane);
}

Value lowering::laneWarpAggregate(OpBuilder &b, Location loc,
                                  const Combiner &combiner, Value scratch,
                                  Value lane, int64_t warps,
                                  llvm::function_ref<Value()> counted) {
  Ix ix{b, loc};
  Value slot =
      ix.index(arith::MinUIOp::create(b, loc, lane, ix.c(lane, warps - 1)));
  Value item = memref::LoadOp::create(b, loc, scratch, slot);
  return arith::SelectOp::create(b, loc, counted(), item,
                                 combiner.identity(b, loc));
}

std::pair<Value, Value> lowering::scanWarpAggregatesByWarp(
    OpBuilder &b, Location loc, const Combiner &combiner, Value scratch,
    Value warp, Value lane, int64_t warps, bool withTotal, unsigned sm) {
  Ix ix{b, loc};
  Value full = arith::ConstantIntOp::create(b, loc, -1, 32);
  if (reducesByRedux(combiner, sm)) {
    Value slot = ix.index(
        arith::MinUIOp::create(b, loc, lane, ix.c(lane, warps - 1)));
    Value item = memref::LoadOp::create(b, loc, scratch, slot);
    Value identity = combiner.identity(b, loc);
    auto reduceLanesBelow = [&](Value bound) {
      Value counted =
          arith::SelectOp::create(b, loc, ix.lt(lane, bound), item, identity);
      return warpReduce(b, loc, combiner, counted, lane, kWarpThreads, full,
                        Value(), sm, /*everyLane=*/true);
    };
    Value total =
        withTotal ? reduceLanesBelow(ix.c(lane, warps)) : Value();
    return {reduceLanesBelow(warp), total};
  }
  int64_t width = llvm::PowerOf2Ceil(warps);
  Value counted = laneWarpAggregate(b, loc, combiner, scratch, lane, warps,
                                    [&] { return ix.lt(lane, warps); });
  Value inclusive = warpInclusiveScan(b, loc, combiner, counted,
                                      ix.rem(lane, width), width, full);
  Value total =
      withTotal ? shuffle(b, loc, NVVM::ShflKind::idx, inclusive,
                          ix.c(warps - 1), full)
                : Value();
  // Warp 0 reads lane 0's (its prefix is unused).
  Value before = arith::SelectOp::create(
      b, loc, ix.ge(warp, 1), arith::SubIOp::create(b, loc, warp, ix.c(warp, 1)),
      ix.c(warp, 0));
  Value warpPrefix =
      shuffle(b, loc, NVVM::ShflKind::idx, inclusive, before, full);
  return {warpPrefix, total};
}

FailureOr<GroupSum> lowering::groupExclusiveSum(
    OpBuilder &b, Location loc, const TileGeometry &tile, Value linearTid,
    Value rank, Value value, unsigned sm,
    llvm::function_ref<FailureOr<Value>()> totalsView) {
  Ix ix{b, loc};
  Combiner sum{BinaryOp::sum, {}, false, value.getType()};
  if (tile.warpLike) {
    if (tile.groupSize == 1)
      return GroupSum{ix.c(value, 0), value};
    Value mask = arith::ConstantIntOp::create(b, loc, -1, 32);
    Value inclusive = warpInclusiveScan(b, loc, sum, value, rank,
                                        tile.groupSize, mask);
    // The group's last lane holds the group's total.
    Value lane = ix.rem(linearTid, kWarpThreads);
    Value last = ix.add(ix.mul(ix.div(lane, tile.groupSize), tile.groupSize),
                        tile.groupSize - 1);
    Value total = shuffle(b, loc, NVVM::ShflKind::idx, inclusive, last, mask);
    return GroupSum{arith::SubIOp::create(b, loc, inclusive, value), total};
  }
  int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
  auto [warp, lane] = warpAndLane(b, loc, linearTid);
  Value mask = activeLanes(b, loc, warp, tile.blockSize);
  Value inclusive =
      warpInclusiveScan(b, loc, sum, value, lane, kWarpThreads, mask);
  Value before = arith::SubIOp::create(b, loc, inclusive, value);
  int64_t lastWarpThreads = tile.blockSize - (warps - 1) * kWarpThreads;
  if (warps == 1) {
    Value total = shuffle(b, loc, NVVM::ShflKind::idx, inclusive,
                          ix.c(lastWarpThreads - 1), mask);
    return GroupSum{before, total};
  }
  FailureOr<Value> totals = totalsView();
  if (failed(totals))
    return failure();
  Value isLast = isLastLaneOfWarp(b, loc, warp, lane, tile.blockSize);
  storeIf(b, loc, isLast, inclusive, *totals, ix.index(warp));
  gpu::BarrierOp::create(b, loc);
  Value zero = ix.c(value, 0);
  Value total = zero;
  Value warpPrefix = zero;
  bool redux = reducesByRedux(sum, sm);
  if (lastWarpThreads == kWarpThreads && (redux || warps > 4)) {
    // The scans' warp prefix: one shared load and two reduxes (or a warp
    // scan of the totals) where CUB's fold reads and selects every warp's
    // total (H100, int32 loops at 1024x2: 0.50 of CUB with the fold).
    std::tie(warpPrefix, total) = scanWarpAggregatesByWarp(
        b, loc, sum, *totals, warp, lane, warps, /*withTotal=*/true, sm);
    if (!redux)
      warpPrefix = arith::SelectOp::create(b, loc, ix.ge(warp, 1),
                                           warpPrefix, zero);
    return GroupSum{arith::AddIOp::create(b, loc, warpPrefix, before),
                     total};
  }
  // CUB's ApplyWarpAggregates: every thread reads every warp's total and
  // adds those of the warps before its own.
  for (int64_t w = 0; w < warps; ++w) {
    Value warpTotal = memref::LoadOp::create(b, loc, *totals, ix.c(w));
    if (w + 1 < warps)
      warpPrefix = arith::AddIOp::create(
          b, loc, warpPrefix,
          arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, warp,
                                    ix.c(warp, w)),
              warpTotal, zero));
    total = arith::AddIOp::create(b, loc, total, warpTotal);
  }
  return GroupSum{arith::AddIOp::create(b, loc, warpPrefix, before), total};
}

//===----------------------------------------------------------------------===//
// Guarded steps
//===----------------------------------------------------------------------===//

Value lowering::valueIf(OpBuilder &b, Location loc, Value condition,
                        Value otherwise,
                        llvm::function_ref<Value(OpBuilder &)> thenValue) {
  auto guard = scf::IfOp::create(b, loc, otherwise.getType(), condition, true);
  OpBuilder then = thenBuilder(b, guard);
  scf::YieldOp::create(then, loc, thenValue(then));
  OpBuilder other = elseBuilder(b, guard);
  scf::YieldOp::create(other, loc, otherwise);
  return guard.getResult(0);
}

/// A computed slot is one predicated st.shared rather than a branch. In a
/// branch inside a loop of the kernel's, NVVM materializes the scratch
/// buffer's address in the branch, every iteration, and ptxas then gave the
/// loop 64 registers where CUB's takes 36 (float64 inclusive_sum warp_scans
/// at 1024x4, 0.87 of CUB's speed); outside a branch the address is
/// loop-invariant and hoisted, as CUB's is (38 registers, 0.98). A constant slot is an
/// immediate address and keeps its branch (predicated, the warp_scans
/// prefix's store took that loop from 40 registers to 64).
void lowering::storeIf(OpBuilder &b, Location loc, Value condition,
                       Value value, Value scratch, Value slot) {
  Type element = value.getType();
  unsigned bits =
      element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if ((bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
      matchPattern(slot, m_Constant())) {
    auto guard = scf::IfOp::create(b, loc, TypeRange{}, condition, false);
    OpBuilder then = thenBuilder(b, guard);
    memref::StoreOp::create(then, loc, value, scratch, slot);
    return;
  }
  Value address = itemAddress(b, loc, scratch, slot);
  Value word = value;
  if (!element.isInteger(bits))
    word = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), word);
  // PTX stores 8- and 16-bit items from 32-bit registers.
  if (bits < 32)
    word = arith::ExtUIOp::create(b, loc, b.getI32Type(), word);
  Value guard = arith::ExtUIOp::create(b, loc, b.getI32Type(), condition);
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b" +
                     std::to_string(bits) + " [$0], $1; }";
  inlinePtx(b, loc, Type(), ValueRange{address, word, guard}, text,
            bits == 64 ? "l,l,r,~{memory}" : "l,r,r,~{memory}",
            /*isVolatile=*/true);
}
