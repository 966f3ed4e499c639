//===- LoadStore.cpp - coop.load and coop.store to memory accesses --------===//
//
// CUB's BlockLoad/BlockStore and WarpLoad/WarpStore: `direct` and `striped`
// access memory in their layout; `vectorize`, and `direct` from 32 bytes a
// thread, use vector accesses when the tile is unguarded, of unit stride
// and aligned (checked at run time; CUB's `direct` never does, and its
// item-at-a-time accesses at 8 or 16 items a thread reach a quarter of the
// vector ones' bandwidth on the H200). Even a thread's own vectors lose
// bandwidth from two of them (a warp's access spans 32 x the thread's
// bytes), so where the thread owns a power of two of 16-byte vectors the
// warp reads its segment coalesced and exchanges it into blocked order with
// shuffles (the register transpose; stores the reverse). The transpose
// family accesses memory striped (warp-striped for the warp transposes) and
// exchanges through scratch into blocked order, a store the reverse.
//
//===----------------------------------------------------------------------===//

#include "Combining.h"
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

/// `count` vectors of `width` items, vector `v` starting at item `start(v)`.
SmallVector<Value> vectorRead(OpBuilder &b, Location loc, Value memory,
                              IndexFn start, int64_t count,
                              const TileGeometry &tile, int64_t width,
                              bool readOnly) {
  Value view = contiguous(b, loc, memory);
  auto vectorType = VectorType::get({width}, tile.elementType);
  SmallVector<Value> items;
  // PTX vectors of 2 or 4 elements, at most 16 bytes.
  bool nonCoherent = readOnly && readsNonCoherent(tile.elementType) &&
                     (width == 2 || width == 4) &&
                     width * tile.elementBytes <= 16;
  for (int64_t v = 0; v < count; ++v) {
    if (nonCoherent) {
      llvm::append_range(items,
                         loadNonCoherent(b, loc, tile.elementType,
                                         itemAddress(b, loc, view, start(v)),
                                         width));
      continue;
    }
    Value vec = vector::LoadOp::create(
        b, loc, vectorType, view, ValueRange{start(v)},
        /*nontemporal=*/false,
        /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
    for (int64_t j = 0; j < width; ++j)
      items.push_back(
          vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{j}));
  }
  return items;
}

/// Stores `items` as vectors of `width`, vector `v` at item `start(v)`.
void vectorWrite(OpBuilder &b, Location loc, Value memory, IndexFn start,
                 const TileGeometry &tile, int64_t width,
                 ArrayRef<Value> items) {
  Value view = contiguous(b, loc, memory);
  auto vectorType = VectorType::get({width}, tile.elementType);
  for (int64_t v = 0; v < (int64_t)items.size() / width; ++v) {
    Value vec = vector::FromElementsOp::create(b, loc, vectorType,
                                               items.slice(v * width, width));
    vector::StoreOp::create(
        b, loc, vec, view, ValueRange{start(v)},
        /*nontemporal=*/false,
        /*alignment=*/llvm::MaybeAlign(width * tile.elementBytes));
  }
}

//===----------------------------------------------------------------------===//
// The register transpose
//===----------------------------------------------------------------------===//

/// The widest vector access, and the bytes a thread owns from which the
/// register transpose replaces blocked vector accesses. On the H200 the
/// blocked ones ran at 91-94 % of memcpy at 32 bytes, 67-74 % at 64 and 45 %
/// at 128; the transpose at 96-100 % from 32 bytes. It costs a 32-byte site
/// about 5-10 ms more to compile, which the bandwidth outweighs for a
/// memory-bound tile.
constexpr int64_t kVectorBytes = 16;
constexpr int64_t kRegisterTransposeBytes = 32;

/// The lanes of the segment a blocked tile is exchanged in by the register
/// transpose, or 0 where it is not used. The segment is the warp (block
/// tiles) or the logical warp. Its `lanes` threads own `vectors` 16-byte
/// vectors each; the schedule needs both to be powers of two with
/// `vectors <= lanes`, and a block of whole warps (a block tile's shuffles
/// take all 32 lanes). Items are 32- or 64-bit (a shuffle moves 32 bits).
int64_t registerTransposeLanes(const TileGeometry &tile) {
  int64_t bytes = tile.itemsPerThread * tile.elementBytes;
  int64_t vectors = bytes / kVectorBytes;
  int64_t lanes = tile.warpLike ? tile.groupSize : kWarpThreads;
  bool wordItems = tile.elementBytes == 4 || tile.elementBytes == 8;
  if (!wordItems || bytes % kVectorBytes != 0 ||
      bytes < kRegisterTransposeBytes || !llvm::isPowerOf2_64(vectors) ||
      vectors > lanes || tile.blockSize % kWarpThreads != 0)
    return 0;
  return lanes;
}

