//===- CoopToGPU.cpp - lower coop ops to gpu/nvvm/memref/vector -----------===//
//
// Every load and store is unrolled over its items: each payload slot is
// accessed at a constant index, so the payload is promoted to registers.
// Index names follow CUB: `rank` is the thread's rank in its group, `base` the
// element offset of its group's tile, `pos` an item's position in the tile.
//
//===----------------------------------------------------------------------===//

#include "coop/Conversion/Passes.h"
#include "coop/Dialect/Coop/Analysis/Scratch.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "convert-coop-to-gpu"

namespace mlir::coop {
#define GEN_PASS_DEF_CONVERTCOOPTOGPU
#include "coop/Conversion/Passes.h.inc"
} // namespace mlir::coop

using namespace mlir;
using namespace mlir::coop;

namespace {

/// Index arithmetic that folds the trivial cases as it builds.
struct Ix {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) {
    if (matchPattern(x, m_Zero()))
      return y;
    if (matchPattern(y, m_Zero()))
      return x;
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    if (y == 1)
      return x;
    return arith::MulIOp::create(b, loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : Value(arith::DivUIOp::create(b, loc, x, c(y)));
  }
  Value rem(Value x, int64_t y) {
    return y == 1 ? c(0) : Value(arith::RemUIOp::create(b, loc, x, c(y)));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(y));
  }
  /// CUB's SHR_ADD padding: one extra slot per 32 items.
  Value pad(Value x, bool enabled) {
    if (!enabled)
      return x;
    return add(x, Value(arith::ShRUIOp::create(b, loc, x, c(5))));
  }
};

using IndexFn = llvm::function_ref<Value(int64_t)>;


/// The lowering of one function's coop ops.
class FunctionLowering {
public:
  FunctionLowering(FunctionOpInterface fn) : fn(fn) {}

  LogicalResult run() {
    SmallVector<Operation *> ops;
    fn->walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp, BarrierOp>(op) &&
          op->getParentOfType<FunctionOpInterface>() == fn)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (failed(lower(op)))
        return failure();
      op->erase();
    }
    // Descriptors are dead once their users are lowered.
    SmallVector<Operation *> descriptors;
    fn->walk([&](Operation *op) {
      if (isa<ThisThreadOp, ThisWarpOp, ThisBlockOp, ThisClusterOp, ThisGridOp,
              GroupByOp, TempStorageOp>(op) &&
          op->getParentOfType<FunctionOpInterface>() == fn)
        descriptors.push_back(op);
    });
    for (Operation *op : llvm::reverse(descriptors)) {
      if (!op->use_empty())
        return op->emitOpError("is still used after lowering: coop values "
                               "cannot flow into other operations");
      op->erase();
    }
    for (StringRef attr : {kScratchSizeAttr, kScratchAlignmentAttr})
      fn->removeAttr(attr);
    return success();
  }

