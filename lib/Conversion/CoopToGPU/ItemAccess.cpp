//===- ItemAccess.cpp - reading and writing a tile's items ----------------===//
//
// Items between memory and payloads: guarded reads and writes at tile
// positions, non-coherent and ordered loads through inline PTX, and the
// address arithmetic that keeps a view's dynamic offset out of ptxas's way.
//
//===----------------------------------------------------------------------===//

#include "TileHelpers.h"

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

SmallVector<Value> lowering::readPayload(OpBuilder &b, Location loc,
                                         Value payload, int64_t n) {
  Ix ix{b, loc};
  SmallVector<Value> items;
  for (int64_t i = 0; i < n; ++i)
    items.push_back(memref::LoadOp::create(b, loc, payload, ValueRange{ix.c(i)}));
  return items;
}

void lowering::writePayload(OpBuilder &b, Location loc, Value payload,
                            ArrayRef<Value> items) {
  Ix ix{b, loc};
  for (auto [i, item] : llvm::enumerate(items))
    memref::StoreOp::create(b, loc, item, payload, ValueRange{ix.c(i)});
}

Value lowering::inlinePtx(OpBuilder &b, Location loc, Type result,
                          ValueRange operands, const Twine &text,
                          const Twine &constraints, bool isVolatile) {
  auto ptx = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, operands, text.str(),
      constraints.str(), isVolatile, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  return result ? ptx.getResult(0) : Value();
}

Value lowering::asI32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isInteger(32))
    return v;
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v);
}

OpBuilder lowering::thenBuilder(OpBuilder &b, scf::IfOp op) {
  return op.getThenBodyBuilder(b.getListener());
}

OpBuilder lowering::elseBuilder(OpBuilder &b, scf::IfOp op) {
  return op.getElseBodyBuilder(b.getListener());
}

bool lowering::readsNonCoherent(Type element) {
  return (isa<IntegerType>(element) || element.isF32() || element.isF64()) &&
         (element.getIntOrFloatBitWidth() == 32 ||
          element.getIntOrFloatBitWidth() == 64);
}

Value lowering::itemAddress(OpBuilder &b, Location loc, Value memory,
                            Value index) {
  Ix ix{b, loc};
  auto type = cast<MemRefType>(memory.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
  Value start = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memory);
  Value element = ix.add(metadata.getOffset(),
                         arith::MulIOp::create(b, loc, index,
                                               metadata.getStrides()[0]));
  Value address = ix.add(
      start, ix.mul(element, type.getElementTypeBitWidth() / 8));
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
}

SmallVector<Value> lowering::loadNonCoherent(OpBuilder &b, Location loc,
                                             Type element, Value address,
                                             int64_t width) {
  return loadByPtx(b, loc, element, address, width, "ld.global.nc",
                   /*isVolatile=*/false);
}

SmallVector<Value> lowering::loadByPtx(OpBuilder &b, Location loc,
                                       Type element, Value address,
                                       int64_t width, StringRef instruction,
                                       bool isVolatile) {
  unsigned bits = element.getIntOrFloatBitWidth();
  Type word = b.getIntegerType(bits);
  std::string constraint = bits == 64 ? "=l," : "=r,";
  std::string outputs, constraints;
  for (int64_t i = 0; i < width; ++i) {
    outputs += (i ? ", $" : "$") + std::to_string(i);
    constraints += constraint;
  }
  if (width > 1)
    outputs = "{" + outputs + "}";
  std::string text = instruction.str() +
                     (width > 1 ? ".v" + std::to_string(width) : "") + ".b" +
                     std::to_string(bits) + " " + outputs + ", [$" +
                     std::to_string(width) + "];";
  Type result =
      width == 1 ? word
                 : LLVM::LLVMStructType::getLiteral(
                       b.getContext(), SmallVector<Type>(width, word));
  Value loaded = inlinePtx(b, loc, result, ValueRange{address}, text,
                           constraints + "l", isVolatile);
  SmallVector<Value> items;
  for (int64_t i = 0; i < width; ++i) {
    Value item = width == 1 ? loaded
                            : Value(LLVM::ExtractValueOp::create(
                                  b, loc, loaded, ArrayRef<int64_t>{i}));
    if (item.getType() != element)
      item = arith::BitcastOp::create(b, loc, element, item);
    items.push_back(item);
  }
  return items;
}

/// `to - from` where both are one value plus constants (as a thread's
/// positions are: its first plus multiples of a stride).
static std::optional<int64_t> constantDistance(Value from, Value to) {
  auto split = [](Value v) -> std::pair<Value, int64_t> {
    APInt constant;
    if (auto add = v.getDefiningOp<arith::AddIOp>())
      if (matchPattern(add.getRhs(), m_ConstantInt(&constant)))
        return {add.getLhs(), constant.getSExtValue()};
    return {v, 0};
  };
  auto [fromRoot, fromOffset] = split(from);
  auto [toRoot, toOffset] = split(to);
  if (fromRoot != toRoot)
    return std::nullopt;
  return toOffset - fromOffset;
}

