//===- TileHelpers.cpp - what the coop lowering patterns share ------------===//

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
// Index arithmetic
//===----------------------------------------------------------------------===//

Value Ix::c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
Value Ix::c(Value like, int64_t v) {
  if (like.getType().isIndex())
    return c(v);
  return arith::ConstantIntOp::create(b, loc, like.getType(), v);
}
Value Ix::add(Value x, Value y) {
  if (matchPattern(x, m_Zero()))
    return y;
  if (matchPattern(y, m_Zero()))
    return x;
  return arith::AddIOp::create(b, loc, x, y);
}
Value Ix::add(Value x, int64_t y) { return y == 0 ? x : add(x, c(x, y)); }
Value Ix::sub(Value x, int64_t y) {
  return y == 0 ? x : Value(arith::SubIOp::create(b, loc, x, c(x, y)));
}
Value Ix::mul(Value x, int64_t y) {
  return y == 1 ? x : Value(arith::MulIOp::create(b, loc, x, c(x, y)));
}
Value Ix::div(Value x, int64_t y) {
  return y == 1 ? x : Value(arith::DivUIOp::create(b, loc, x, c(x, y)));
}
Value Ix::rem(Value x, int64_t y) {
  return y == 1 ? c(x, 0) : Value(arith::RemUIOp::create(b, loc, x, c(x, y)));
}
Value Ix::lt(Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
}
Value Ix::lt(Value x, int64_t y) { return lt(x, c(x, y)); }
Value Ix::ge(Value x, int64_t y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, x, c(x, y));
}
Value Ix::eq(Value x, int64_t y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(x, y));
}
Value Ix::both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
Value Ix::pad(Value x, const SlotPadding &padding) {
  switch (padding.kind) {
  case SlotPadding::Kind::none:
    return x;
  case SlotPadding::Kind::shiftAdd:
    return add(x, Value(arith::ShRUIOp::create(b, loc, x,
                                               c(x, kLogSharedMemoryBanks))));
  case SlotPadding::Kind::xorRow: {
    Value row = arith::ShRUIOp::create(b, loc, x, c(x, padding.rowShift));
    if (padding.rowScale)
      row = arith::ShLIOp::create(b, loc, row, c(x, padding.rowScale));
    Value low = arith::AndIOp::create(b, loc, row,
                                      c(x, (int64_t(1) << padding.bits) - 1));
    return arith::XOrIOp::create(b, loc, x, low);
  }
  }
  llvm_unreachable("unknown slot padding");
}
Value Ix::index(Value integer) {
  if (integer.getType().isIndex())
    return integer;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer);
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

Value lowering::linearThreadId(OpBuilder &b, Location loc, Operation *op) {
  Ix ix{b, loc};
  std::array<int64_t, 3> dims = *getKnownBlockDims(op);
  Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (dims[1] == 1 && dims[2] == 1)
    return x;
  Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value yz = y;
  if (dims[2] != 1) {
    Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
    yz = ix.add(y, ix.mul(z, dims[1]));
  }
  return ix.add(x, ix.mul(yz, dims[0]));
}

void lowering::warpSync(OpBuilder &b, Location loc, Operation *op,
                        int64_t width) {
  Value mask;
  if (width == kWarpThreads) {
    mask = arith::ConstantIntOp::create(b, loc, -1, 32);
  } else {
    Ix ix{b, loc};
    Value lane = ix.rem(linearThreadId(b, loc, op), kWarpThreads);
    Value shift = ix.mul(ix.div(lane, width), width);
    Value shift32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), shift);
    Value ones = arith::ConstantIntOp::create(b, loc, (1ll << width) - 1, 32);
    mask = arith::ShLIOp::create(b, loc, ones, shift32);
  }
  NVVM::SyncWarpOp::create(b, loc, mask);
}

