//===- ExchangeOps.cpp - exchange and shuffle: verifiers, scratch, effects --===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

//===----------------------------------------------------------------------===//
// Exchange
//===----------------------------------------------------------------------===//

static bool isWarpStripedMode(ExchangeMode mode) {
  return mode == ExchangeMode::warp_striped_to_blocked ||
         mode == ExchangeMode::blocked_to_warp_striped;
}

LogicalResult ExchangeOp::verify() {
  GroupType group = getGroup().getType();
  ExchangeMode mode = getMode();
  StringRef modeName = stringifyExchangeMode(mode);
  if (getInput().getType() != getOutput().getType())
    return emitOpError("output payload ")
           << getOutput().getType() << " must have the input payload's type "
           << getInput().getType();
  if (group.isWarpLike()) {
    if (mode != ExchangeMode::striped_to_blocked &&
        mode != ExchangeMode::blocked_to_striped &&
        mode != ExchangeMode::scatter_to_striped)
      return emitOpError("mode '")
             << modeName << "' is not valid for a warp group; warps accept "
             << "striped_to_blocked, blocked_to_striped and scatter_to_striped";
    if (getWarpTimeSlicing())
      return emitOpError("warp_time_slicing is for block exchanges; a warp "
                         "exchange already uses one warp's scratch");
  }
  int64_t items = getItemsPerThread();
  if (isScatter() != bool(getRanks()))
    return emitOpError() << "mode '" << modeName << "' "
                         << (isScatter() ? "needs ranks (the tile position of "
                                           "each item)"
                                         : "takes no ranks (only the scatter "
                                           "modes do)");
  if (getRanks() && getRanks().getType().getDimSize(0) != items)
    return emitOpError("ranks must have one entry per item (")
           << items << "); got " << getRanks().getType();
  bool flagged = mode == ExchangeMode::scatter_to_striped_flagged;
  if (flagged != bool(getValidFlags()))
    return emitOpError() << "mode '" << modeName << "' "
                         << (flagged ? "needs valid_flags"
                                     : "takes no valid_flags (only "
                                       "scatter_to_striped_flagged does)");
  if (getValidFlags() && getValidFlags().getType().getDimSize(0) != items)
    return emitOpError("valid_flags must have one entry per item (")
           << items << "); got " << getValidFlags().getType();
  if (getWarpTimeSlicing() &&
      (mode == ExchangeMode::scatter_to_striped_guarded || flagged))
    return emitOpError("warp_time_slicing is not available for mode '")
           << modeName << "'; remove warp_time_slicing";
  if (!group.isWarpLike() && (isWarpStripedMode(mode) || getWarpTimeSlicing()))
    return verifyWholeWarps(*this, getWarpTimeSlicing()
                                       ? Twine("warp_time_slicing")
                                       : Twine("mode '") + modeName + "'");
  return success();
}

std::optional<ScratchLayout>
ExchangeOp::getScratchLayout(const TileGeometry &tile) {
  return exchangeLayout(tile, getWarpTimeSlicing(), getScratchAccess(tile));
}

ScratchAccess ExchangeOp::getScratchAccess(const TileGeometry &tile) {
  ExchangeMode mode = getMode();
  bool warpStriped = isWarpStripedMode(mode);
  if (getWarpTimeSlicing())
    return {SlotMap::dataDependent, SlotMap::dataDependent, false,
            !warpStriped || tile.blockSize > kWarpThreads};
  bool groupLocal = tile.warpLike || warpStriped;
  bool internal = !groupLocal;
  switch (mode) {
  case ExchangeMode::striped_to_blocked:
    return {SlotMap::striped, SlotMap::blocked, groupLocal, internal};
  case ExchangeMode::blocked_to_striped:
    return {SlotMap::blocked, SlotMap::striped, groupLocal, internal};
  case ExchangeMode::warp_striped_to_blocked:
    return {SlotMap::warpStriped, SlotMap::blocked, groupLocal, internal};
  case ExchangeMode::blocked_to_warp_striped:
    return {SlotMap::blocked, SlotMap::warpStriped, groupLocal, internal};
  case ExchangeMode::scatter_to_blocked:
    return {SlotMap::dataDependent, SlotMap::blocked, groupLocal, internal};
  default:
    return {SlotMap::dataDependent, SlotMap::striped, groupLocal, internal};
  }
}

void ExchangeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getInputMutable(),
                       SideEffects::DefaultResource::get());
  for (OpOperand &operand : getRanksMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
  for (OpOperand &operand : getValidFlagsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getOutputMutable(),
                       SideEffects::DefaultResource::get());
  addScratchEffects(effects);
}

//===----------------------------------------------------------------------===//
// Shuffle
//===----------------------------------------------------------------------===//

StringRef ShuffleOp::getBlockPrimitive() { return "BlockShuffle"; }

LogicalResult ShuffleOp::verify() {
  StringRef modeName = stringifyShuffleMode(getMode());
  Type element = getItemType();
  if (isShift()) {
    if (!isa<MemRefType>(getInput().getType()) || !getOutput())
      return emitOpError("mode '")
             << modeName << "' shifts payloads: pass a payload and an "
             << "output payload ('into'); scalars use offset or rotate";
    if (getOutput().getType() != getInput().getType())
      return emitOpError("output payload ")
             << getOutput().getType() << " must have the input payload's type "
             << getInput().getType();
    if (getDistance())
      return emitOpError("mode '") << modeName << "' moves items by exactly "
                                   << "one position; remove distance";
    bool up = getMode() == ShuffleMode::up;
    if (up ? getBlockPrefix() : getBlockSuffix())
      return emitOpError("mode '")
             << modeName << "' shifts items toward "
             << (up ? "higher" : "lower") << " positions: the item shifted out "
             << "is the " << (up ? "block_suffix" : "block_prefix");
    bool edge = getBlockPrefix() || getBlockSuffix();
    if (edge && (!getResult() || getResult().getType() != element))
      return emitOpError(up ? "block_suffix" : "block_prefix")
             << " returns one item of the input's type " << element;
    if (!edge && getResult())
      return emitOpError("mode '")
             << modeName << "' writes its output payload and returns no value "
             << "unless asked for the item shifted out ("
             << (up ? "block_suffix" : "block_prefix") << ")";
  } else {
    if (getBlockPrefix() || getBlockSuffix())
      return emitOpError("block_prefix and block_suffix are the items up and "
                         "down shift out of the tile; mode '")
             << modeName << "' has none";
    if (isa<MemRefType>(getInput().getType()) || getOutput())
      return emitOpError("mode '")
             << modeName << "' moves one scalar per thread; payloads use "
             << "up or down";
    if (!getResult() || getResult().getType() != element)
      return emitOpError("mode '") << modeName << "' returns a value of the "
                                   << "input's type " << element;
    if (getMode() == ShuffleMode::rotate && getFill())
      return emitOpError("rotate leaves no thread without a source; remove "
                         "fill");
  }
  if (getFill() && getFill().getType() != element)
    return emitOpError("fill type ")
           << getFill().getType() << " does not match the item type "
           << element;
  return success();
}

std::optional<ScratchLayout>
ShuffleOp::getScratchLayout(const TileGeometry &tile) {
  // One item per thread: CUB's BlockShuffle keeps `prev[BLOCK_THREADS]` (and
  // a `next` array that none of its methods needs).
  return ScratchLayout{tile.blockSize, SlotPadding(), 0};
}

ScratchAccess ShuffleOp::getScratchAccess(const TileGeometry &) {
  return {SlotMap::dataDependent, SlotMap::dataDependent, false, true};
}

void ShuffleOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getInputMutable(), getOutputMutable());
  addScratchEffects(effects);
}