/// The element index in `memory` of a thread's item `i` at tile position
/// `pos` (`position(i)`), of `n`: `base + pos`. Where the view's offset is
/// dynamic (Numba's arrays) and the items lie at constant distances from
/// the thread's first, that first index passes through an opaque move and
/// the others add their distance to it: NVVM then adds the view's offset to
/// a thread's index last, and ptxas keeps the offset in a uniform register.
/// From the view's pointer, offset and index, NVVM folded the offset into
/// the block's part of the index first (`ctaid * tile + offset`), which
/// ptxas computed per thread from a constant-bank load on the path to the
/// first global load (H200, int32 `warp_sum` tiles at 1024x1 with one item a
/// thread: 0.93 -> 0.99 of CUB). The move is volatile so that a load's and
/// a store's of one index stay two: as one value it lived across a kernel's
/// loop between them (float64 `sum.warp_reductions` loop at 256x8: 32 -> 38
/// registers). The positions it computes to find the distances are left in
/// `positions` (empty: not computed) for the caller.
using ItemIndexFn = std::function<Value(int64_t i, Value pos)>;
static ItemIndexFn itemIndex(OpBuilder &b, Location loc, Value memory,
                             Value base, int64_t n, const IndexFn &position,
                             SmallVectorImpl<Value> &positions) {
  Ix ix{b, loc};
  ItemIndexFn plain = [=](int64_t, Value pos) mutable {
    return ix.add(base, pos);
  };
  auto type = cast<MemRefType>(memory.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      !ShapedType::isDynamic(offset))
    return plain;
  if (positions.empty())
    for (int64_t i = 0; i < n; ++i)
      positions.push_back(position(i));
  SmallVector<int64_t> distances;
  for (Value pos : positions) {
    std::optional<int64_t> distance = constantDistance(positions[0], pos);
    if (!distance)
      return plain;
    distances.push_back(*distance);
  }
  Value word = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                            ix.add(base, positions[0]));
  Value first = arith::IndexCastUIOp::create(
      b, loc, b.getIndexType(),
      inlinePtx(b, loc, b.getI64Type(), ValueRange{word}, "mov.b64 $0, $1;",
                "=l,l", /*isVolatile=*/true));
  return [=](int64_t i, Value) mutable {
    return distances[i] ? ix.add(first, distances[i]) : first;
  };
}

/// A tile's valid count (an index, as load's and store's `valid_items` are)
/// for its items' guards, compared as CUB's signed `int` counts are: its low
/// 32 bits as a signed count (a negative count makes no item valid), and
/// whether it is past INT32_MAX (then every position of a tile is below
/// it).
struct ValidCount {
  Value low;
  Value beyond;
};
static ValidCount validCount(OpBuilder &b, Location loc, Value valid) {
  Value low = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), valid);
  Value beyond = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sgt, valid,
      Ix{b, loc}.c(valid, std::numeric_limits<int32_t>::max()));
  return {low, beyond};
}

/// Whether tile position `pos` is below the valid count: a 32-bit compare,
/// as CUB's int counts are (a tile's positions are far below 2^31), not a
/// 64-bit pair a thread's positions would each hold.
static Value inTile(OpBuilder &b, Location loc, Value pos,
                    const ValidCount &valid) {
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      asI32(b, loc, pos), valid.low);
  return arith::OrIOp::create(b, loc, valid.beyond, below);
}

/// One guarded item by one predicated ld.global.nc: `address + offset` when
/// `inRange`, else `fallback` (tied to the result), without a branch. In a
/// branch per item NVVM rematerialized each item's 64-bit address (a guarded
/// read-only block sum of 256x4 int32: 27 registers against 17 writable,
/// 0.90 of CUB on the H200; predicated: 17 and 1.03); here a thread's items
/// are immediates from one base, as CUB's guarded loads are.
static Value loadNonCoherentIf(OpBuilder &b, Location loc, Type element,
                               Value address, int64_t offset, Value inRange,
                               Value fallback) {
  unsigned bits = element.getIntOrFloatBitWidth();
  Type word = b.getIntegerType(bits);
  std::string size = std::to_string(bits);
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p ld.global.nc.b" +
                     size + " $0, [$1" +
                     (offset ? "+" + std::to_string(offset) : "") + "]; }";
  std::string value = bits == 64 ? "l" : "r";
  Value guard = arith::ExtUIOp::create(b, loc, b.getI32Type(), inRange);
  if (fallback.getType() != word)
    fallback = arith::BitcastOp::create(b, loc, word, fallback);
  Value loaded =
      inlinePtx(b, loc, word, ValueRange{address, guard, fallback}, text,
                "=" + value + ",l,r,0", /*isVolatile=*/false);
  return loaded.getType() == element
             ? loaded
             : Value(arith::BitcastOp::create(b, loc, element, loaded));
}

