//===- ThreadWarpCombining.cpp - thread and warp reductions and scans ----===//
//
// The thread-level folds of a thread's items and the warp-level reductions
// and scans by shuffles (and redux.sync where CUB uses it) that block
// algorithms build on.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

//===----------------------------------------------------------------------===//
// Thread and warp levels
//===----------------------------------------------------------------------===//

Value lowering::clampedCount(OpBuilder &b, Location loc, Value count,
                             int64_t bound) {
  Ix ix{b, loc};
  Value clamped = arith::MinUIOp::create(b, loc, count, ix.c(count, bound));
  return asI32(b, loc, clamped);
}

Value lowering::countExceeds(OpBuilder &b, Location loc, Value count32,
                             int64_t i) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count32,
                               arith::ConstantIntOp::create(b, loc, i, 32));
}

namespace {
/// How CUB's ThreadReduce (CCCL 3.5, cub/thread/thread_reduce.cuh) folds a
/// thread's items.
enum class FoldOrder { sequential, binaryTree, ternaryTree, halfPairs };
} // namespace

static FoldOrder threadFoldOrder(const Combiner &combiner, size_t n,
                                 unsigned sm) {
  if (!combiner.kind || n < 2 || !combiner.type.isIntOrFloat() ||
      combiner.type.getIntOrFloatBitWidth() >= 64)
    return FoldOrder::sequential;
  BinaryOp kind = *combiner.kind;
  bool minMax = kind == BinaryOp::min || kind == BinaryOp::max;
  bool sumOrProduct = kind == BinaryOp::sum || kind == BinaryOp::multiplies;
  // __half items pair up as __half2 (ThreadReduceSimd).
  if (combiner.type.isF16() && n >= 4 &&
      ((sumOrProduct && sm >= 70) || (minMax && sm >= 80)))
    return FoldOrder::halfPairs;
  if (isa<IntegerType>(combiner.type) && n >= 6) {
    if (minMax && combiner.type.isInteger(32) && sm >= 90)
      return FoldOrder::ternaryTree;
    if (!minMax && kind != BinaryOp::multiplies)
      return FoldOrder::sequential;
  }
  return FoldOrder::binaryTree;
}

/// ThreadReduceBinaryTree: a[j] = a[j] op a[j + i] for i = 1, 2, 4, ...
static Value binaryTree(OpBuilder &b, Location loc, const Combiner &combiner,
                        SmallVector<Value> a) {
  for (size_t i = 1; i < a.size(); i *= 2)
    for (size_t j = 0; j + i < a.size(); j += 2 * i)
      a[j] = combiner.combine(b, loc, a[j], a[j + i]);
  return a.front();
}

/// ThreadReduceTernaryTree: three items at a time (sm_90's three-input
/// integer min and max).
static Value ternaryTree(OpBuilder &b, Location loc, const Combiner &combiner,
                         SmallVector<Value> a) {
  for (size_t i = 1; i < a.size(); i *= 3)
    for (size_t j = 0; j + i < a.size(); j += 3 * i) {
      Value value = combiner.combine(b, loc, a[j], a[j + i]);
      a[j] = j + 2 * i < a.size()
                 ? combiner.combine(b, loc, value, a[j + 2 * i])
                 : value;
    }
  return a.front();
}

Value lowering::threadReduce(OpBuilder &b, Location loc,
                             const Combiner &combiner, ArrayRef<Value> items,
                             unsigned sm, Value valid) {
  if (!valid) {
    switch (threadFoldOrder(combiner, items.size(), sm)) {
    case FoldOrder::sequential:
      break;
    case FoldOrder::binaryTree:
      return binaryTree(b, loc, combiner, SmallVector<Value>(items));
    case FoldOrder::ternaryTree:
      return ternaryTree(b, loc, combiner, SmallVector<Value>(items));
    case FoldOrder::halfPairs: {
      // The even and the odd items are the two lanes of the __half2 tree;
      // the lanes combine, then an odd count's last item.
      SmallVector<Value> even, odd;
      for (size_t i = 0; i + 1 < items.size(); i += 2) {
        even.push_back(items[i]);
        odd.push_back(items[i + 1]);
      }
      Value evenLane = binaryTree(b, loc, combiner, even);
      Value oddLane = binaryTree(b, loc, combiner, odd);
      Value result = combiner.combine(b, loc, evenLane, oddLane);
      if (items.size() % 2)
        result = combiner.combine(b, loc, result, items.back());
      return result;
    }
    }
  }
  Value count = valid ? clampedCount(b, loc, valid, items.size()) : Value();
  Value result = items.front();
  for (size_t i = 1; i < items.size(); ++i) {
    Value combined = combiner.combine(b, loc, result, items[i]);
    result = valid ? Value(arith::SelectOp::create(
                         b, loc, countExceeds(b, loc, count, i), combined, result))
                   : combined;
  }
  return result;
}

