//===- CoopCollective.h - what every collective op shares ---------*- C++ -*-===//
//
// The numbers the verifiers, the scratch planner, the barrier analysis and
// the lowering agree on: a collective's geometry (who shares a tile, how many
// items each thread owns), the scratch layout each op computes once with
// CUB's formulas, and how an op's exchange phases index that scratch. Ops
// provide them through CollectiveOpInterface (CoopInterfaces.td).
//
//===----------------------------------------------------------------------===//

#ifndef COOP_DIALECT_COOP_IR_COOPCOLLECTIVE_H
#define COOP_DIALECT_COOP_IR_COOPCOLLECTIVE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace mlir::coop {

inline constexpr int64_t kWarpThreads = 32;
/// log2 of the shared-memory banks: CUB pads one slot per 32 items.
inline constexpr int64_t kLogSharedMemoryBanks = 5;
inline constexpr int64_t kScratchAlignment = 16;
inline constexpr int64_t kMaxBlockThreads = 1024;
/// The lowering unrolls every item of a payload into straight-line code; the
/// bound keeps its compile time, and the scratch sizes, finite.
inline constexpr int64_t kMaxItemsPerThread = 4096;
/// Static shared memory per block; past it a kernel needs dynamic shared memory.
inline constexpr int64_t kStaticSharedMemoryLimit = 48 * 1024;

/// Discardable attributes written by the scratch planner.
inline constexpr llvm::StringLiteral kScratchOffsetAttr = "coop.scratch_offset";
inline constexpr llvm::StringLiteral kScratchSizeAttr = "coop.scratch_size";
inline constexpr llvm::StringLiteral kScratchAlignmentAttr = "coop.scratch_alignment";
inline constexpr llvm::StringLiteral kDynamicSharedMemoryAttr = "coop.dynamic_shared_memory";
/// Marks the function argument that holds the function's scratch buffer,
/// when the caller owns it.
inline constexpr llvm::StringLiteral kScratchArgumentAttr = "coop.scratch";
/// Marks the op that makes a function's scratch buffer during the lowering,
/// so later ops of the function find it; removed when the lowering ends.
inline constexpr llvm::StringLiteral kScratchBufferAttr = "coop.scratch_buffer";
/// Names the workgroup global a function's scratch lives in (a string), so a
/// host compiler that plans a whole kernel points every site function at the
/// kernel's one buffer. Without it the global is named after the function.
inline constexpr llvm::StringLiteral kScratchSymbolAttr = "coop.scratch_symbol";
/// Numbers a host compiler's call sites in a kernel skeleton, so the kernel
/// plan can report each site's slice and barriers.
inline constexpr llvm::StringLiteral kSiteAttr = "coop.site";
/// Marks a site function lowered alone, for a host compiler to inline into a
/// kernel the lowering never sees (a bitcode site): where a lowering's choice
/// between registers and latency depends on the code around the site, it
/// takes the fewer registers, since past 32 a thread a 1024-thread block has
/// an SM alone.
inline constexpr llvm::StringLiteral kInlinedSiteAttr = "coop.inlined_site";

/// A collective's tile in a block of known size.
struct TileGeometry {
  bool warpLike;          // a physical or logical warp group
  int64_t groupSize;      // threads sharing one tile
  int64_t blockSize;      // threads in the block
  int64_t itemsPerThread;
  Type elementType;
  int64_t elementBytes;

  int64_t tileItems() const { return groupSize * itemsPerThread; }
  int64_t groupsPerBlock() const { return blockSize / groupSize; }
  bool operator==(const TileGeometry &other) const {
    return warpLike == other.warpLike && groupSize == other.groupSize &&
           blockSize == other.blockSize &&
           itemsPerThread == other.itemsPerThread &&
           elementBytes == other.elementBytes;
  }
};

/// Where an exchange's position p (within its group's region) lands: at p,
/// at p + p/32 (CUB's SHR_ADD: one padding slot per 32 items), or at p with
/// its low `bits` bits XORed by its bank row (the 128 bytes of 32 banks:
/// `rowShift` = log2 of the items a row holds), shifted left by `rowScale`.
/// The swizzle permutes positions within aligned runs of 2^bits items, so
/// it costs no slot.
struct SlotPadding {
  enum class Kind { none, shiftAdd, xorRow };
  Kind kind = Kind::none;
  int64_t rowShift = 0;
  int64_t rowScale = 0;
  int64_t bits = 0;

