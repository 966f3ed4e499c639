//===- TileHelpers.h - what the coop lowering patterns share ------*- C++ -*-===//
//
// Index names follow CUB: `rank` is the thread's rank in its group, `base`
// the element offset of its group's tile, `pos` an item's position in the
// tile. Every per-item loop is unrolled: each payload slot is accessed at a
// constant index, so payloads are promoted to registers.
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CONVERSION_COOPTOGPU_TILEHELPERS_H
#define COOP_LIB_CONVERSION_COOPTOGPU_TILEHELPERS_H

#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::coop::lowering {

/// Index arithmetic that folds the trivial cases as it builds. An operation
/// with an integer constant operand builds the constant in the type of the
/// other operand, so the same helpers count in i32 where CUB counts in int
/// (warp and lane numbers: one 32-bit compare, not a pair).
struct Ix {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v);
  /// `v` in the type of `like` (index or an integer type).
  Value c(Value like, int64_t v);
  Value add(Value x, Value y);
  Value add(Value x, int64_t y);
  Value sub(Value x, int64_t y);
  Value mul(Value x, int64_t y);
  Value div(Value x, int64_t y);
  Value rem(Value x, int64_t y);
  Value lt(Value x, Value y);
  Value lt(Value x, int64_t y);
  Value ge(Value x, int64_t y);
  Value eq(Value x, int64_t y);
  Value both(Value x, Value y);
  /// The slot of position `x` within its region (SlotPadding::apply).
  Value pad(Value x, const SlotPadding &padding);
  /// An integer of any width as an index (sign-extended).
  Value index(Value integer);
};

/// `v` (an index or an i32) as an i32.
Value asI32(OpBuilder &b, Location loc, Value v);

/// Inline PTX `text` over `operands` with LLVM `constraints`: its result
/// (null without `result`). `volatile`: the compiler neither removes nor
/// moves it across other volatile asm, and treats it as touching memory.
Value inlinePtx(OpBuilder &b, Location loc, Type result, ValueRange operands,
                const Twine &text, const Twine &constraints, bool isVolatile);

/// Builders at the ends of an scf.if's branches that notify what `b`
/// notifies: the conversion must see every op a pattern creates, or rolling
/// back a failed conversion destroys values that unseen ops still use.
OpBuilder thenBuilder(OpBuilder &b, scf::IfOp op);
OpBuilder elseBuilder(OpBuilder &b, scf::IfOp op);

/// An item's position (tile or scratch slot) by item number.
using IndexFn = std::function<Value(int64_t)>;

/// The thread's rank in the block, x fastest (`op` is inside a function
/// with known block dimensions).
Value linearThreadId(OpBuilder &b, Location loc, Operation *op);

/// A warp barrier over lanes [k*width, (k+1)*width) of the thread's warp.
void warpSync(OpBuilder &b, Location loc, Operation *op, int64_t width);

/// Where one thread's tile lives and who it is in its group.
struct TileThreads {
  Value rank;      // rank in the group
  Value base;      // element index of the group's tile in memory
  Value linearTid; // rank in the block
};
TileThreads tileThreads(OpBuilder &b, Location loc, Operation *op,
                        const TileGeometry &tile, Value offset);

/// Tile positions of the items in each layout.
IndexFn blockedPositions(Ix ix, const TileGeometry &tile, Value rank);
IndexFn stripedPositions(Ix ix, const TileGeometry &tile, Value rank);
/// CUB's warp-striped layout: warp w's lanes stripe its 32 * ipt segment.
IndexFn warpStripedPositions(Ix ix, const TileGeometry &tile, Value rank);

/// Scratch slots (padded, inside the group's region) of the items in
/// `map`, which must not be data dependent.
SmallVector<Value> scratchSlots(Ix ix, SlotMap map, const TileGeometry &tile,
                                const ScratchLayout &layout,
                                const TileThreads &t);
/// The start of the thread's group region in the slice (0 for blocks).
Value scratchRegion(Ix ix, const TileGeometry &tile,
                    const ScratchLayout &layout, const TileThreads &t);

/// The payload's items, and writing them back.
SmallVector<Value> readPayload(OpBuilder &b, Location loc, Value payload,
                               int64_t n);
void writePayload(OpBuilder &b, Location loc, Value payload,
                  ArrayRef<Value> items);

