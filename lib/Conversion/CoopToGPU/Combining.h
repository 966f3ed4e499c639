//===- Combining.h - operators, shuffles and warp-level combining -*- C++ -*-===//
//
// What reductions and scans share: the operator (a named one or a function
// the host compiler supplies), shuffles of any item type, and the thread- and
// warp-level building blocks of CUB's ThreadReduce, WarpReduceShfl and
// WarpScanShfl. Block algorithms compose them with shared scratch.
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CONVERSION_COOPTOGPU_COMBINING_H
#define COOP_LIB_CONVERSION_COOPTOGPU_COMBINING_H

#include "TileHelpers.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::coop::lowering {

/// The operator of a reduction or scan.
struct Combiner {
  std::optional<BinaryOp> kind; // a named operator, or
  FlatSymbolRefAttr function;   // a function (T, T) -> T
  bool isUnsigned = false;
  Type type;

  /// Named operators are commutative; functions need only be associative.
  bool commutative() const { return kind.has_value(); }
  Value combine(OpBuilder &b, Location loc, Value lhs, Value rhs) const;
  /// The operator's identity, or null for a function.
  Value identity(OpBuilder &b, Location loc) const;
  /// An identity that combines with every item into that item's value:
  /// integers' identities, -0.0 for float sums (the sum's +0.0 would turn a
  /// -0.0 item into +0.0), 1.0 for float products (a NaN stays a NaN, not
  /// always its payload). Null for float min and max (fmin and fmax pass
  /// over a NaN, so an infinity would replace an all-NaN result) and for
  /// functions.
  Value exactIdentity(OpBuilder &b, Location loc) const;
};

template <typename OpT>
Combiner getCombiner(OpT op) {
  return Combiner{op.getKind(), op.getCombinerAttr(), op.getIsUnsigned(),
                  op.getItemType()};
}

/// A value that may be absent at run time (the prefix of the group's first
/// thread): `present` is an i1, or null when the value is always present.
struct MaybeValue {
  Value value;
  Value present;

  /// `combiner(value, x)`, or `x` where the value is absent.
  Value combineBefore(OpBuilder &b, Location loc, const Combiner &combiner,
                      Value x) const;

  /// `combiner(seed, value)`, or `seed` where the value is absent: a value
  /// always present.
  MaybeValue seeded(OpBuilder &b, Location loc, const Combiner &combiner,
                    Value seed) const;
};

/// CUB's warp_id and lane_id of the thread of block rank `ltid`, in 32 bits
/// as CUB's unsigned ints: a warp's compares and selects are then one
/// instruction each, not a 64-bit pair. `fromLaneId`: the lane read from
/// %laneid (CUB's LaneId()) instead of computed from the rank.
struct WarpLane {
  Value warp;
  Value lane;
};
WarpLane warpAndLane(OpBuilder &b, Location loc, Value ltid,
                     bool fromLaneId = false);

/// Whether a whole warp's reduction by `combiner` is made of redux.syncs on
/// a target of compute capability `sm` (from sm_80: 32-bit integer sums,
/// min, max and bitwise operators in one; 64-bit sums and bitwise operators
/// over their 32-bit pieces).
bool reducesByRedux(const Combiner &combiner, unsigned sm);

/// One shuffle of `value` (any item type, moved as 32-bit pieces).
/// `offset` is the lane offset (bfly, up) or source lane (idx), an index or
/// an i32; `mask` (i32) the warp lanes taking part.
Value shuffle(OpBuilder &b, Location loc, NVVM::ShflKind kind, Value value,
              Value offset, Value mask);

/// The warp lanes taking part in warp-level steps: all 32, except in a
/// block's last warp when the block is not a whole number of warps.
Value activeLanes(OpBuilder &b, Location loc, Value warp, int64_t blockSize);

/// Whether `lane` is the last lane of warp `warp` in a block of `blockSize`
/// threads (the last warp may be partial): the lane that holds the warp's
/// inclusive total.
Value isLastLaneOfWarp(OpBuilder &b, Location loc, Value warp, Value lane,
                       int64_t blockSize);