/// The redux.sync that reduces `combiner`'s 32-bit integers, its 8- and
/// 16-bit ones widened (see warpReduce), or the 32-bit pieces of its 64-bit
/// ones (sums and bitwise operators: see reduceWideByRedux); none for the
/// others.
static std::optional<NVVM::ReduxKind> reduxKind(const Combiner &combiner) {
  bool wide = combiner.type.isInteger(64);
  if (!combiner.kind ||
      !(combiner.type.isInteger(8) || combiner.type.isInteger(16) ||
        combiner.type.isInteger(32) || wide))
    return std::nullopt;
  switch (*combiner.kind) {
  case BinaryOp::sum:
    return NVVM::ReduxKind::ADD;
  case BinaryOp::min:
    if (wide)
      return std::nullopt;
    return combiner.isUnsigned ? NVVM::ReduxKind::UMIN : NVVM::ReduxKind::MIN;
  case BinaryOp::max:
    if (wide)
      return std::nullopt;
    return combiner.isUnsigned ? NVVM::ReduxKind::UMAX : NVVM::ReduxKind::MAX;
  case BinaryOp::bit_and:
    return NVVM::ReduxKind::AND;
  case BinaryOp::bit_or:
    return NVVM::ReduxKind::OR;
  case BinaryOp::bit_xor:
    return NVVM::ReduxKind::XOR;
  case BinaryOp::multiplies:
    return std::nullopt;
  }
  return std::nullopt;
}

/// A 64-bit integer reduced by 32-bit redux.syncs (`reduce32`): a bitwise
/// operator word by word; a sum in pieces of 21, 21 and 22 bits, whose sums
/// over at most 32 lanes fit 27 bits, recombined modulo 2^64. The reduxes
/// are independent, where butterflies chain five steps of two shuffles and
/// a 64-bit add.
static Value reduceWideByRedux(OpBuilder &b, Location loc,
                               NVVM::ReduxKind kind, Value value,
                               llvm::function_ref<Value(Value)> reduce32) {
  Type i32 = b.getI32Type();
  Type i64 = b.getI64Type();
  auto wideConstant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  auto piece = [&](int64_t shift, int64_t bits) -> Value {
    Value shifted =
        shift ? Value(arith::ShRUIOp::create(b, loc, value, wideConstant(shift)))
              : value;
    if (shift + bits < 64)
      shifted = arith::AndIOp::create(b, loc, shifted,
                                      wideConstant((int64_t(1) << bits) - 1));
    return arith::TruncIOp::create(b, loc, i32, shifted);
  };
  auto reducedAt = [&](int64_t shift, int64_t bits) -> Value {
    Value wide = arith::ExtUIOp::create(b, loc, i64, reduce32(piece(shift, bits)));
    return shift ? Value(arith::ShLIOp::create(b, loc, wide, wideConstant(shift)))
                 : wide;
  };
  if (kind != NVVM::ReduxKind::ADD) {
    Value low = reducedAt(0, 32);
    Value high = reducedAt(32, 32);
    return arith::OrIOp::create(b, loc, high, low);
  }
  Value low = reducedAt(0, 21);
  Value middle = reducedAt(21, 21);
  Value high = reducedAt(42, 22);
  return arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, low, middle), high);
}

bool lowering::reducesByRedux(const Combiner &combiner, unsigned sm) {
  return sm >= 80 && reduxKind(combiner).has_value();
}

