//===- LoadStore.cpp - coop.load and coop.store to memory accesses --------===//
//
// CUB's BlockLoad/BlockStore and WarpLoad/WarpStore: `direct` and `striped`
// access memory in their layout; `vectorize`, and `direct` from 32 bytes a
// thread, use vector accesses when the tile is unguarded, of unit stride
// and aligned (checked at run time; CUB's `direct` never does, and its
// item-at-a-time accesses at 8 or 16 items a thread reach a quarter of the
// vector ones' bandwidth on the H200); the transpose family accesses
// memory striped (warp-striped for the warp transposes) and exchanges
// through scratch into blocked order, a store the reverse.
//
//===----------------------------------------------------------------------===//

#include "TileHelpers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::lowering;

namespace {

//===----------------------------------------------------------------------===//
// Vector accesses
//===----------------------------------------------------------------------===//

/// Items per vector access: the widest power of two that divides the
/// thread's items and fits in 16 bytes (the widest sm_90 access).
int64_t vectorWidth(const TileGeometry &tile) {
  int64_t width = 1;
  while (tile.itemsPerThread % (width * 2) == 0 &&
         width * 2 * tile.elementBytes <= 16)
    width *= 2;
  return width;
}

/// True at run time when the tile may be accessed with vectors of `width`
/// items: unit stride and the tile start aligned to the vector.
Value vectorizable(OpBuilder &b, Location loc, Value memory, Value base,
                   const TileGeometry &tile, int64_t width) {
  Ix ix{b, loc};
  auto type = cast<MemRefType>(memory.getType());
  int64_t staticOffset;
  SmallVector<int64_t> strides;
  Value offset = ix.c(0), stride;
  if (failed(type.getStridesAndOffset(strides, staticOffset)) ||
      strides[0] != 1 || staticOffset != 0) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
    offset = metadata.getOffset();
    stride = metadata.getStrides()[0];
  }
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memory);
  Value address =
      ix.add(pointer, ix.mul(ix.add(offset, base), tile.elementBytes));
  Value ok = ix.eq(ix.rem(address, width * tile.elementBytes), 0);
  if (stride)
    ok = ix.both(ok, ix.eq(stride, 1));
  return ok;
}

/// The bytes a thread owns from which `direct` takes vector accesses. Below
/// them item-by-item accesses already ran at memcpy speed on the H200
/// (int32 128x4: 4236 against 4233 GB/s with vectors), and the vector path
/// and its fallback cost a call site 1.4 ms more to compile; at 32 bytes
/// vectors ran 1.6-3.7x faster.
constexpr int64_t kDirectVectorBytes = 32;