  static SlotPadding shiftAdd() { return {Kind::shiftAdd, 0, 0, 0}; }
  static SlotPadding xorRow(int64_t rowShift, int64_t rowScale, int64_t bits) {
    return {Kind::xorRow, rowShift, rowScale, bits};
  }
  int64_t apply(int64_t position) const;
  /// `s` such that apply(p + delta) == apply(p) + s for every position p,
  /// if there is one (`delta` a multiple of the pattern's period): a
  /// thread's striped slots are then its first slot plus constants.
  std::optional<int64_t> shift(int64_t delta) const;
  std::string str() const;
};

/// How an op lays out its items in its scratch slice.
struct ScratchLayout {
  /// Elements of the op's whole slice.
  int64_t elements;
  /// Where each position lands within its region.
  SlotPadding padding;
  /// For exchanges that each warp or logical warp does on its own: the
  /// element stride between consecutive groups' regions (0: one region).
  int64_t groupStride;

  int64_t bytes(int64_t elementBytes) const { return elements * elementBytes; }
};

/// An exchange through scratch: thread-to-slot maps of its two phases.
/// `blocked`: slot rank*ipt + i; `striped`: rank + i*group_size;
/// `warpStriped`: warp*32*ipt + lane + 32*i (all padded alike, warp-like
/// groups within their own region). `rakingGrid`: the thread's own slot of
/// CUB's raking grid (a scan's partial and its prefix). `dataDependent`:
/// slots chosen at run time (scatter ranks, neighbours, time slices), never
/// provably private.
enum class SlotMap { blocked, striped, warpStriped, rakingGrid, dataDependent };

/// Whether `map` places an exchange's positions (blocked, striped or
/// warp-striped): only those have slot positions, a bank cost and a layout
/// to choose.
inline bool isExchangeMap(SlotMap map) {
  return map == SlotMap::blocked || map == SlotMap::striped ||
         map == SlotMap::warpStriped;
}

/// Elements [begin, end) of an op's scratch slice.
struct SliceRange {
  int64_t begin = 0;
  int64_t end = std::numeric_limits<int64_t>::max();
};

/// What the barrier analysis needs to know of an op's scratch accesses.
struct ScratchAccess {
  SlotMap scatter;  // the slots the op writes first
  SlotMap gather;   // the slots it reads after its internal synchronization
  /// Each warp (or logical warp) exchanges in its own region of the slice,
  /// synchronized by a warp barrier.
  bool groupLocal;
  /// A block barrier between the op's first scratch access and its last,
  /// which orders every earlier access of every thread.
  bool internalBlockBarrier;
  /// With an internal block barrier: the elements the op accesses before
  /// its first one (only these can race with an earlier op's accesses) and
  /// after its last (only these can race with a later op's).
  SliceRange head = {};
  SliceRange tail = {};
};

/// CUB's BlockRakingLayout: one partial per sharing thread in a grid that
/// `rakingThreads` threads of the first warp reduce or scan serially,
/// `segment` partials each (padded by one slot when that avoids bank
/// conflicts).
struct RakingLayout {
  int64_t sharedElements;
  int64_t segment;
  int64_t rakingThreads;
  bool padded;

  explicit RakingLayout(int64_t sharedElements);
  int64_t gridElements() const { return rakingThreads * (segment + padded); }
  /// Whether the grid holds exactly the shared elements (no bounds checks).
  bool unguarded() const { return sharedElements % rakingThreads == 0; }
};

/// CUB's exchange layouts: BlockExchange pads one slot per 32 items when
/// items_per_thread > 4 is a power of two (one warp's items at a time when
/// time-sliced); WarpExchange keeps width * ipt + 1 items per logical warp,
/// padded alike in its TempStorage, but only ScatterToStriped
/// (`padPositions`) pads its positions.
ScratchLayout cubExchangeLayout(const TileGeometry &tile, bool timeSliced,
                                bool padPositions);

