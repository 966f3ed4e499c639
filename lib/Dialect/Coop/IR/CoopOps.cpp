//===- CoopOps.cpp - coop operations and their verifiers ------------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;

static constexpr int64_t kWarpSize = 32;

bool mlir::coop::usesScratch(Algorithm algorithm) {
  return algorithm == Algorithm::transpose ||
         algorithm == Algorithm::warp_transpose ||
         algorithm == Algorithm::warp_transpose_timesliced;
}

//===----------------------------------------------------------------------===//
// Groups
//===----------------------------------------------------------------------===//

LogicalResult GroupByOp::verify() {
  GroupType parent = getParent().getType();
  GroupType result = getResult().getType();
  if (parent.isPartition())
    return emitOpError("nested partitions are unsupported: the parent ")
           << parent << " is already a group_by result; partition this_warp() "
           << "or this_block() directly";
  GroupKind expected;
  if (parent.getKind() == GroupKind::warp)
    expected = GroupKind::threads_within_warp;
  else if (parent.getKind() == GroupKind::block)
    expected = GroupKind::warps_within_block;
  else
    return emitOpError("partitions a warp (by threads) or a block (by warps); ")
           << "a '" << stringifyGroupKind(parent.getKind())
           << "' group cannot be partitioned";
  if (result.getKind() != expected)
    return emitOpError("partitioning ")
           << parent << " gives '" << stringifyGroupKind(expected)
           << "' groups, but the result type is " << result;
  if (expected != GroupKind::warps_within_block)
    return success();

  std::optional<int64_t> blockSize = getKnownBlockSize(*this);
  if (!blockSize)
    return success();
  if (*blockSize % kWarpSize != 0)
    return emitOpError("partitioning a block by warps needs a block size that "
                       "is a multiple of 32; the block has ")
           << *blockSize << " threads";
  int64_t warps = *blockSize / kWarpSize;
  if (result.getCount() > warps)
    return emitOpError("groups of ")
           << result.getCount() << " warps do not fit in a block of " << warps
           << " warps";
  if (result.getExhaustive() && warps % result.getCount() != 0)
    return emitOpError("an exhaustive partition must divide the block's ")
           << warps << " warps; " << result.getCount()
           << " does not (use non_exhaustive to allow a remainder)";
  return success();
}

LogicalResult BarrierOp::verify() {
  if (getGroup().getType().getKind() == GroupKind::grid)
    return emitOpError("cannot synchronize a grid: that needs a cooperative "
                       "launch, which coop does not request");
  return success();
}

LogicalResult TempStorageOp::verify() {
  if (std::optional<int64_t> size = getSizeInBytes(); size && *size <= 0)
    return emitOpError("size_in_bytes must be positive; got ") << *size;
  if (std::optional<int64_t> align = getAlignment();
      align && (*align <= 0 || !llvm::isPowerOf2_64(*align)))
    return emitOpError("alignment must be a positive power of two; got ")
           << *align;
  return success();
}

//===----------------------------------------------------------------------===//
// Load and store
//===----------------------------------------------------------------------===//

namespace {
/// What load and store have in common, gathered for one verifier.
struct TileOperands {
  GroupType group;
  Algorithm algorithm;
  Type memoryElement; // element type of the source or destination
  Type payload;       // a memref payload, or a scalar (store only)
  bool hasValidItems;
  Value tempStorage;
};
} // namespace

