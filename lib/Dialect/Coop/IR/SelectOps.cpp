//===- SelectOps.cpp - select: verifier, scratch, effects -----------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

LogicalResult SelectOp::verify() {
  Type item = getItemType();
  Type i32 = IntegerType::get(getContext(), 32);
  if (bool(getFlags()) == bool(getPredicateAttr()))
    return emitOpError("needs exactly one way to select: flags (one entry per "
                       "item) or a predicate function (predicate = @f)");
  if (isa<MemRefType>(getInput().getType())) {
    if (!getOutput() || getOutput().getType() != getInput().getType())
      return emitOpError("a payload input needs an output payload of its type ")
             << getInput().getType() << " ('into')";
    if (getFlags()) {
      auto flags = dyn_cast<MemRefType>(getFlags().getType());
      if (!flags || flags.getDimSize(0) != getItemsPerThread())
        return emitOpError("flags must have one entry per item (")
               << getItemsPerThread() << "); got " << getFlags().getType();
    }
    if (getResults().size() != 1 || getResults()[0].getType() != i32)
      return emitOpError("a payload select returns the count alone (i32); "
                         "it returns ")
             << getResults().getTypes();
  } else {
    if (getOutput())
      return emitOpError("a scalar input returns its compacted item; remove "
                         "the output payload");
    if (getFlags() && isa<MemRefType>(getFlags().getType()))
      return emitOpError("a scalar input takes one flag, an integer; got ")
             << getFlags().getType();
    if (getResults().size() != 2 || getResults()[0].getType() != item ||
        getResults()[1].getType() != i32)
      return emitOpError("a scalar select returns the item and the count (")
             << item << ", i32); it returns " << getResults().getTypes();
  }
  FlatSymbolRefAttr predicate = getPredicateAttr();
  if (!predicate)
    return success();
  auto function =
      SymbolTable::lookupNearestSymbolFrom<FunctionOpInterface>(*this, predicate);
  if (!function)
    return success(); // supplied by the host compiler when it links the site
  auto type = dyn_cast<FunctionType>(function.getFunctionType());
  if (!type || type.getNumInputs() != 1 || type.getNumResults() != 1 ||
      type.getInput(0) != item || !type.getResult(0).isInteger(1))
    return emitOpError("predicate ")
           << predicate << " must take an item and return a bool (" << item
           << ") -> i1; it is " << function.getFunctionType();
  return success();
}

/// The compacted tile: CUB's BlockExchange layout, which ScatterToBlocked
/// uses, and WarpExchange's per logical warp, but for a whole warp's extra
/// item: that item shifts every other warp's tile off 16 bytes, and the
/// blocked read back, 4 items a lane 16 bytes apart, then takes 4 loads of
/// 4-way bank conflicts where one 16-byte load takes none (H100, 128x4
/// loops against a CUB-composed select: int32 0.63 -> 1.00, float64 0.71 ->
/// 0.97). Logical warps of 8 lanes keep it: there it spreads the groups'
/// scatters over the banks (int32 1.08 -> 1.00 and float64 1.11 -> 0.96
/// without it).
static ScratchLayout tileLayout(const TileGeometry &tile) {
  ScratchLayout layout =
      cubExchangeLayout(tile, /*timeSliced=*/false, /*padPositions=*/true);
  if (tile.warpLike && tile.groupSize == kWarpThreads) {
    int64_t items = tile.groupSize * tile.itemsPerThread;
    layout.groupStride = layout.padding.apply(items - 1) + 1;
    layout.elements = layout.groupStride * tile.groupsPerBlock();
  }
  return layout;
}

/// Blocks of more than one warp add the warps' counts (i32) to the scratch.
static int64_t countedWarps(const TileGeometry &tile) {
  if (tile.warpLike)
    return 0;
  int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
  return warps > 1 ? warps : 0;
}

int64_t SelectOp::getCountsStart(const TileGeometry &tile) {
  int64_t elements = tileLayout(tile).elements;
  if (countedWarps(tile) == 0)
    return elements;
  return llvm::divideCeil(llvm::alignTo(elements * tile.elementBytes, 4),
                          tile.elementBytes);
}

std::optional<ScratchLayout>
SelectOp::getScratchLayout(const TileGeometry &tile) {
  ScratchLayout layout = tileLayout(tile);
  if (int64_t warps = countedWarps(tile))
    layout.elements =
        getCountsStart(tile) + llvm::divideCeil(warps * 4, tile.elementBytes);
  return layout;
}

ScratchAccess SelectOp::getScratchAccess(const TileGeometry &tile) {
  if (tile.warpLike)
    return {SlotMap::dataDependent, SlotMap::blocked, /*groupLocal=*/true,
            /*internalBlockBarrier=*/false};
  ScratchAccess access{SlotMap::dataDependent, SlotMap::blocked, false, true};
  if (countedWarps(tile)) {
    // The warps write their counts before the first barrier; the compacted
    // tile is written between the two and read after the last.
    int64_t counts = getCountsStart(tile);
    access.head = {counts, std::numeric_limits<int64_t>::max()};
    access.tail = {0, counts};
  }
  return access;
}

void SelectOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getInputMutable(), getOutputMutable());
  for (OpOperand &flags : getFlagsMutable())
    if (isa<MemRefType>(flags.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &flags,
                           SideEffects::DefaultResource::get());
  addScratchEffects(effects);
}
