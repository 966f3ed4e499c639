//===- MergeSortOps.cpp - merge sort: verifier, scratch, effects ----------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

LogicalResult MergeSortOp::verify() {
  if (getGroup().getType().getKind() == GroupKind::block)
    if (std::optional<int64_t> threads = getKnownBlockSize(*this))
      if (!llvm::isPowerOf2_64(*threads))
        return emitOpError("sorts blocks of a power-of-two thread count "
                           "(CUB's BlockMergeSort); a block of ")
               << *threads << " threads is not: use radix_sort, or pad the "
                              "block to "
               << llvm::PowerOf2Ceil(*threads) << " threads";
  if (getOutput().getType() != getKeys().getType())
    return emitOpError("output must be the keys' type ")
           << getKeys().getType() << "; got " << getOutput().getType();
  if (Value values = getValues()) {
    auto type = cast<MemRefType>(values.getType());
    if (type.getDimSize(0) != getItemsPerThread())
      return emitOpError("values must be one per key (")
             << getItemsPerThread() << " a thread); got " << type;
    if (!getValuesOutput() || getValuesOutput().getType() != type)
      return emitOpError("values move into a values output of their type ")
             << type;
  } else if (getValuesOutput()) {
    return emitOpError("has a values output but no values");
  }
  if (bool(getValidItems()) != bool(getOobDefault()))
    return emitOpError("valid_items and oob_default go together: the keys "
                       "past valid_items become oob_default, which sorts "
                       "last");
  if (Value fill = getOobDefault())
    if (fill.getType() != getItemType())
      return emitOpError("oob_default must be a key (")
             << getItemType() << "); got " << fill.getType();
  if (getIsUnsigned() && (!getItemType().isInteger() || getCompare()))
    return emitOpError("'unsigned' orders integer keys by the default "
                       "comparison; remove it");
  return success();
}

/// CUB's TempStorage: the group's keys and one past them, in a union with
/// its values (a region per warp or logical warp).
std::optional<ScratchLayout>
MergeSortOp::getScratchLayout(const TileGeometry &tile) {
  int64_t items = tile.tileItems() + 1;
  int64_t bytes = items * tile.elementBytes;
  if (Type value = getValueType())
    bytes = std::max(bytes, items * value.getIntOrFloatBitWidth() / 8);
  int64_t stride = llvm::divideCeil(bytes, tile.elementBytes);
  if (!tile.warpLike)
    return ScratchLayout{stride, SlotPadding(), 0};
  return ScratchLayout{stride * tile.groupsPerBlock(), SlotPadding(), stride};
}

ScratchAccess MergeSortOp::getScratchAccess(const TileGeometry &tile) {
  return {SlotMap::dataDependent, SlotMap::dataDependent,
          /*groupLocal=*/tile.warpLike,
          /*internalBlockBarrier=*/!tile.warpLike};
}

void MergeSortOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getKeysMutable(), getOutputMutable());
  for (OpOperand &values : getValuesMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &values,
                         SideEffects::DefaultResource::get());
  for (OpOperand &out : getValuesOutputMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &out,
                         SideEffects::DefaultResource::get());
  addScratchEffects(effects);
}