/// The memref's element stride in bytes where its type fixes it.
static std::optional<int64_t> staticStrideBytes(Value memory) {
  auto type = cast<MemRefType>(memory.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.size() != 1 || ShapedType::isDynamic(strides[0]))
    return std::nullopt;
  return strides[0] * type.getElementTypeBitWidth() / 8;
}

SmallVector<Value> lowering::readItems(OpBuilder &b, Location loc,
                                       Value memory, Value base, Value valid,
                                       ArrayRef<Value> fallback, Type element,
                                       int64_t n, IndexFn position,
                                       bool readOnly) {
  Ix ix{b, loc};
  bool nonCoherent = readOnly && readsNonCoherent(element);
  std::optional<ValidCount> count;
  if (valid)
    count = validCount(b, loc, valid);
  // Guarded read-only items are opaque inline PTX, addressed from the
  // thread's first item (an address recomputed whole per item took 26-31
  // registers a guarded tile copy, against 16-20 writable). With the stride
  // fixed by the type (Numba's contiguous arrays), each is one predicated
  // load at an immediate from that address; otherwise each is a load in its
  // own branch at first + distance * stride.
  std::optional<int64_t> fixedStride;
  SmallVector<Value> positions;
  Value firstAddress, strideBytes;
  if (nonCoherent && valid) {
    for (int64_t i = 0; i < n; ++i)
      positions.push_back(position(i));
    firstAddress = itemAddress(b, loc, memory, ix.add(base, positions[0]));
    fixedStride = staticStrideBytes(memory);
    if (!fixedStride) {
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
      strideBytes = arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          ix.mul(metadata.getStrides()[0],
                 element.getIntOrFloatBitWidth() / 8));
    }
  }
  auto load = [&](OpBuilder &at, Value address, Value index) -> Value {
    if (!nonCoherent)
      return memref::LoadOp::create(at, loc, memory, index);
    if (!address)
      address = itemAddress(at, loc, memory, index);
    return loadNonCoherent(at, loc, element, address, 1).front();
  };
  ItemIndexFn indexOf = itemIndex(b, loc, memory, base, n, position, positions);
  SmallVector<Value> items;
  for (int64_t i = 0; i < n; ++i) {
    Value pos = positions.empty() ? position(i) : positions[i];
    Value index = indexOf(i, pos);
    if (!valid) {
      items.push_back(load(b, Value(), index));
      continue;
    }
    Value inRange = inTile(b, loc, pos, *count);
    std::optional<int64_t> distance =
        firstAddress ? constantDistance(positions[0], pos) : std::nullopt;
    if (distance && fixedStride) {
      items.push_back(loadNonCoherentIf(b, loc, element, firstAddress,
                                        *distance * *fixedStride, inRange,
                                        fallback[i]));
      continue;
    }
    Value address;
    if (distance)
      address = *distance == 0
                    ? firstAddress
                    : Value(arith::AddIOp::create(
                          b, loc, firstAddress,
                          arith::MulIOp::create(
                              b, loc, strideBytes,
                              arith::ConstantIntOp::create(
                                  b, loc, b.getI64Type(), *distance))));
    auto guard = scf::IfOp::create(b, loc, element, inRange,
                                   /*withElseRegion=*/true);
    OpBuilder then = thenBuilder(b, guard);
    scf::YieldOp::create(then, loc, load(then, address, index));
    OpBuilder otherwise = elseBuilder(b, guard);
    scf::YieldOp::create(otherwise, loc, fallback[i]);
    items.push_back(guard.getResult(0));
  }
  return items;
}

void lowering::writeItems(OpBuilder &b, Location loc, Value memory, Value base,
                          Value valid, ArrayRef<Value> items,
                          IndexFn position) {
  std::optional<ValidCount> count;
  if (valid)
    count = validCount(b, loc, valid);
  SmallVector<Value> positions;
  ItemIndexFn indexOf =
      itemIndex(b, loc, memory, base, items.size(), position, positions);
  for (auto [i, item] : llvm::enumerate(items)) {
    Value pos = positions.empty() ? position(i) : positions[i];
    Value index = indexOf(i, pos);
    if (!valid) {
      memref::StoreOp::create(b, loc, item, memory, index);
      continue;
    }
    auto guard = scf::IfOp::create(b, loc, inTile(b, loc, pos, *count),
                                   /*withElseRegion=*/false);
    OpBuilder then = thenBuilder(b, guard);
    memref::StoreOp::create(then, loc, item, memory, index);
  }
}