static LogicalResult verifyTileOp(Operation *op, const TileOperands &t) {
  StringRef what = isa<LoadOp>(op) ? "load" : "store";
  GroupType group = t.group;
  GroupKind kind = group.getKind();
  if (kind != GroupKind::block && !group.isWarpLike())
    return op->emitOpError("needs a block, a warp or a logical warp "
                           "(this_warp().group_by(n)) group; ")
           << group << " is not a " << what << " target";
  if (kind == GroupKind::threads_within_warp &&
      (!group.getExhaustive() || !llvm::isPowerOf2_32(group.getCount())))
    return op->emitOpError("logical warp width must be 1, 2, 4, 8, 16 or 32; ")
           << "got " << group.getCount()
           << (group.getExhaustive() ? "" : " (non-exhaustive)");

  if (group.isWarpLike() && t.algorithm != Algorithm::direct &&
      t.algorithm != Algorithm::striped &&
      t.algorithm != Algorithm::vectorize &&
      t.algorithm != Algorithm::transpose)
    return op->emitOpError("algorithm '")
           << stringifyAlgorithm(t.algorithm)
           << "' is not valid for a warp group; warps accept direct, striped, "
              "vectorize and transpose";

  Type payloadElement = t.payload;
  if (auto memref = dyn_cast<MemRefType>(t.payload)) {
    payloadElement = memref.getElementType();
    if (memref.isDynamicDim(0))
      return op->emitOpError("payload must have a static size "
                             "(items_per_thread); got ")
             << memref;
    if (memref.getDimSize(0) <= 0)
      return op->emitOpError("items_per_thread must be positive; the payload "
                             "has ")
             << memref.getDimSize(0) << " items";
  }
  if (payloadElement != t.memoryElement)
    return op->emitOpError("payload element type ")
           << payloadElement << " does not match the "
           << (isa<LoadOp>(op) ? "source" : "destination") << " element type "
           << t.memoryElement;

  if (t.tempStorage) {
    if (group.isWarpLike())
      return op->emitOpError("warp operations take no temp_storage (the "
                             "compiler allocates warp scratch); remove "
                             "temp_storage");
    if (!usesScratch(t.algorithm))
      return op->emitOpError("temp_storage is only used by the transpose, "
                             "warp_transpose and warp_transpose_timesliced "
                             "algorithms; algorithm '")
             << stringifyAlgorithm(t.algorithm)
             << "' needs no scratch, remove temp_storage";
  }

  bool needsWholeWarps = group.isWarpLike() ||
                         t.algorithm == Algorithm::warp_transpose ||
                         t.algorithm == Algorithm::warp_transpose_timesliced;
  if (needsWholeWarps) {
    std::optional<int64_t> blockSize = getKnownBlockSize(op);
    if (blockSize && *blockSize % kWarpSize != 0)
      return op->emitOpError()
             << (group.isWarpLike()
                     ? Twine("warp ") + what
                     : Twine("algorithm '") +
                           stringifyAlgorithm(t.algorithm) + "'")
             << " needs a block size that is a multiple of 32; the block has "
             << *blockSize << " threads";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOobDefault() && !getValidItems())
    return emitOpError("oob_default requires valid_items: without a valid "
                       "count every slot is loaded");
  Type element = getSource().getType().getElementType();
  if (failed(verifyTileOp(*this, {getGroup().getType(), getAlgorithm(),
                                  element, getPayload().getType(),
                                  bool(getValidItems()), getTempStorage()})))
    return failure();
  if (getOobDefault() && getOobDefault().getType() != element)
    return emitOpError("oob_default type ")
           << getOobDefault().getType()
           << " does not match the payload element type " << element;
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyTileOp(*this, {getGroup().getType(), getAlgorithm(),
                              getDestination().getType().getElementType(),
                              getValue().getType(), bool(getValidItems()),
                              getTempStorage()});
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getPayloadMutable(),
                       SideEffects::DefaultResource::get());
  if (usesScratch(getAlgorithm())) {
    effects.emplace_back(MemoryEffects::Write::get(), ScratchResource::get());
    effects.emplace_back(MemoryEffects::Read::get(), ScratchResource::get());
  }
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isa<MemRefType>(getValue().getType())) {
    effects.emplace_back(MemoryEffects::Read::get(), &getValueMutable(),
                         SideEffects::DefaultResource::get());
    // Transpose-family stores exchange the payload in place, as CUB does.
    if (usesScratch(getAlgorithm()))
      effects.emplace_back(MemoryEffects::Write::get(), &getValueMutable(),
                           SideEffects::DefaultResource::get());
  }
  effects.emplace_back(MemoryEffects::Write::get(), &getDestinationMutable(),
                       SideEffects::DefaultResource::get());
  if (usesScratch(getAlgorithm())) {
    effects.emplace_back(MemoryEffects::Write::get(), ScratchResource::get());
    effects.emplace_back(MemoryEffects::Read::get(), ScratchResource::get());
  }
}

#define GET_OP_CLASSES
#include "coop/Dialect/Coop/IR/CoopOps.cpp.inc"