/// One thread's 16-byte vectors, each a list of its items.
using Vectors = SmallVector<SmallVector<Value>>;

Vectors splitVectors(ArrayRef<Value> items, int64_t width) {
  Vectors vectors;
  for (int64_t v = 0; v < (int64_t)items.size() / width; ++v)
    vectors.emplace_back(items.slice(v * width, width));
  return vectors;
}

SmallVector<Value> joinVectors(const Vectors &vectors) {
  SmallVector<Value> items;
  for (const SmallVector<Value> &vector : vectors)
    llvm::append_range(items, vector);
  return items;
}

/// `vectors` rotated by the run-time `amount` (< their count, a power of
/// two): result[i] = vectors[(i + amount) % n] (`left`), or
/// vectors[(i - amount) mod n]. One select an item per bit of the count.
Vectors rotate(OpBuilder &b, Location loc, Vectors vectors, Value amount,
               bool left) {
  Ix ix{b, loc};
  int64_t n = vectors.size();
  for (int64_t step = 1; step < n; step *= 2) {
    Value bit = arith::AndIOp::create(b, loc, amount, ix.c(amount, step));
    Value taken = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                        ix.c(amount, 0));
    Vectors rotated(n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t from = left ? (i + step) % n : (i - step + n) % n;
      for (auto [kept, moved] : llvm::zip(vectors[i], vectors[from]))
        rotated[i].push_back(
            arith::SelectOp::create(b, loc, taken, moved, kept));
    }
    vectors = std::move(rotated);
  }
  return vectors;
}

/// Where a thread stands in the register transpose of its segment of
/// `lanes` lanes, each owning `vectors` vectors (all i32). Vector `g` of the
/// segment is round `g / lanes` of lane `g % lanes` in memory order, and
/// slot `g % vectors` of lane `g / vectors` in blocked order.
struct TransposeLane {
  int64_t lanes, vectors;
  Value lane;      // in the segment
  Value firstLane; // the segment's first lane in the warp
  Value mask;      // the segment's lanes: logical warps of one warp may
                   // take different paths (their tiles' alignments differ)
  Value segment;   // item index of the segment's first item in the tile

  /// `lane % vectors`: the rotation of a sender's rounds that makes every
  /// shuffle step send one static register.
  Value laneInVector(Ix ix) const { return ix.rem(lane, vectors); }
  /// The round holding this lane's blocked vectors.
  Value ownRound(Ix ix) const { return ix.div(lane, lanes / vectors); }
  Value warpLane(Ix ix, Value segmentLane) const {
    return ix.add(firstLane, segmentLane);
  }
};

TransposeLane transposeLane(OpBuilder &b, Location loc,
                            const TileGeometry &tile, const TileThreads &t,
                            int64_t lanes) {
  Ix ix{b, loc};
  Value rank = asI32(b, loc, t.rank);
  Value lane = ix.rem(rank, lanes);
  Value firstLane =
      tile.warpLike
          ? arith::SubIOp::create(
                b, loc, ix.rem(asI32(b, loc, t.linearTid), kWarpThreads), lane)
                .getResult()
          : ix.c(lane, 0);
  Value mask = arith::ConstantIntOp::create(
      b, loc, lanes == kWarpThreads ? -1 : (int64_t(1) << lanes) - 1, 32);
  if (lanes != kWarpThreads)
    mask = arith::ShLIOp::create(b, loc, mask, firstLane);
  Value segment = ix.mul(ix.index(arith::SubIOp::create(b, loc, rank, lane)),
                         tile.itemsPerThread);
  int64_t vectors = tile.itemsPerThread * tile.elementBytes / kVectorBytes;
  return {lanes, vectors, lane, firstLane, mask, segment};
}

/// The item index of round `k`'s vector of this lane.
IndexFn roundStarts(Ix ix, const TransposeLane &p, Value base, int64_t width) {
  Value first = ix.add(ix.add(base, p.segment),
                       ix.mul(ix.index(p.lane), width));
  return [=](int64_t k) mutable { return ix.add(first, k * p.lanes * width); };
}