Value lowering::warpReduce(OpBuilder &b, Location loc, const Combiner &combiner,
                           Value value, Value laneInGroup, int64_t width,
                           Value mask, Value valid, unsigned sm,
                           bool everyLane) {
  Ix ix{b, loc};
  // WarpReduceShfl's sm_80 specialization (int and unsigned int sums, min
  // and max of whole logical warps): one redux.sync over the lanes of the
  // thread's group, which every one of them gets. 64-bit sums and bitwise
  // operators take a few, over their 32-bit pieces, in whole warps only: a
  // logical warp's reduxes name another mask in each group of lanes, and
  // three of them ran at a quarter to a third of the butterflies' speed
  // (H200, int64 warp_sum loops of 8 and 16 lanes).
  std::optional<NVVM::ReduxKind> redux = reduxKind(combiner);
  bool wide = value.getType().isInteger(64);
  if (sm >= 80 && redux && !valid && width > 1 &&
      width <= kWarpThreads && llvm::isPowerOf2_64(width) &&
      (!wide || width == kWarpThreads)) {
    Value lanes = mask;
    if (width < kWarpThreads) {
      Type i32 = b.getI32Type();
      Value lane = NVVM::LaneIdOp::create(b, loc, i32);
      Value start = arith::AndIOp::create(
          b, loc, lane, arith::ConstantIntOp::create(b, loc, ~(width - 1), 32));
      Value group = arith::ShLIOp::create(
          b, loc, arith::ConstantIntOp::create(b, loc, (1ll << width) - 1, 32),
          start);
      APInt bits;
      bool allLanes = matchPattern(mask, m_ConstantInt(&bits)) &&
                      bits.isAllOnes();
      lanes = allLanes ? group : arith::AndIOp::create(b, loc, mask, group);
    }
    auto reduce32 = [&](Value word) -> Value {
      return NVVM::ReduxOp::create(b, loc, b.getI32Type(), word, *redux,
                                   lanes);
    };
    if (wide)
      return reduceWideByRedux(b, loc, *redux, value, reduce32);
    if (value.getType().isInteger(32))
      return reduce32(value);
    // An 8- or 16-bit integer is reduced as a 32-bit one, exactly: signed
    // min and max compare it sign-extended, the rest zero-extended (a sum
    // over 32 lanes fits, and truncation wraps it as the narrow add would),
    // where butterflies take five shuffles of a widened word each.
    bool signedOrder = (*redux == NVVM::ReduxKind::MIN ||
                        *redux == NVVM::ReduxKind::MAX);
    Type i32 = b.getI32Type();
    Value word = signedOrder
                     ? Value(arith::ExtSIOp::create(b, loc, i32, value))
                     : Value(arith::ExtUIOp::create(b, loc, i32, value));
    return arith::TruncIOp::create(b, loc, value.getType(), reduce32(word));
  }
  // A commutative operator over whole groups: butterflies, which leave the
  // aggregate in every lane at no extra cost.
  if (combiner.commutative() && !valid) {
    for (int64_t offset = 1; offset < width; offset *= 2) {
      Value partner =
          shuffle(b, loc, NVVM::ShflKind::bfly, value, ix.c(offset), mask);
      value = combiner.combine(b, loc, value, partner);
    }
    return value;
  }
  // WarpReduceShfl's ReduceStep: each lane folds in the lane `offset` above
  // it, so the group's first lane combines the lanes in order; a lane past
  // the group's first `valid` (or past the group) is left out, as CUB's
  // last_lane bound does. 32-bit lane arithmetic: a group has at most 32
  // lanes, and `valid` (unsigned, as everywhere) is clamped to them first.
  Type i32 = b.getI32Type();
  Value rank = asI32(b, loc, laneInGroup);
  Value limit = valid ? clampedCount(b, loc, valid, width)
                      : arith::ConstantIntOp::create(b, loc, width, 32);
  Value remaining = arith::SubIOp::create(b, loc, limit, rank);
  for (int64_t offset = 1; offset < width; offset *= 2) {
    Value partner =
        shuffle(b, loc, NVVM::ShflKind::down, value, ix.c(offset), mask);
    Value combined = combiner.combine(b, loc, value, partner);
    value = arith::SelectOp::create(
        b, loc, countExceeds(b, loc, remaining, offset), combined, value);
  }
  if (!everyLane || width == 1)
    return value;
  // The group's first lane holds the aggregate; groups are aligned runs of
  // `width` lanes.
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value first = arith::AndIOp::create(
      b, loc, lane, arith::ConstantIntOp::create(b, loc, ~(width - 1), 32));
  return shuffle(b, loc, NVVM::ShflKind::idx, value, first, mask);
}

