//===- Radix.h - CUB's block radix sort, for the ops built on it --*- C++ -*-===//
//
// coop.radix_sort and the histogram's sort algorithm share one sort: keys in
// their bit-ordered form (unsigned integers of the keys' width), ranked and
// scattered pass by pass through the op's scratch slice, laid out as
// radixSortScratch (CoopCollective.h) from its start.
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CONVERSION_COOPTOGPU_RADIX_H
#define COOP_LIB_CONVERSION_COOPTOGPU_RADIX_H

#include "TileHelpers.h"

namespace mlir::coop::lowering {

struct RadixSortSpec {
  int64_t radixBits;
  /// The keys are floats' bit-ordered forms: -0.0's digits are +0.0's.
  bool floatKeys;
  /// The values moved with the keys; null for keys alone.
  Type valueType;
  bool descending;
  /// The result striped (`i*T + t`) instead of blocked.
  bool blockedToStriped;
  /// The bit range [beginBit, endBit), i32 values uniform over the block.
  Value beginBit;
  Value endBit;
  unsigned sm;
};

struct SortedTile {
  SmallVector<Value> keys;
  SmallVector<Value> values;
};

/// CUB's BlockRadixSort of a block's `keys` (bit-ordered, blocked order,
/// `tile` their geometry) and `values`: a loop of passes, each ranking the
/// pass's digit (BlockRadixRank, basic) and scattering to the ranks.
FailureOr<SortedTile> sortOrderedKeys(RewriterBase &rewriter, Location loc,
                                      Operation *op, const TileGeometry &tile,
                                      const TileThreads &t,
                                      const RadixSortSpec &spec,
                                      ArrayRef<Value> keys,
                                      ArrayRef<Value> values);

} // namespace mlir::coop::lowering

#endif // COOP_LIB_CONVERSION_COOPTOGPU_RADIX_H