/// Round-ordered vectors (as read coalesced) to this lane's blocked ones.
/// Step j: lane o takes, from lane (o % (lanes/vectors)) * vectors +
/// (k_o - j) mod vectors, that lane's round k_o (k_o = o's own round),
/// which the pre-rotation by `lane % vectors` puts in every sender's
/// register j; the post-rotation by k_o puts the slots in order.
SmallVector<Value> roundsToBlocked(OpBuilder &b, Location loc,
                                   const TransposeLane &p, Vectors rounds) {
  Ix ix{b, loc};
  int64_t n = p.vectors;
  Vectors sent = rotate(b, loc, std::move(rounds), p.laneInVector(ix), true);
  Value own = p.ownRound(ix);
  Value column = ix.mul(ix.rem(p.lane, p.lanes / n), n);
  Vectors received(n);
  for (int64_t j = 0; j < n; ++j) {
    Value slot = ix.rem(ix.add(own, n - j), n);
    Value source = p.warpLane(ix, ix.add(column, slot));
    for (Value item : sent[j])
      received[j].push_back(
          shuffle(b, loc, NVVM::ShflKind::idx, item, source, p.mask));
  }
  // received[j] is slot (k_o - j) mod n: reversed, then rotated by k_o.
  Vectors reversed(n);
  for (int64_t m = 0; m < n; ++m)
    reversed[m] = received[(n - m) % n];
  return joinVectors(rotate(b, loc, std::move(reversed), own, false));
}

/// The inverse: this lane's blocked vectors to round order, for coalesced
/// stores.
Vectors blockedToRounds(OpBuilder &b, Location loc, const TransposeLane &p,
                        ArrayRef<Value> items, int64_t width) {
  Ix ix{b, loc};
  int64_t n = p.vectors;
  Value own = p.ownRound(ix);
  Vectors rotated =
      rotate(b, loc, splitVectors(items, width), own, /*left=*/true);
  // sent[j] is slot (k_o - j) mod n.
  Vectors sent(n);
  for (int64_t j = 0; j < n; ++j)
    sent[j] = rotated[(n - j) % n];
  Value inVector = p.laneInVector(ix);
  Value row = ix.div(p.lane, n);
  Vectors received(n);
  for (int64_t j = 0; j < n; ++j) {
    Value round = ix.rem(ix.add(inVector, j), n);
    Value source = p.warpLane(ix, ix.add(ix.mul(round, p.lanes / n), row));
    for (Value item : sent[j])
      received[j].push_back(
          shuffle(b, loc, NVVM::ShflKind::idx, item, source, p.mask));
  }
  // received[j] is round (lane % n + j) mod n.
  return rotate(b, loc, std::move(received), inVector, /*left=*/false);
}

/// The item index of the thread's own vector `v` (blocked order).
IndexFn ownStarts(Ix ix, const TileGeometry &tile, const TileThreads &t,
                  int64_t width) {
  Value first = ix.add(t.base, ix.mul(t.rank, tile.itemsPerThread));
  return [=](int64_t v) mutable { return ix.add(first, v * width); };
}

/// A blocked tile's vector accesses once `vectorizable` holds: the
/// thread's own vectors, or the segment's read coalesced and exchanged
/// (the register transpose).
SmallVector<Value> alignedRead(OpBuilder &b, Location loc, Value memory,
                               const TileGeometry &tile, const TileThreads &t,
                               int64_t width, bool readOnly) {
  Ix ix{b, loc};
  int64_t count = tile.itemsPerThread / width;
  if (int64_t lanes = registerTransposeLanes(tile)) {
    TransposeLane p = transposeLane(b, loc, tile, t, lanes);
    SmallVector<Value> rounds =
        vectorRead(b, loc, memory, roundStarts(ix, p, t.base, width), count,
                   tile, width, readOnly);
    return roundsToBlocked(b, loc, p, splitVectors(rounds, width));
  }
  return vectorRead(b, loc, memory, ownStarts(ix, tile, t, width), count,
                    tile, width, readOnly);
}

void alignedWrite(OpBuilder &b, Location loc, Value memory,
                  const TileGeometry &tile, const TileThreads &t,
                  int64_t width, ArrayRef<Value> items) {
  Ix ix{b, loc};
  if (int64_t lanes = registerTransposeLanes(tile)) {
    TransposeLane p = transposeLane(b, loc, tile, t, lanes);
    vectorWrite(b, loc, memory, roundStarts(ix, p, t.base, width), tile, width,
                joinVectors(blockedToRounds(b, loc, p, items, width)));
    return;
  }
  vectorWrite(b, loc, memory, ownStarts(ix, tile, t, width), tile, width,
              items);
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
                           ValueRange(alignedRead(then, loc, source, *tile, t,
                                                  width, load.getReadOnly())));
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
      alignedWrite(then, loc, destination, *tile, t, width, items);
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