/// For combining `warps` warp aggregates (slots 0..warps-1 of `scratch`) by
/// a warp: lane w's aggregate where `counted()` (an i1 it builds) holds, the
/// identity elsewhere. Every lane loads (past the last warp, that warp's
/// slot).
Value laneWarpAggregate(OpBuilder &b, Location loc, const Combiner &combiner,
                        Value scratch, Value lane, int64_t warps,
                        llvm::function_ref<Value()> counted);

/// The prefix of warp `warp` over the `warps` warp aggregates (slots
/// 0..warps-1 of `scratch`) and, with `withTotal`, their total, for integer
/// named operators (exact in any association). Each warp scans the
/// aggregates as a warp scan of `warps` lanes, lane w reading warp w's, and
/// takes its prefix and the total by shuffles: one shared load instead of
/// one a warp, and no select a warp (CUB's thread folds and selects every
/// aggregate: at 8 warps of 64-bit items 14 selects whose predicates ptxas
/// keeps live in registers across a loop).
///
/// Where a warp reduces by redux.sync (32-bit operators, from two warps
/// on; 64-bit sums and bitwise operators over pieces), the warp's prefix
/// is the reduction of the lanes before its warp number (exactly the
/// identity in warp 0) and the total that of the lanes below `warps`:
/// independent reduxes after the shared load, where the scan chains
/// log2(warps) up-shuffles and an index shuffle (H200, int32 loops:
/// inclusive_sum 256x1 0.96 -> 1.38 of CUB, 1024x4 3.6 -> 5.2; int64
/// exclusive_sum 256x1 1.19 -> 1.50).
std::pair<Value, Value>
scanWarpAggregatesByWarp(OpBuilder &b, Location loc, const Combiner &combiner,
                         Value scratch, Value warp, Value lane, int64_t warps,
                         bool withTotal, unsigned sm);

/// The exclusive sum of each thread's `value` (an integer) over its group
/// and the group's total, in every thread: one warp scan (a logical warp's
/// total by one shuffle from its last lane); a block of several warps adds
/// the warps' totals through `totalsView()` (one slot of the value's type a
/// warp, made only then) and one block barrier, and takes its warp's prefix
/// as the scans do (scanWarpAggregatesByWarp) where the last warp is whole,
/// else by CUB's fold of every warp's total.
struct GroupSum {
  Value before;
  Value total;
};
FailureOr<GroupSum>
groupExclusiveSum(OpBuilder &b, Location loc, const TileGeometry &tile,
                  Value linearTid, Value rank, Value value, unsigned sm,
                  llvm::function_ref<FailureOr<Value>()> totalsView);

/// `count` (an index or i32, unsigned) clamped to `bound` (<= 2^31) as an i32:
/// counts of items or lanes compare in 32 bits, as CUB's int counts do,
/// instead of in the 64 bits of NVPTX's index.
Value clampedCount(OpBuilder &b, Location loc, Value count, int64_t bound);

/// `count32 > i` (signed i32): item or lane `i` is among the first count32.
Value countExceeds(OpBuilder &b, Location loc, Value count32, int64_t i);

/// Folds `items` as CUB's ThreadReduce does for a target of compute
/// capability `sm` (CCCL 3.5): a named operator over items of fewer than 8
/// bytes as a binary tree (float sums round as CUB's), __half items as
/// __half2 pairs, 32-bit integer min/max of 6 or more as a ternary tree on
/// sm_90, and in order otherwise (functions, 8-byte items, integer sums of 6
/// or more). With `valid` (an index), only the first `valid` items (at least
/// one), in order, as ThreadReducePartial.
Value threadReduce(OpBuilder &b, Location loc, const Combiner &combiner,
                   ArrayRef<Value> items, unsigned sm, Value valid = {});