TileThreads lowering::tileThreads(OpBuilder &b, Location loc, Operation *op,
                                  const TileGeometry &tile, Value offset) {
  Ix ix{b, loc};
  Value ltid = linearThreadId(b, loc, op);
  Value base = offset ? offset : ix.c(0);
  if (!tile.warpLike)
    return {ltid, base, ltid};
  Value group = ix.div(ltid, tile.groupSize);
  return {ix.rem(ltid, tile.groupSize),
          ix.add(base, ix.mul(group, tile.tileItems())), ltid};
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

IndexFn lowering::blockedPositions(Ix ix, const TileGeometry &tile,
                                   Value rank) {
  Value first = ix.mul(rank, tile.itemsPerThread);
  return [=](int64_t i) mutable { return ix.add(first, i); };
}

IndexFn lowering::stripedPositions(Ix ix, const TileGeometry &tile,
                                   Value rank) {
  return [=](int64_t i) mutable { return ix.add(rank, i * tile.groupSize); };
}

IndexFn lowering::warpStripedPositions(Ix ix, const TileGeometry &tile,
                                       Value rank) {
  Value warp = ix.div(rank, kWarpThreads);
  Value lane = ix.rem(rank, kWarpThreads);
  Value first = ix.add(ix.mul(warp, kWarpThreads * tile.itemsPerThread), lane);
  return [=](int64_t i) mutable { return ix.add(first, i * kWarpThreads); };
}

Value lowering::scratchRegion(Ix ix, const TileGeometry &tile,
                              const ScratchLayout &layout,
                              const TileThreads &t) {
  if (!tile.warpLike)
    return ix.c(0);
  return ix.mul(ix.div(t.linearTid, tile.groupSize), layout.groupStride);
}

SmallVector<Value> lowering::scratchSlots(Ix ix, SlotMap map,
                                          const TileGeometry &tile,
                                          const ScratchLayout &layout,
                                          const TileThreads &t) {
  Value region = scratchRegion(ix, tile, layout, t);
  IndexFn position;
  int64_t step; // between a thread's consecutive positions
  switch (map) {
  case SlotMap::blocked:
    position = blockedPositions(ix, tile, t.rank);
    step = 1;
    break;
  case SlotMap::striped:
    position = stripedPositions(ix, tile, t.rank);
    step = tile.groupSize;
    break;
  case SlotMap::warpStriped:
    position = warpStripedPositions(ix, tile, t.rank);
    step = kWarpThreads;
    break;
  case SlotMap::rakingGrid:
  case SlotMap::dataDependent:
    llvm_unreachable("only an exchange's slots have a position map");
  }
  // Where the padding allows, slot i is the first slot plus a constant: one
  // address and immediate offsets, where slots padded one by one stayed
  // distinct values that the compiler kept live across whatever lies between
  // a transpose's two phases (a 1024-thread float64 block scan's tile kernel:
  // 60 registers, 32 so).
  Value first = ix.add(region, ix.pad(position(0), layout.padding));
  SmallVector<Value> slots{first};
  for (int64_t i = 1; i < tile.itemsPerThread; ++i) {
    std::optional<int64_t> shift = layout.padding.shift(i * step);
    slots.push_back(shift ? ix.add(first, *shift)
                          : ix.add(region, ix.pad(position(i), layout.padding)));
  }
  return slots;
}

//===----------------------------------------------------------------------===//
// Scratch
//===----------------------------------------------------------------------===//

/// The function's scratch buffer (i8, workgroup memory), made on first use.
static FailureOr<Value> scratchBuffer(RewriterBase &rewriter, Operation *op) {
  auto fn = op->getParentOfType<FunctionOpInterface>();
  auto size = fn->getAttrOfType<IntegerAttr>(kScratchSizeAttr);
  auto alignment = fn->getAttrOfType<IntegerAttr>(kScratchAlignmentAttr);
  if (!size || !alignment)
    return op->emitOpError("has no scratch plan: run --coop-plan-scratch "
                           "before --convert-coop-to-gpu");
  // A host compiler may write the plan itself (placed sites): the buffer's
  // type and the global's alignment must be valid before they are built.
  if (size.getInt() < 0 || alignment.getInt() <= 0 ||
      !llvm::isPowerOf2_64(alignment.getInt()))
    return op->emitOpError("has an invalid scratch plan: ")
           << kScratchSizeAttr << " must be >= 0 and " << kScratchAlignmentAttr
           << " a positive power of two; got " << size.getInt() << " and "
           << alignment.getInt();
  MLIRContext *ctx = fn->getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    if (!fn.getArgAttr(i, kScratchArgumentAttr))
      continue;
    auto type = dyn_cast<MemRefType>(fn.getArgument(i).getType());
    if (!type || type.getRank() != 1 || !type.getElementType().isInteger(8) ||
        !type.getLayout().isIdentity() || type.getMemorySpace() != workgroup)
      return op->emitOpError("takes its scratch from argument ")
             << i << ", which must be a memref<?xi8, "
                "#gpu.address_space<workgroup>>; got "
             << fn.getArgument(i).getType();
    return Value(fn.getArgument(i));
  }
  Block &entry = fn.getFunctionBody().front();
  for (Operation &existing : entry)
    if (existing.hasAttr(kScratchBufferAttr))
      return existing.getResult(0);

  OpBuilder::InsertionGuard guard(rewriter);
  Location loc = fn.getLoc();
  Operation *made;
  if (fn->hasAttr(kDynamicSharedMemoryAttr)) {
    rewriter.setInsertionPointToStart(&entry);
    auto type = MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    made = gpu::DynamicSharedMemoryOp::create(rewriter, loc, type);
  } else {
    auto type = MemRefType::get({size.getInt()}, rewriter.getI8Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    if (!SymbolTable::getNearestSymbolTable(fn->getParentOp()))
      return op->emitOpError("needs a symbol table (a module) around its "
                             "function to hold the scratch buffer");
    std::string name;
    if (auto symbol = fn->getAttrOfType<StringAttr>(kScratchSymbolAttr))
      name = symbol.str();
    else
      name = (Twine("__coop_scratch_") +
              SymbolTable::getSymbolName(fn).getValue())
                 .str();
    rewriter.setInsertionPoint(fn);
    memref::GlobalOp::create(rewriter, loc, name,
                             rewriter.getStringAttr("private"), type,
                             Attribute(), /*constant=*/false,
                             rewriter.getI64IntegerAttr(alignment.getInt()));
    rewriter.setInsertionPointToStart(&entry);
    made = memref::GetGlobalOp::create(rewriter, loc, type, name);
  }
  made->setAttr(kScratchBufferAttr, rewriter.getUnitAttr());
  return made->getResult(0);
}

FailureOr<Value> lowering::scratchView(RewriterBase &rewriter, Operation *op,
                                       int64_t elements, Type elementType,
                                       int64_t byteOffset) {
  auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
  if (!offset)
    return op->emitOpError("has no scratch slice: run --coop-plan-scratch "
                           "before --convert-coop-to-gpu");
  if (offset.getInt() < 0)
    return op->emitOpError("has a negative ")
           << kScratchOffsetAttr << ": " << offset.getInt();
  FailureOr<Value> buffer = scratchBuffer(rewriter, op);
  if (failed(buffer))
    return failure();
  Location loc = op->getLoc();
  auto type = MemRefType::get(
      {elements}, elementType, MemRefLayoutAttrInterface(),
      cast<MemRefType>(buffer->getType()).getMemorySpace());
  Value shift =
      arith::ConstantIndexOp::create(rewriter, loc, offset.getInt() + byteOffset);
  return Value(memref::ViewOp::create(rewriter, loc, type, *buffer, shift,
                                      ValueRange{}));
}

FailureOr<Value> lowering::scratchSlice(RewriterBase &rewriter,
                                        CollectiveOpInterface op,
                                        const TileGeometry &tile,
                                        const ScratchLayout &layout) {
  return scratchView(rewriter, op, layout.elements, tile.elementType);
}

void lowering::groupSync(OpBuilder &b, Location loc, Operation *op,
                         const TileGeometry &tile, bool groupLocal) {
  if (tile.warpLike)
    warpSync(b, loc, op, tile.groupSize);
  else if (groupLocal)
    warpSync(b, loc, op, kWarpThreads);
  else
    gpu::BarrierOp::create(b, loc);
}

SmallVector<Value> lowering::exchangeThroughScratch(
    OpBuilder &b, Location loc, Value scratch, ArrayRef<Value> items,
    ArrayRef<Value> scatter, ArrayRef<Value> gather,
    llvm::function_ref<void(OpBuilder &)> sync, ArrayRef<Value> guards) {
  for (auto [i, item] : llvm::enumerate(items)) {
    if (guards.empty()) {
      memref::StoreOp::create(b, loc, item, scratch, scatter[i]);
      continue;
    }
    auto guard = scf::IfOp::create(b, loc, guards[i], /*withElseRegion=*/false);
    OpBuilder then = thenBuilder(b, guard);
    memref::StoreOp::create(then, loc, item, scratch, scatter[i]);
  }
  sync(b);
  SmallVector<Value> out;
  for (Value index : gather)
    out.push_back(memref::LoadOp::create(b, loc, scratch, index));
  return out;
}

SmallVector<Value> lowering::timeSlicedWarpExchange(
    OpBuilder &b, Location loc, Operation *op, Value scratch,
    const TileGeometry &tile, const ScratchLayout &layout, const TileThreads &t,
    ArrayRef<Value> items, bool toBlocked) {
  Ix ix{b, loc};
  // The lane's slots in one warp's tile.
  TileGeometry warpTile = tile;
  warpTile.groupSize = kWarpThreads;
  TileThreads lane{ix.rem(t.rank, kWarpThreads), t.base, t.linearTid};
  SmallVector<Value> blocked =
      scratchSlots(ix, SlotMap::blocked, warpTile, layout, lane);
  SmallVector<Value> striped =
      scratchSlots(ix, SlotMap::striped, warpTile, layout, lane);
  ArrayRef<Value> scatter = toBlocked ? striped : blocked;
  ArrayRef<Value> gather = toBlocked ? blocked : striped;
  // A plain compare, not a vote (Exchange.cpp's warpTurn): each turn holds a
  // warp barrier, and ptxas branches around it; on a vote it predicated the
  // turns instead (SASS of the 128x4 int32 copy: 40 predicated shared
  // accesses where there were none).
  Value warp = ix.div(t.rank, kWarpThreads);
  SmallVector<Value> current(items);
  SmallVector<Type> types(items.size(), tile.elementType);
  auto sync = [&](OpBuilder &sb) { warpSync(sb, loc, op, kWarpThreads); };
  for (int64_t s = 0; s < tile.blockSize / kWarpThreads; ++s) {
    // The previous turn's warp must be done reading the region.
    if (s > 0)
      gpu::BarrierOp::create(b, loc);
    auto turn = scf::IfOp::create(b, loc, types, ix.eq(warp, s),
                                  /*withElseRegion=*/true);
    OpBuilder then = thenBuilder(b, turn);
    scf::YieldOp::create(then, loc,
                         ValueRange(exchangeThroughScratch(
                             then, loc, scratch, current, scatter, gather, sync)));
    OpBuilder otherwise = elseBuilder(b, turn);
    scf::YieldOp::create(otherwise, loc, ValueRange(current));
    current.assign(turn.getResults().begin(), turn.getResults().end());
  }
  return current;
}