/// True when a tile is accessed with vectors of `width` items where
/// `vectorizable` holds: unguarded `vectorize` tiles of more than one item,
/// and `direct` ones of at least kDirectVectorBytes a thread.
bool usesVectors(Algorithm algorithm, Value valid, int64_t width,
                 const TileGeometry &tile) {
  if (valid || width == 1)
    return false;
  if (algorithm == Algorithm::direct)
    return tile.itemsPerThread * tile.elementBytes >= kDirectVectorBytes;
  return algorithm == Algorithm::vectorize;
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
                              Value base, Value rank, const TileGeometry &tile,
                              int64_t width, bool readOnly) {
  Ix ix{b, loc};
  Value view = contiguous(b, loc, memory);
  auto vectorType = VectorType::get({width}, tile.elementType);
  Value first = ix.add(base, ix.mul(rank, tile.itemsPerThread));
  SmallVector<Value> items;
  // PTX vectors of 2 or 4 elements, at most 16 bytes.
  bool nonCoherent = readOnly && readsNonCoherent(tile.elementType) &&
                     (width == 2 || width == 4) &&
                     width * tile.elementBytes <= 16;
  for (int64_t v = 0; v < tile.itemsPerThread / width; ++v) {
    if (nonCoherent) {
      llvm::append_range(
          items, loadNonCoherent(
                     b, loc, tile.elementType,
                     itemAddress(b, loc, view, ix.add(first, v * width)),
                     width));
      continue;
    }
    Value vec = vector::LoadOp::create(
        b, loc, vectorType, view, ValueRange{ix.add(first, v * width)},
        /*nontemporal=*/false,
        /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
    for (int64_t j = 0; j < width; ++j)
      items.push_back(
          vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{j}));
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
    vector::StoreOp::create(
        b, loc, vec, view, ValueRange{ix.add(first, v * width)},
        /*nontemporal=*/false,
        /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
  }
}

//===----------------------------------------------------------------------===//
// The transpose family
//===----------------------------------------------------------------------===//

/// True when the algorithm accesses memory warp-striped.
bool warpStripedMemory(Algorithm algorithm, const TileGeometry &tile) {
  return !tile.warpLike && algorithm != Algorithm::transpose;
}

/// The exchange between blocked order and the order the algorithm accesses
/// memory in; `op`'s scratch access says which phase uses which map.
FailureOr<SmallVector<Value>>
transpose(ConversionPatternRewriter &rewriter, CollectiveOpInterface op,
          Algorithm algorithm, const TileGeometry &tile, const TileThreads &t,
          ArrayRef<Value> items) {
  Location loc = op.getLoc();
  Ix ix{rewriter, loc};
  ScratchLayout layout = *op.getScratchLayout(tile);
  FailureOr<Value> scratch = scratchSlice(rewriter, op, tile, layout);
  if (failed(scratch))
    return failure();
  bool toBlocked = isa<LoadOp>(op);
  SlotMap memory =
      warpStripedMemory(algorithm, tile) ? SlotMap::warpStriped : SlotMap::striped;
  if (algorithm == Algorithm::warp_transpose_timesliced && !tile.warpLike)
    return timeSlicedWarpExchange(rewriter, loc, op, *scratch, tile, layout, t,
                                  items, toBlocked);
  ScratchAccess access = op.getScratchAccess(tile);
  SmallVector<Value> scatter =
      scratchSlots(ix, toBlocked ? memory : SlotMap::blocked, tile, layout, t);
  SmallVector<Value> gather =
      scratchSlots(ix, toBlocked ? SlotMap::blocked : memory, tile, layout, t);
  return exchangeThroughScratch(rewriter, loc, *scratch, items, scatter, gather,
                                [&](OpBuilder &b) {
                                  groupSync(b, loc, op, tile, access.groupLocal);
                                });
}

IndexFn memoryPositions(Ix ix, Algorithm algorithm, const TileGeometry &tile,
                        Value rank) {
  switch (algorithm) {
  case Algorithm::striped:
    return stripedPositions(ix, tile, rank);
  case Algorithm::transpose:
  case Algorithm::warp_transpose:
  case Algorithm::warp_transpose_timesliced:
    return warpStripedMemory(algorithm, tile)
               ? warpStripedPositions(ix, tile, rank)
               : stripedPositions(ix, tile, rank);
  default:
    return blockedPositions(ix, tile, rank);
  }
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct LoadLowering : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoadOp load, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileGeometry> tile = getTileGeometry(load);
    if (failed(tile))
      return failure();
    Location loc = load.getLoc();
    Ix ix{rewriter, loc};
    Algorithm algorithm = load.getAlgorithm();
    TileThreads t = tileThreads(rewriter, loc, load, *tile, adaptor.getOffset());
    Value source = adaptor.getSource(), payload = adaptor.getPayload();
    Value valid = adaptor.getValidItems();
    int64_t n = tile->itemsPerThread;

    // Slots past valid_items keep oob_default, or the payload's old value.
    SmallVector<Value> fallback;
    if (valid)
      fallback = adaptor.getOobDefault()
                     ? SmallVector<Value>(n, adaptor.getOobDefault())
                     : readPayload(rewriter, loc, payload, n);
    auto read = [&](OpBuilder &b, IndexFn at) {
      return readItems(b, loc, source, t.base, valid, fallback,
                       tile->elementType, n, at, load.getReadOnly());
    };

    SmallVector<Value> items;
    int64_t width = vectorWidth(*tile);
    if (usesVectors(algorithm, valid, width, *tile)) {
      Value ok = vectorizable(rewriter, loc, source, t.base, *tile, width);
      SmallVector<Type> types(n, tile->elementType);
      auto choice = scf::IfOp::create(rewriter, loc, types, ok, true);
      OpBuilder then = thenBuilder(rewriter, choice);
      scf::YieldOp::create(then, loc,
                           ValueRange(vectorRead(then, loc, source, t.base,
                                                 t.rank, *tile, width,
                                                 load.getReadOnly())));
      OpBuilder otherwise = elseBuilder(rewriter, choice);
      scf::YieldOp::create(
          otherwise, loc,
          ValueRange(read(otherwise, blockedPositions(Ix{otherwise, loc}, *tile,
                                                      t.rank))));
      items.assign(choice.getResults().begin(), choice.getResults().end());
    } else {
      items = read(rewriter, memoryPositions(ix, algorithm, *tile, t.rank));
    }
    if (usesScratch(algorithm)) {
      FailureOr<SmallVector<Value>> exchanged =
          transpose(rewriter, load, algorithm, *tile, t, items);
      if (failed(exchanged))
        return failure();
      items = std::move(*exchanged);
    }
    writePayload(rewriter, loc, payload, items);
    rewriter.eraseOp(load);
    return success();
  }
};

struct StoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp store, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileGeometry> tile = getTileGeometry(store);
    if (failed(tile))
      return failure();
    Location loc = store.getLoc();
    Ix ix{rewriter, loc};
    Algorithm algorithm = store.getAlgorithm();
    TileThreads t =
        tileThreads(rewriter, loc, store, *tile, adaptor.getOffset());
    Value destination = adaptor.getDestination();
    Value valid = adaptor.getValidItems();
    Value value = adaptor.getValue();
    SmallVector<Value> items =
        isa<MemRefType>(value.getType())
            ? readPayload(rewriter, loc, value, tile->itemsPerThread)
            : SmallVector<Value>{value};

    int64_t width = vectorWidth(*tile);
    if (usesVectors(algorithm, valid, width, *tile)) {
      Value ok = vectorizable(rewriter, loc, destination, t.base, *tile, width);
      auto choice = scf::IfOp::create(rewriter, loc, ok, /*withElseRegion=*/true);
      OpBuilder then = thenBuilder(rewriter, choice);
      vectorWrite(then, loc, destination, t.base, t.rank, *tile, width, items);
      OpBuilder otherwise = elseBuilder(rewriter, choice);
      writeItems(otherwise, loc, destination, t.base, valid, items,
                 blockedPositions(Ix{otherwise, loc}, *tile, t.rank));
      rewriter.eraseOp(store);
      return success();
    }
    if (usesScratch(algorithm)) {
      FailureOr<SmallVector<Value>> exchanged =
          transpose(rewriter, store, algorithm, *tile, t, items);
      if (failed(exchanged))
        return failure();
      items = std::move(*exchanged);
    }
    writeItems(rewriter, loc, destination, t.base, valid, items,
               memoryPositions(ix, algorithm, *tile, t.rank));
    rewriter.eraseOp(store);
    return success();
  }
};

} // namespace

void lowering::populateLoadStorePatterns(RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering>(patterns.getContext());
}