/// The combination, in lane order, of the first `valid` lanes (all when
/// `valid` is null) of each group of `width` lanes: in the group's first
/// lane, and in every lane with `everyLane`. With `sm` >= 80, a 32-bit
/// integer sum, min or max (and the bitwise operators) of whole groups is
/// one redux.sync over the group's lanes, as WarpReduceShfl does for int and
/// unsigned int; a commutative operator over whole groups takes butterflies;
/// otherwise down shuffles, bounded by `valid`, reach the first lane (and
/// an idx shuffle the others).
Value warpReduce(OpBuilder &b, Location loc, const Combiner &combiner,
                 Value value, Value laneInGroup, int64_t width, Value mask,
                 Value valid, unsigned sm, bool everyLane);

/// How a sum scan's shuffle steps are emitted. `fused` is CUB's inline PTX
/// (the shuffle's predicate guards the add: 2 instructions a step). It is
/// volatile, as CUB's is, and NVVM then treats it as a memory clobber: a
/// value loaded before it is loaded again after it instead of forwarded.
/// `select` (shuffle, compare, select) keeps loads forwardable, for code
/// that reads the same memory on both sides of the scan. `fusedFloat64`
/// fuses float64 sums too (two shuffles and a predicated add, as CUB's): a
/// block's warp scans take it, whose lane compares, with the warp compares,
/// outnumber the predicate registers and stayed in general registers across
/// the benchmark's loop (float64 256x1: 40 registers against CUB's 28;
/// 0.81 -> 0.93 of CUB). A warp's own scans keep the select form for
/// float64, measured faster there (1.14-1.36 against 1.00-1.15 of CUB).
enum class ScanSteps { fused, fusedFloat64, select };

/// Each lane gets the inclusive scan, in lane order, of its group of
/// `width` lanes.
Value warpInclusiveScan(OpBuilder &b, Location loc, const Combiner &combiner,
                        Value value, Value laneInGroup, int64_t width,
                        Value mask, ScanSteps steps = ScanSteps::fused);

/// The exclusive scan of a lane from its inclusive scan `inclusive` and its
/// own input `value`: for integer sums `inclusive - value`, as WarpScanShfl's
/// Update does; otherwise the inclusive scan of the lane before, one
/// up-shuffle. In each group's first lane it is the identity where
/// `exclusiveIsIdentityInFirstLane`, undefined otherwise.
Value warpExclusiveFromInclusive(OpBuilder &b, Location loc,
                                 const Combiner &combiner, Value inclusive,
                                 Value value, Value mask);

/// Integer sums: `inclusive - value` is exactly 0 in a group's first lane,
/// so that lane needs no select to take the identity or a seed (CUB keeps
/// the select: an instruction of every scan).
bool exclusiveIsIdentityInFirstLane(const Combiner &combiner);

/// The scanned items of one thread, given the combination of everything
/// before them: inclusive or exclusive (where the prefix is absent, the
/// exclusive first item is unspecified).
SmallVector<Value> threadScan(OpBuilder &b, Location loc,
                              const Combiner &combiner, ArrayRef<Value> items,
                              const MaybeValue &prefix, bool inclusive);

/// The value `thenValue` builds where `condition` holds, `otherwise`
/// elsewhere (an scf.if).
Value valueIf(OpBuilder &b, Location loc, Value condition, Value otherwise,
              llvm::function_ref<Value(OpBuilder &)> thenValue);

/// Stores `value` at `slot` of `scratch` (shared memory) in the threads where
/// `condition` holds.
void storeIf(OpBuilder &b, Location loc, Value condition, Value value,
             Value scratch, Value slot);

/// `sm`: the target's compute capability (major * 10 + minor; 0: unknown).
void populateReducePatterns(RewritePatternSet &patterns, unsigned sm = 0);
void populateScanPatterns(RewritePatternSet &patterns, unsigned sm = 0);
void populateReduceBatchedPatterns(RewritePatternSet &patterns);

} // namespace mlir::coop::lowering

#endif // COOP_LIB_CONVERSION_COOPTOGPU_COMBINING_H