private:
  FunctionOpInterface fn;
  Value scratchBuffer;

  LogicalResult lower(Operation *op) {
    OpBuilder b(op);
    if (auto barrier = dyn_cast<BarrierOp>(op))
      return lowerBarrier(b, barrier);
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return failure();
    if (auto load = dyn_cast<LoadOp>(op))
      return lowerLoad(b, load, *tile);
    return lowerStore(b, cast<StoreOp>(op), *tile);
  }

  //===--------------------------------------------------------------------===//
  // Threads
  //===--------------------------------------------------------------------===//

  /// The thread's rank in the block, x fastest.
  Value linearThreadId(OpBuilder &b, Location loc) {
    Ix ix{b, loc};
    std::array<int64_t, 3> dims = *getKnownBlockDims(fn);
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

  /// Lanes [k*width, (k+1)*width) of the thread's physical warp, as a
  /// bar.warp.sync member mask.
  Value memberMask(OpBuilder &b, Location loc, int64_t width) {
    if (width == kWarpThreads)
      return arith::ConstantIntOp::create(b, loc, -1, 32);
    Ix ix{b, loc};
    Value lane = ix.rem(linearThreadId(b, loc), kWarpThreads);
    Value shift = ix.mul(ix.div(lane, width), width);
    Value shift32 =
        arith::IndexCastUIOp::create(b, loc, b.getI32Type(), shift);
    Value ones = arith::ConstantIntOp::create(b, loc, (1ll << width) - 1, 32);
    return arith::ShLIOp::create(b, loc, ones, shift32);
  }

  void warpSync(OpBuilder &b, Location loc, int64_t width) {
    NVVM::SyncWarpOp::create(b, loc, memberMask(b, loc, width));
  }

  LogicalResult lowerBarrier(OpBuilder &b, BarrierOp barrier) {
    Location loc = barrier.getLoc();
    GroupType group = barrier.getGroup().getType();
    switch (group.getKind()) {
    case GroupKind::thread:
      return success();
    case GroupKind::warp:
    case GroupKind::threads_within_warp:
      if (!getKnownBlockDims(fn) && group.getKind() != GroupKind::warp)
        return barrier.emitOpError("needs the block size to find its lanes: "
                                   "set known_block_size");
      if (group.getKind() == GroupKind::warp) {
        NVVM::SyncWarpOp::create(
            b, loc, arith::ConstantIntOp::create(b, loc, -1, 32));
        return success();
      }
      warpSync(b, loc, group.getCount());
      return success();
    case GroupKind::block:
      gpu::BarrierOp::create(b, loc);
      return success();
    case GroupKind::warps_within_block: {
      std::optional<int64_t> blockSize = getKnownBlockSize(barrier);
      if (!blockSize)
        return barrier.emitOpError("needs the block size to number its "
                                   "named barriers: set known_block_size");
      int64_t warps = *blockSize / kWarpThreads, k = group.getCount();
      int64_t groups = llvm::divideCeil(warps, k);
      if (groups > 15)
        return barrier.emitOpError("needs ")
               << groups << " named barriers but a block has 15 (besides "
               << "barrier 0); use groups of at least "
               << llvm::divideCeil(warps, 15) << " warps";
      Ix ix{b, loc};
      Value warp = ix.div(linearThreadId(b, loc), kWarpThreads);
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
    case GroupKind::cluster:
      NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
      NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
      return success();
    case GroupKind::grid:
      return barrier.emitOpError("cannot synchronize a grid");
    }
    return failure();
  }

  //===--------------------------------------------------------------------===//
  // Tiles
  //===--------------------------------------------------------------------===//

  /// Where one thread's tile lives and who it is in its group.
  struct TileThreads {
    Value rank;       // rank in the group
    Value base;       // element index of the group's tile in memory
    Value linearTid;  // rank in the block
  };

  TileThreads threads(OpBuilder &b, Location loc, const TileGeometry &tile,
                      Value offset) {
    Ix ix{b, loc};
    Value ltid = linearThreadId(b, loc);
    Value base = offset ? offset : ix.c(0);
    if (!tile.warpLike)
      return {ltid, base, ltid};
    Value group = ix.div(ltid, tile.groupSize);
    return {ix.rem(ltid, tile.groupSize),
            ix.add(base, ix.mul(group, tile.tileItems())), ltid};
  }

  /// The items' positions in the tile for each memory layout.
  std::function<Value(int64_t)> blocked(Ix ix, const TileGeometry &tile,
                                        Value rank) {
    Value first = ix.mul(rank, tile.itemsPerThread);
    return [=](int64_t i) mutable { return ix.add(first, i); };
  }
  std::function<Value(int64_t)> striped(Ix ix, const TileGeometry &tile,
                                        Value rank) {
    return [=](int64_t i) mutable { return ix.add(rank, i * tile.groupSize); };
  }
  /// Warp-striped (CUB's LoadDirectWarpStriped): each warp owns a
  /// contiguous 32 * ipt segment of the tile, striped across its lanes.
  std::function<Value(int64_t)> warpStriped(Ix ix, const TileGeometry &tile,
                                            Value rank) {
    Value warp = ix.div(rank, kWarpThreads);
    Value lane = ix.rem(rank, kWarpThreads);
    Value first = ix.add(ix.mul(warp, kWarpThreads * tile.itemsPerThread), lane);
    return [=](int64_t i) mutable { return ix.add(first, i * kWarpThreads); };
  }

  /// Reads the tile's items at `position` (guarded by `valid`; slots past it
  /// take `fallback`).
  SmallVector<Value> readItems(OpBuilder &b, Location loc, Value memory,
                               Value base, Value valid,
                               ArrayRef<Value> fallback, Type element,
                               int64_t n, IndexFn position) {
    Ix ix{b, loc};
    SmallVector<Value> items;
    for (int64_t i = 0; i < n; ++i) {
      Value pos = position(i);
      Value index = ix.add(base, pos);
      if (!valid) {
        items.push_back(memref::LoadOp::create(b, loc, memory, index));
        continue;
      }
      auto guard = scf::IfOp::create(b, loc, element, ix.lt(pos, valid),
                                     /*withElseRegion=*/true);
      OpBuilder then = guard.getThenBodyBuilder();
      scf::YieldOp::create(then, loc,
                           Value(memref::LoadOp::create(then, loc, memory, index)));
      OpBuilder otherwise = guard.getElseBodyBuilder();
      scf::YieldOp::create(otherwise, loc, fallback[i]);
      items.push_back(guard.getResult(0));
    }
    return items;
  }

  void writeItems(OpBuilder &b, Location loc, Value memory, Value base,
                  Value valid, ArrayRef<Value> items, IndexFn position) {
    Ix ix{b, loc};
    for (auto [i, item] : llvm::enumerate(items)) {
      Value pos = position(i);
      Value index = ix.add(base, pos);
      if (!valid) {
        memref::StoreOp::create(b, loc, item, memory, index);
        continue;
      }
      auto guard = scf::IfOp::create(b, loc, ix.lt(pos, valid),
                                     /*withElseRegion=*/false);
      OpBuilder then = guard.getThenBodyBuilder();
      memref::StoreOp::create(then, loc, item, memory, index);
    }
  }

  //===--------------------------------------------------------------------===//
  // Vector accesses
  //===--------------------------------------------------------------------===//

  /// Items per vector access: the widest power of two that divides the
  /// thread's items and fits in 16 bytes (the widest sm_90 access).
  static int64_t vectorWidth(const TileGeometry &tile) {
    int64_t width = 1;
    while (tile.itemsPerThread % (width * 2) == 0 &&
           width * 2 * tile.elementBytes <= 16)
      width *= 2;
    return width;
  }

  /// True at run time when the tile may be accessed with vectors of
  /// `width` items: unit stride and the tile start aligned to the vector.
  Value vectorizable(OpBuilder &b, Location loc, Value memory, Value base,
                     const TileGeometry &tile, int64_t width) {
    Ix ix{b, loc};
    auto type = cast<MemRefType>(memory.getType());
    int64_t staticOffset;
    SmallVector<int64_t> strides;
    Value offset = ix.c(0), stride;
    if (succeeded(type.getStridesAndOffset(strides, staticOffset)) &&
        strides[0] == 1 && staticOffset == 0) {
      stride = nullptr;
    } else {
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
      offset = metadata.getOffset();
      stride = metadata.getStrides()[0];
    }
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memory);
    Value address =
        ix.add(pointer, ix.mul(ix.add(offset, base), tile.elementBytes));
    Value misalignment = ix.rem(address, width * tile.elementBytes);
    Value ok = ix.eq(misalignment, 0);
    if (stride)
      ok = arith::AndIOp::create(b, loc, ok, ix.eq(stride, 1));
    return ok;
  }

  /// `memory` as a unit-stride memref, which vector accesses require.
  Value contiguous(OpBuilder &b, Location loc, Value memory) {
    auto type = cast<MemRefType>(memory.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (succeeded(type.getStridesAndOffset(strides, offset)) && strides[0] == 1)
      return memory;
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
    auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                         ArrayRef<int64_t>{1});
    auto resultType = MemRefType::get({ShapedType::kDynamic},
                                      type.getElementType(), layout,
                                      type.getMemorySpace());
    return memref::ReinterpretCastOp::create(
        b, loc, resultType, metadata.getBaseBuffer(),
        OpFoldResult(metadata.getOffset()),
        ArrayRef<OpFoldResult>{OpFoldResult(metadata.getSizes()[0])},
        ArrayRef<OpFoldResult>{OpFoldResult(b.getIndexAttr(1))});
  }

  SmallVector<Value> vectorRead(OpBuilder &b, Location loc, Value memory,
                                Value base, Value rank,
                                const TileGeometry &tile, int64_t width) {
    Ix ix{b, loc};
    Value view = contiguous(b, loc, memory);
    auto vectorType = VectorType::get({width}, tile.elementType);
    Value first = ix.add(base, ix.mul(rank, tile.itemsPerThread));
    SmallVector<Value> items;
    for (int64_t v = 0; v < tile.itemsPerThread / width; ++v) {
      Value vec = vector::LoadOp::create(
          b, loc, vectorType, view, ValueRange{ix.add(first, v * width)},
          /*nontemporal=*/false,
          /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
      for (int64_t j = 0; j < width; ++j)
        items.push_back(vector::ExtractOp::create(b, loc, vec,
                                                  ArrayRef<int64_t>{j}));
    }
    return items;
  }

  void vectorWrite(OpBuilder &b, Location loc, Value memory, Value base,
                   Value rank, const TileGeometry &tile, int64_t width,
                   ArrayRef<Value> items) {
    Ix ix{b, loc};
    Value view = contiguous(b, loc, memory);
    auto vectorType = VectorType::get({width}, tile.elementType);
    Value first = ix.add(base, ix.mul(rank, tile.itemsPerThread));
    for (int64_t v = 0; v < tile.itemsPerThread / width; ++v) {
      Value vec = vector::FromElementsOp::create(
          b, loc, vectorType, items.slice(v * width, width));
      vector::StoreOp::create(b, loc, vec, view,
                              ValueRange{ix.add(first, v * width)},
                              /*nontemporal=*/false,
                              /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
    }
  }

  //===--------------------------------------------------------------------===//
  // Scratch exchanges
  //===--------------------------------------------------------------------===//

  /// The function's scratch buffer (i8, workgroup memory), made on first use.
  FailureOr<Value> buffer(Operation *op) {
    if (scratchBuffer)
      return scratchBuffer;
    auto size = fn->getAttrOfType<IntegerAttr>(kScratchSizeAttr);
    auto alignment = fn->getAttrOfType<IntegerAttr>(kScratchAlignmentAttr);
    if (!size || !alignment)
      return op->emitOpError("has no scratch plan: run --coop-plan-scratch "
                             "before --convert-coop-to-gpu");
    MLIRContext *ctx = fn->getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
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
      scratchBuffer = fn.getArgument(i);
      return scratchBuffer;
    }
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&fn.getFunctionBody().front());
    Location loc = fn.getLoc();
    if (fn->hasAttr(kDynamicSharedMemoryAttr)) {
      auto type = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), workgroup);
      scratchBuffer = gpu::DynamicSharedMemoryOp::create(b, loc, type);
      return scratchBuffer;
    }
    auto type = MemRefType::get({size.getInt()}, b.getI8Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    Operation *tableOp = SymbolTable::getNearestSymbolTable(fn->getParentOp());
    if (!tableOp)
      return op->emitOpError("needs a symbol table (a module) around its "
                             "function to hold the scratch buffer");
    SymbolTable table(tableOp);
    OpBuilder global(ctx);
    global.setInsertionPoint(fn);
    auto name = (Twine("__coop_scratch_") + SymbolTable::getSymbolName(fn).getValue()).str();
    auto globalOp = memref::GlobalOp::create(
        global, loc, name, global.getStringAttr("private"), type,
        Attribute(), /*constant=*/false,
        global.getI64IntegerAttr(alignment.getInt()));
    table.insert(globalOp);
    scratchBuffer = memref::GetGlobalOp::create(b, loc, type, globalOp.getSymName());
    return scratchBuffer;
  }

  /// The op's slice of scratch as `elements` items of its element type.
  FailureOr<Value> slice(OpBuilder &b, Operation *op, const TileGeometry &tile,
                         int64_t elements) {
    auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
    if (!offset)
      return op->emitOpError("has no scratch slice: run --coop-plan-scratch "
                             "before --convert-coop-to-gpu");
    FailureOr<Value> buf = buffer(op);
    if (failed(buf))
      return failure();
    Location loc = op->getLoc();
    auto type = MemRefType::get(
        {elements}, tile.elementType, MemRefLayoutAttrInterface(),
        cast<MemRefType>(buf->getType()).getMemorySpace());
    Value shift = arith::ConstantIndexOp::create(b, loc, offset.getInt());
    return Value(memref::ViewOp::create(b, loc, type, *buf, shift, ValueRange{}));
  }

  /// Scatter `items` to scratch at `scatter[i]`, synchronize, gather from
  /// `gather[i]` (indices already padded).
  SmallVector<Value> exchange(OpBuilder &b, Location loc, Value scratch,
                              ArrayRef<Value> items, ArrayRef<Value> scatter,
                              ArrayRef<Value> gather,
                              llvm::function_ref<void(OpBuilder &)> sync) {
    for (auto [item, index] : llvm::zip(items, scatter))
      memref::StoreOp::create(b, loc, item, scratch, index);
    sync(b);
    SmallVector<Value> out;
    for (Value index : gather)
      out.push_back(memref::LoadOp::create(b, loc, scratch, index));
    return out;
  }

  enum class Direction { toBlocked, fromBlocked };

  /// Exchanges between blocked order and the order the algorithm accesses
  /// memory in (striped, or warp-striped for the warp transposes).
  FailureOr<SmallVector<Value>> transpose(OpBuilder &b, Operation *op,
                                          const TileGeometry &tile,
                                          const TileThreads &t,
                                          ArrayRef<Value> items,
                                          Direction direction) {
    Location loc = op->getLoc();
    Ix ix{b, loc};
    ScratchLayout layout = *getScratchLayout(tile);
    FailureOr<Value> scratch = slice(b, op, tile, layout.elements);
    if (failed(scratch))
      return failure();
    int64_t n = tile.itemsPerThread;
    bool sliced = tile.algorithm == Algorithm::warp_transpose_timesliced;

    // Scratch indices of the blocked and the memory-order slots. Built here,
    // before any time-slice branch, so they dominate every use.
    SmallVector<Value> blockedAt, memoryAt;
    Value warp;
    if (tile.warpLike || tile.algorithm == Algorithm::transpose) {
      // cub::WarpExchange / cub::BlockExchange: striped <-> blocked. Each
      // warp group uses its own region of the slice.
      Value region = ix.c(0);
      if (tile.warpLike)
        region = ix.mul(ix.div(t.linearTid, tile.groupSize), layout.groupStride);
      Value first = ix.add(region, ix.mul(t.rank, n));
      Value firstStriped = ix.add(region, t.rank);
      for (int64_t i = 0; i < n; ++i) {
        blockedAt.push_back(ix.pad(ix.add(first, i), layout.shiftPadding));
        memoryAt.push_back(
            ix.pad(ix.add(firstStriped, i * tile.groupSize), layout.shiftPadding));
      }
    } else {
      // cub::BlockExchange: warp-striped <-> blocked, each warp in its own
      // region, or (time-sliced) one warp at a time through one region.
      warp = ix.div(t.rank, kWarpThreads);
      Value lane = ix.rem(t.rank, kWarpThreads);
      Value region = sliced ? ix.c(0) : ix.mul(warp, kWarpThreads * n);
      Value first = ix.add(region, ix.mul(lane, n));
      Value firstStriped = ix.add(region, lane);
      for (int64_t i = 0; i < n; ++i) {
        blockedAt.push_back(ix.pad(ix.add(first, i), layout.shiftPadding));
        memoryAt.push_back(
            ix.pad(ix.add(firstStriped, i * kWarpThreads), layout.shiftPadding));
      }
    }
    bool toBlocked = direction == Direction::toBlocked;
    ArrayRef<Value> scatter = toBlocked ? memoryAt : blockedAt;
    ArrayRef<Value> gather = toBlocked ? blockedAt : memoryAt;
    auto sync = [&](OpBuilder &sb) {
      if (tile.warpLike)
        warpSync(sb, loc, tile.groupSize);
      else if (tile.algorithm == Algorithm::transpose)
        gpu::BarrierOp::create(sb, loc);
      else
        warpSync(sb, loc, kWarpThreads);
    };
    if (!sliced)
      return exchange(b, loc, *scratch, items, scatter, gather, sync);

    SmallVector<Value> current(items);
    SmallVector<Type> types(n, tile.elementType);
    int64_t warps = tile.blockSize / kWarpThreads;
    for (int64_t s = 0; s < warps; ++s) {
      // The previous slice's warp must be done reading the region.
      if (s > 0)
        gpu::BarrierOp::create(b, loc);
      auto turn = scf::IfOp::create(b, loc, types, ix.eq(warp, s),
                                    /*withElseRegion=*/true);
      OpBuilder then = turn.getThenBodyBuilder();
      scf::YieldOp::create(
          then, loc,
          ValueRange(exchange(then, loc, *scratch, current, scatter, gather, sync)));
      OpBuilder otherwise = turn.getElseBodyBuilder();
      scf::YieldOp::create(otherwise, loc, ValueRange(current));
      current.assign(turn.getResults().begin(), turn.getResults().end());
    }
    return current;
  }

  //===--------------------------------------------------------------------===//
  // Load and store
  //===--------------------------------------------------------------------===//

  LogicalResult lowerLoad(OpBuilder &b, LoadOp load, const TileGeometry &tile) {
    Location loc = load.getLoc();
    Ix ix{b, loc};
    TileThreads t = threads(b, loc, tile, load.getOffset());
    Value source = load.getSource(), payload = load.getPayload();
    Value valid = load.getValidItems();
    int64_t n = tile.itemsPerThread;

    // Slots past valid_items keep oob_default, or the payload's old value.
    SmallVector<Value> fallback;
    if (valid)
      for (int64_t i = 0; i < n; ++i)
        fallback.push_back(load.getOobDefault()
                               ? load.getOobDefault()
                               : Value(memref::LoadOp::create(
                                     b, loc, payload, ValueRange{ix.c(i)})));
    auto read = [&](OpBuilder &rb, std::function<Value(int64_t)> at) {
      return readItems(rb, loc, source, t.base, valid, fallback,
                       tile.elementType, n, at);
    };

    SmallVector<Value> items;
    switch (tile.algorithm) {
    case Algorithm::direct:
      items = read(b, blocked(ix, tile, t.rank));
      break;
    case Algorithm::striped:
      items = read(b, striped(ix, tile, t.rank));
      break;
    case Algorithm::vectorize: {
      int64_t width = vectorWidth(tile);
      if (valid || width == 1) {
        items = read(b, blocked(ix, tile, t.rank));
        break;
      }
      Value ok = vectorizable(b, loc, source, t.base, tile, width);
      SmallVector<Type> types(n, tile.elementType);
      auto choice = scf::IfOp::create(b, loc, types, ok, true);
      OpBuilder then = choice.getThenBodyBuilder();
      scf::YieldOp::create(then, loc,
                           ValueRange(vectorRead(then, loc, source, t.base,
                                                 t.rank, tile, width)));
      OpBuilder otherwise = choice.getElseBodyBuilder();
      Ix ox{otherwise, loc};
      scf::YieldOp::create(otherwise, loc,
                           ValueRange(read(otherwise, blocked(ox, tile, t.rank))));
      items.assign(choice.getResults().begin(), choice.getResults().end());
      break;
    }
    case Algorithm::transpose:
    case Algorithm::warp_transpose:
    case Algorithm::warp_transpose_timesliced: {
      bool warpStripedMemory = !tile.warpLike && tile.algorithm != Algorithm::transpose;
      SmallVector<Value> loaded =
          read(b, warpStripedMemory ? warpStriped(ix, tile, t.rank)
                                    : striped(ix, tile, t.rank));
      FailureOr<SmallVector<Value>> exchanged =
          transpose(b, load, tile, t, loaded, Direction::toBlocked);
      if (failed(exchanged))
        return failure();
      items = std::move(*exchanged);
      break;
    }
    }
    for (auto [i, item] : llvm::enumerate(items))
      memref::StoreOp::create(b, loc, item, payload, ValueRange{ix.c(i)});
    return success();
  }

  LogicalResult lowerStore(OpBuilder &b, StoreOp store,
                           const TileGeometry &tile) {
    Location loc = store.getLoc();
    Ix ix{b, loc};
    TileThreads t = threads(b, loc, tile, store.getOffset());
    Value destination = store.getDestination();
    Value valid = store.getValidItems();
    int64_t n = tile.itemsPerThread;

    SmallVector<Value> items;
    if (isa<MemRefType>(store.getValue().getType())) {
      for (int64_t i = 0; i < n; ++i)
        items.push_back(memref::LoadOp::create(b, loc, store.getValue(),
                                               ValueRange{ix.c(i)}));
    } else {
      items.push_back(store.getValue());
    }
    auto write = [&](OpBuilder &wb, ArrayRef<Value> values,
                     std::function<Value(int64_t)> at) {
      writeItems(wb, loc, destination, t.base, valid, values, at);
    };

    switch (tile.algorithm) {
    case Algorithm::direct:
      write(b, items, blocked(ix, tile, t.rank));
      return success();
    case Algorithm::striped:
      write(b, items, striped(ix, tile, t.rank));
      return success();
    case Algorithm::vectorize: {
      int64_t width = vectorWidth(tile);
      if (valid || width == 1) {
        write(b, items, blocked(ix, tile, t.rank));
        return success();
      }
      Value ok = vectorizable(b, loc, destination, t.base, tile, width);
      auto choice = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
      OpBuilder then = choice.getThenBodyBuilder();
      vectorWrite(then, loc, destination, t.base, t.rank, tile, width, items);
      OpBuilder otherwise = choice.getElseBodyBuilder();
      Ix ox{otherwise, loc};
      write(otherwise, items, blocked(ox, tile, t.rank));
      return success();
    }
    case Algorithm::transpose:
    case Algorithm::warp_transpose:
    case Algorithm::warp_transpose_timesliced: {
      FailureOr<SmallVector<Value>> exchanged =
          transpose(b, store, tile, t, items, Direction::fromBlocked);
      if (failed(exchanged))
        return failure();
      bool warpStripedMemory = !tile.warpLike && tile.algorithm != Algorithm::transpose;
      write(b, *exchanged, warpStripedMemory ? warpStriped(ix, tile, t.rank)
                                             : striped(ix, tile, t.rank));
      return success();
    }
    }
    return failure();
  }
};

struct ConvertCoopToGPU : coop::impl::ConvertCoopToGPUBase<ConvertCoopToGPU> {
  void runOnOperation() override {
    SmallVector<FunctionOpInterface> functions;
    getOperation()->walk([&](FunctionOpInterface fn) { functions.push_back(fn); });
    for (FunctionOpInterface fn : functions)
      if (failed(FunctionLowering(fn).run()))
        return signalPassFailure();
    WalkResult leftover = getOperation()->walk([](Operation *op) {
      if (isa<CoopDialect>(op->getDialect())) {
        op->emitOpError("was not lowered: coop ops must be inside a function");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