/// CUB's InclusiveScanStep for sums of 32-bit integers and floats (and of
/// float64, where `float64`): the up shuffle's own in-range predicate
/// guards the add, in one inline PTX block as CUB writes it (a shuffle a
/// word and the add, not a shuffle, a compare and a select; the {value,
/// predicate} shuffle intrinsic does not survive Numba's LLVM 7 path, inline
/// PTX does). An out-of-range lane's shuffle returns its own value, which it
/// keeps. The control word names the segment of `width` lanes, whose first
/// lane is the bound. Null for other operators and for 64-bit integers: a
/// 64-bit integer add cannot be predicated in one instruction, and opaque
/// PTX would hide from the compiler what it knows of the value (a high word
/// it can prove zero is not shuffled; on the H200 the int64 steps ran at
/// half the select form's speed in the warp scan loops).
static Value fusedSumScanStep(OpBuilder &b, Location loc,
                              const Combiner &combiner, Value value,
                              int64_t offset, int64_t width, Value mask,
                              bool float64) {
  Type type = value.getType();
  if (combiner.kind != BinaryOp::sum ||
      !(type.isInteger(32) || type.isF32() || (float64 && type.isF64())))
    return {};
  std::string control = std::to_string(offset) + ", " +
                        std::to_string((kWarpThreads - width) << 8) + ", $2;";
  // $0: the result, $1: the value, $2: the member mask.
  std::string body;
  std::string constraints;
  if (type.isF64()) {
    body = ".reg .f64 r0; .reg .pred p; .reg .b32 lo, hi; "
           "mov.b64 {lo, hi}, $1; shfl.sync.up.b32 lo|p, lo, " +
           control + " shfl.sync.up.b32 hi|p, hi, " + control +
           " mov.b64 r0, {lo, hi}; @p add.f64 r0, r0, $1; mov.f64 $0, r0;";
    constraints = "=d,d,r";
  } else {
    std::string kind = type.isF32() ? "f32" : "s32";
    body = ".reg ." + kind + " r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, " +
           control + " @p add." + kind + " r0, r0, $1; mov." + kind +
           " $0, r0;";
    constraints = type.isF32() ? "=f,f,r" : "=r,r,r";
  }
  return inlinePtx(b, loc, type, ValueRange{value, mask}, "{ " + body + " }",
                   constraints, /*isVolatile=*/true);
}

Value lowering::warpInclusiveScan(OpBuilder &b, Location loc,
                                  const Combiner &combiner, Value value,
                                  Value laneInGroup, int64_t width,
                                  Value mask, ScanSteps steps) {
  Ix ix{b, loc};
  laneInGroup = asI32(b, loc, laneInGroup);
  for (int64_t offset = 1; offset < width; offset *= 2) {
    if (steps != ScanSteps::select) {
      if (Value fused =
              fusedSumScanStep(b, loc, combiner, value, offset, width, mask,
                               steps == ScanSteps::fusedFloat64)) {
        value = fused;
        continue;
      }
    }
    Value before =
        shuffle(b, loc, NVVM::ShflKind::up, value, ix.c(offset), mask);
    Value combined = combiner.combine(b, loc, before, value);
    value = arith::SelectOp::create(b, loc, ix.ge(laneInGroup, offset),
                                    combined, value);
  }
  return value;
}

bool lowering::exclusiveIsIdentityInFirstLane(const Combiner &combiner) {
  return combiner.kind == BinaryOp::sum && isa<IntegerType>(combiner.type);
}

Value lowering::warpExclusiveFromInclusive(OpBuilder &b, Location loc,
                                           const Combiner &combiner,
                                           Value inclusive, Value value,
                                           Value mask) {
  if (exclusiveIsIdentityInFirstLane(combiner))
    return arith::SubIOp::create(b, loc, inclusive, value);
  Ix ix{b, loc};
  return shuffle(b, loc, NVVM::ShflKind::up, inclusive, ix.c(1), mask);
}

SmallVector<Value> lowering::threadScan(OpBuilder &b, Location loc,
                                        const Combiner &combiner,
                                        ArrayRef<Value> items,
                                        const MaybeValue &prefix,
                                        bool inclusive) {
  SmallVector<Value> out;
  Value running = prefix.combineBefore(b, loc, combiner, items.front());
  if (inclusive) {
    out.push_back(running);
    for (Value item : items.drop_front()) {
      running = combiner.combine(b, loc, running, item);
      out.push_back(running);
    }
    return out;
  }
  // Where the prefix is absent the first item is unspecified: it keeps the
  // input item.
  out.push_back(prefix.value ? prefix.value : items.front());
  for (Value item : items.drop_front()) {
    out.push_back(running);
    running = combiner.combine(b, loc, running, item);
  }
  return out;
}