/// Reads the items at `memory[base + position(i)]`; with `valid`, only
/// positions below it (compared in 32 bits), the others take `fallback`.
/// `readOnly` (coop.load's promise that nothing writes the global `memory`
/// during the kernel) reads 32- and 64-bit items through the non-coherent
/// path.
SmallVector<Value> readItems(OpBuilder &b, Location loc, Value memory,
                             Value base, Value valid, ArrayRef<Value> fallback,
                             Type element, int64_t n, IndexFn position,
                             bool readOnly);

/// Whether items of `element` can be read by ld.global.nc (32- and 64-bit
/// integers and floats).
bool readsNonCoherent(Type element);

/// The generic address of `memory[index]` as an i64.
Value itemAddress(OpBuilder &b, Location loc, Value memory, Value index);

/// `width` (1, 2 or 4, at most 16 bytes) consecutive 32- or 64-bit items of
/// `element` at `address` by one PTX load `instruction` (e.g.
/// "ld.global.nc"; the vector and size suffixes are added), in inline PTX
/// with side effects where `isVolatile`.
SmallVector<Value> loadByPtx(OpBuilder &b, Location loc, Type element,
                             Value address, int64_t width,
                             StringRef instruction, bool isVolatile);

/// `width` (1, 2 or 4, at most 16 bytes) consecutive items of `element` at
/// `address` by one ld.global.nc, as Numba's cuda.ldg reads one: inline PTX
/// without side effects, which the compiler may move or merge like any load
/// of memory nothing writes.
SmallVector<Value> loadNonCoherent(OpBuilder &b, Location loc, Type element,
                                   Value address, int64_t width);
/// Writes the items to `memory[base + position(i)]`; with `valid`, only
/// positions below it (compared in 32 bits).
void writeItems(OpBuilder &b, Location loc, Value memory, Value base,
                Value valid, ArrayRef<Value> items, IndexFn position);

/// A view of `elements` items of `elementType` at the op's planned
/// offset (`coop.scratch_offset`) in the function's scratch buffer, or
/// `byteOffset` bytes past it (a second part of the op's slice that holds
/// items of another type).
FailureOr<Value> scratchView(RewriterBase &rewriter, Operation *op,
                             int64_t elements, Type elementType,
                             int64_t byteOffset = 0);

/// The collective's slice of its function's scratch buffer, laid out as
/// its scratch layout says (the planner's offset; the buffer is made on
/// first use).
FailureOr<Value> scratchSlice(RewriterBase &rewriter, CollectiveOpInterface op,
                              const TileGeometry &tile,
                              const ScratchLayout &layout);

/// The barrier that orders a group's exchange between its two phases.
void groupSync(OpBuilder &b, Location loc, Operation *op,
               const TileGeometry &tile, bool groupLocal);

/// Stores `items` at `scatter` (each under `guard[i]` when guards are
/// given), synchronizes, loads from `gather`.
SmallVector<Value> exchangeThroughScratch(
    OpBuilder &b, Location loc, Value scratch, ArrayRef<Value> items,
    ArrayRef<Value> scatter, ArrayRef<Value> gather,
    llvm::function_ref<void(OpBuilder &)> sync, ArrayRef<Value> guards = {});

/// CUB's time-sliced warp exchange between warp-striped and blocked order
/// (`toBlocked` gives the direction): warp s exchanges through the slice's
/// one warp-sized region in turn s, the turns separated by block barriers.
SmallVector<Value> timeSlicedWarpExchange(OpBuilder &b, Location loc,
                                          Operation *op, Value scratch,
                                          const TileGeometry &tile,
                                          const ScratchLayout &layout,
                                          const TileThreads &t,
                                          ArrayRef<Value> items, bool toBlocked);

/// The ops' patterns, one family each.
void populateLoadStorePatterns(RewritePatternSet &patterns);
void populateExchangePatterns(RewritePatternSet &patterns);
void populateShufflePatterns(RewritePatternSet &patterns);
void populateGroupPatterns(RewritePatternSet &patterns);
void populateSelectPatterns(RewritePatternSet &patterns, unsigned sm = 0);
void populateHistogramPatterns(RewritePatternSet &patterns, unsigned sm = 0);
void populateRadixPatterns(RewritePatternSet &patterns, unsigned sm);
void populateMergeSortPatterns(RewritePatternSet &patterns);
void populateRunLengthDecodePatterns(RewritePatternSet &patterns,
                                     unsigned sm = 0);

} // namespace mlir::coop::lowering

#endif // COOP_LIB_CONVERSION_COOPTOGPU_TILEHELPERS_H
