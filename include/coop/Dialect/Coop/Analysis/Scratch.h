//===- Scratch.h - tile geometry and scratch needs of coop ops ----*- C++ -*-===//
//
// One place for the numbers every pass agrees on: how many threads share a
// tile, and how much shared scratch an exchange needs (CUB's formulas).
//
//===----------------------------------------------------------------------===//

#ifndef COOP_DIALECT_COOP_ANALYSIS_SCRATCH_H
#define COOP_DIALECT_COOP_ANALYSIS_SCRATCH_H

#include "coop/Dialect/Coop/IR/CoopOps.h"

#include <optional>

namespace mlir::coop {

inline constexpr int64_t kWarpThreads = 32;
inline constexpr int64_t kScratchAlignment = 16;
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

/// A load or store tile in a block of known size.
struct TileGeometry {
  Algorithm algorithm;
  bool warpLike;          // a physical or logical warp group
  int64_t groupSize;      // threads sharing one tile
  int64_t blockSize;      // threads in the block
  int64_t itemsPerThread;
  Type elementType;
  int64_t elementBytes;

  int64_t tileItems() const { return groupSize * itemsPerThread; }
  int64_t groupsPerBlock() const { return blockSize / groupSize; }
};

/// The geometry of a coop.load or coop.store; emits an error at `op` and
/// fails when the block size is not a known launch fact.
FailureOr<TileGeometry> getTileGeometry(Operation *op);

/// How a transpose-family op lays out its exchange in scratch.
struct ScratchLayout {
  /// Elements of the op's whole slice.
  int64_t elements;
  /// Index padding: one slot per 32 items (CUB's SHR_ADD), when
  /// items_per_thread > 4 and a power of two.
  bool shiftPadding;
  /// For exchanges that each warp or logical warp does on its own: the
  /// element stride between consecutive groups' regions (0: one region).
  int64_t groupStride;

  int64_t bytes(int64_t elementBytes) const { return elements * elementBytes; }
};

/// The scratch layout of a tile, or nothing for algorithms without scratch.
std::optional<ScratchLayout> getScratchLayout(const TileGeometry &tile);

/// The temp_storage operand of a load or store (null when implicit).
Value getTempStorage(Operation *op);

/// The algorithm of a load or store.
Algorithm getAlgorithm(Operation *op);

/// The group of a load or store.
Value getGroup(Operation *op);

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_ANALYSIS_SCRATCH_H