/// CUB's BlockRadixRank counters for `radixBits`-bit digits in a block of
/// `blockSize` threads: 16-bit counters packed two to a word, the words
/// laid out [lane][thread] with one padding lane (the raking segment of a
/// thread is `paddedLanes()` consecutive words), digit d in lane
/// `d & (lanes - 1)`, half `d >> log2(lanes)`; then one i32 a warp for the
/// block scan of the packed words.
struct RadixCounters {
  int64_t radixBits;
  int64_t blockSize;

  int64_t digits() const { return int64_t(1) << radixBits; }
  int64_t logLanes() const { return radixBits > 1 ? radixBits - 1 : 0; }
  int64_t lanes() const { return int64_t(1) << logLanes(); }
  int64_t paddedLanes() const { return lanes() + 1; }
  int64_t words() const { return paddedLanes() * blockSize; }
  int64_t warps() const { return (blockSize + kWarpThreads - 1) / kWarpThreads; }
  /// Bytes of the counters and, past `words() * 4`, the warps' totals.
  int64_t bytes() const { return (words() + (warps() > 1 ? warps() : 0)) * 4; }
  /// Digit-prefix slots a thread holds (CUB's BINS_TRACKED_PER_THREAD).
  int64_t binsPerThread() const {
    return std::max<int64_t>(1, (digits() + blockSize - 1) / blockSize);
  }
};

/// CUB's BlockRadixRankMatch counters for `radixBits`-bit digits in a block
/// of `blockSize` threads (whole warps) ranking `itemsPerThread` keys each:
/// i32 counters [digit][warp] (an odd count of warps, padded), the raking
/// grid over them ([thread][segment], an odd segment), the warps' totals of
/// its block scan, then each warp's region for moving digits to
/// warp-striped order and ranks back (32 * ipt words, one padding word a
/// 32).
struct RadixMatchCounters {
  int64_t radixBits;
  int64_t blockSize;
  int64_t itemsPerThread;

  int64_t digits() const { return int64_t(1) << radixBits; }
  int64_t warps() const { return blockSize / kWarpThreads; }
  int64_t paddedWarps() const { return warps() % 2 ? warps() : warps() + 1; }
  int64_t segment() const {
    int64_t raking = (paddedWarps() * digits() + blockSize - 1) / blockSize;
    return raking % 2 ? raking : raking + 1;
  }
  int64_t gridWords() const { return blockSize * segment(); }
  int64_t totalsWords() const { return warps() > 1 ? warps() : 0; }
  int64_t warpRegionWords() const {
    int64_t items = kWarpThreads * itemsPerThread;
    return items + items / kWarpThreads;
  }
  /// Where the warps' regions start, in words.
  int64_t regionsStart() const { return gridWords() + totalsWords(); }
  int64_t bytes() const { return (regionsStart() + warps() * warpRegionWords()) * 4; }
};

/// A block radix sort's scratch (bytes): the union of the rank's counters
/// and the keys' and values' exchanges, each exchange laid out as
/// BlockExchange's; keys and values exchange side by side (values at
/// `valuesOffset`) when that fits in the union.
struct RadixSortScratch {
  int64_t bytes;
  int64_t valuesOffset;
  bool sideBySide;
};
RadixSortScratch radixSortScratch(const TileGeometry &keys, Type valueType,
                                  int64_t radixBits);

/// The scratch layout of an exchange with the phases `access` (a load or
/// store transpose, or coop.exchange). Scatters and time-sliced exchanges
/// take CUB's (BlockExchange's, one warp's items at a time when time-sliced;
/// WarpExchange's per logical warp, padded in ScatterToStriped). Exchanges
/// between static maps take the layout with the fewest shared-memory bank
/// wavefronts over their two phases in one warp's accesses (the first
/// warp's lanes, every logical warp in it), among identity, CUB's padding
/// and row swizzles that fit CUB's TempStorage. Another layout replaces
/// CUB's only with fewer wavefronts; among the others ties go to fewer slots.
ScratchLayout exchangeLayout(const TileGeometry &tile, bool timeSliced,
                             const ScratchAccess &access);

/// The bank wavefronts of one phase's accesses (one per item a thread, or
/// per vector of a thread's contiguous, aligned blocked items) by the first
/// warp's lanes under `layout`.
int64_t bankWavefronts(const TileGeometry &tile, SlotMap map,
                       const ScratchLayout &layout);

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_IR_COOPCOLLECTIVE_H
