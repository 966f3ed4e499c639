//===- TileOps.cpp - load and store: verifiers, scratch, effects ------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

//===----------------------------------------------------------------------===//
// Load and store
//===----------------------------------------------------------------------===//

/// What load and store add to the collective rules.
static LogicalResult verifyTileOp(Operation *op, Algorithm algorithm,
                                  Type memoryElement, Type payloadElement,
                                  Value tempStorage) {
  GroupType group = cast<CollectiveOpInterface>(op).getGroup().getType();
  if (group.isWarpLike() && algorithm != Algorithm::direct &&
      algorithm != Algorithm::striped && algorithm != Algorithm::vectorize &&
      algorithm != Algorithm::transpose)
    return op->emitOpError("algorithm '")
           << stringifyAlgorithm(algorithm)
           << "' is not valid for a warp group; warps accept direct, striped, "
              "vectorize and transpose";
  if (payloadElement != memoryElement)
    return op->emitOpError("payload element type ")
           << payloadElement << " does not match the "
           << (isa<LoadOp>(op) ? "source" : "destination") << " element type "
           << memoryElement;
  if (tempStorage && !usesScratch(algorithm))
    return op->emitOpError("temp_storage is only used by the transpose, "
                           "warp_transpose and warp_transpose_timesliced "
                           "algorithms; algorithm '")
           << stringifyAlgorithm(algorithm)
           << "' needs no scratch, remove temp_storage";
  if (algorithm == Algorithm::warp_transpose ||
      algorithm == Algorithm::warp_transpose_timesliced)
    return verifyWholeWarps(op, Twine("algorithm '") +
                                    stringifyAlgorithm(algorithm) + "'");
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOobDefault() && !getValidItems())
    return emitOpError("oob_default requires valid_items: without a valid "
                       "count every slot is loaded");
  Type element = getSource().getType().getElementType();
  if (failed(verifyTileOp(*this, getAlgorithm(), element,
                          getPayload().getType().getElementType(),
                          getTempStorage())))
    return failure();
  if (getOobDefault() && getOobDefault().getType() != element)
    return emitOpError("oob_default type ")
           << getOobDefault().getType()
           << " does not match the payload element type " << element;
  if (getReadOnly()) {
    // The default (generic) space holds Numba's array arguments; 1 is
    // NVVM's global space.
    Attribute space = getSource().getType().getMemorySpace();
    auto gpuSpace = dyn_cast_if_present<gpu::AddressSpaceAttr>(space);
    auto number = dyn_cast_if_present<IntegerAttr>(space);
    bool global = !space ||
                  (gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global) ||
                  (number && number.getInt() == 1);
    if (!global)
      return emitOpError("read_only needs a source in global memory; got "
                         "memory space ")
             << space << " (ld.global.nc reads global memory only)";
  }
  return success();
}

LogicalResult StoreOp::verify() {
  Type value = getValue().getType();
  if (auto memref = dyn_cast<MemRefType>(value))
    value = memref.getElementType();
  return verifyTileOp(*this, getAlgorithm(),
                      getDestination().getType().getElementType(), value,
                      getTempStorage());
}

/// A load's exchange (a store's is the reverse): memory order to blocked.
static ScratchAccess tileAccess(Algorithm algorithm, const TileGeometry &tile,
                                bool toBlocked) {
  auto ordered = [&](SlotMap memory, bool groupLocal, bool internal) {
    return toBlocked ? ScratchAccess{memory, SlotMap::blocked, groupLocal, internal}
                     : ScratchAccess{SlotMap::blocked, memory, groupLocal, internal};
  };
  if (tile.warpLike)
    return ordered(SlotMap::striped, true, false);
  switch (algorithm) {
  case Algorithm::transpose:
    return ordered(SlotMap::striped, false, true);
  case Algorithm::warp_transpose:
    return ordered(SlotMap::warpStriped, true, false);
  default:
    return {SlotMap::dataDependent, SlotMap::dataDependent, false,
            tile.blockSize > kWarpThreads};
  }
}

static std::optional<ScratchLayout> tileLayout(Algorithm algorithm,
                                               const TileGeometry &tile) {
  if (!usesScratch(algorithm))
    return std::nullopt;
  return exchangeLayout(
      tile,
      !tile.warpLike && algorithm == Algorithm::warp_transpose_timesliced,
      tileAccess(algorithm, tile, /*toBlocked=*/true));
}

std::optional<ScratchLayout> LoadOp::getScratchLayout(const TileGeometry &tile) {
  return tileLayout(getAlgorithm(), tile);
}
std::optional<ScratchLayout> StoreOp::getScratchLayout(const TileGeometry &tile) {
  return tileLayout(getAlgorithm(), tile);
}
ScratchAccess LoadOp::getScratchAccess(const TileGeometry &tile) {
  return tileAccess(getAlgorithm(), tile, /*toBlocked=*/true);
}
ScratchAccess StoreOp::getScratchAccess(const TileGeometry &tile) {
  return tileAccess(getAlgorithm(), tile, /*toBlocked=*/false);
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getPayloadMutable(),
                       SideEffects::DefaultResource::get());
  if (usesScratch(getAlgorithm()))
    addScratchEffects(effects);
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
  if (usesScratch(getAlgorithm()))
    addScratchEffects(effects);
}
