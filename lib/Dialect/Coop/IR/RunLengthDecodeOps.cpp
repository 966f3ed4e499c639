//===- RunLengthDecodeOps.cpp - run_length_decode: verifier, scratch ------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

StringRef RunLengthDecodeOp::getBlockPrimitive() {
  return "BlockRunLengthDecode";
}

LogicalResult RunLengthDecodeOp::verify() {
  auto lengths = cast<MemRefType>(getRunLengths().getType());
  if (!lengths.getElementType().isInteger())
    return emitOpError("run lengths must be integers; got ")
           << lengths.getElementType();
  if (lengths.getDimSize(0) != getItemsPerThread())
    return emitOpError("needs one length a run: ")
           << getItemsPerThread() << " run values, " << lengths.getDimSize(0)
           << " lengths";
  if (getDecodedItemsPerThread() < 1)
    return emitOpError("decoded_items_per_thread must be at least 1; got ")
           << getDecodedItemsPerThread();
  if (bool(getOutput()) == bool(getDestination()))
    return emitOpError("needs exactly one destination: a window of decoded "
                       "items ('into', a payload) or an array for the whole "
                       "stream ('destination = ...')");
  Type item = getItemType();
  if (Value output = getOutput()) {
    auto type = cast<MemRefType>(output.getType());
    if (type.getElementType() != item ||
        type.getDimSize(0) != getDecodedItemsPerThread())
      return emitOpError("the window must hold decoded_items_per_thread (")
             << getDecodedItemsPerThread() << ") items of the run values' "
             << item << "; got " << type;
  }
  if (Value destination = getDestination()) {
    if (cast<MemRefType>(destination.getType()).getElementType() != item)
      return emitOpError("the destination must hold the run values' ")
             << item << "; got " << destination.getType();
    if (!getTotal())
      return emitOpError("decoding into a destination returns the stream's "
                         "length: add the total result (-> i32 or i64)");
  }
  return success();
}

static int64_t warpSums(const TileGeometry &tile) {
  int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
  return warps > 1 ? warps : 0;
}

/// The runs' values (the block's items and a run of 0 after them: where
/// positions past the stream's end fall) first, then their offsets (the
/// zero run's is the stream's length, then a sentinel past every position),
/// then the warps' sums of the lengths. The offsets start 16-byte aligned,
/// so a thread stores its runs' offsets by vector stores.
int64_t RunLengthDecodeOp::getOffsetsStart(const TileGeometry &tile) {
  int64_t valueBytes =
      (tile.blockSize * tile.itemsPerThread + 1) * tile.elementBytes;
  int64_t offsetBytes = getOffsetType().getIntOrFloatBitWidth() / 8;
  int64_t aligned =
      llvm::alignTo(valueBytes, std::max<int64_t>(offsetBytes, 16));
  return llvm::divideCeil(aligned, tile.elementBytes);
}

std::optional<ScratchLayout>
RunLengthDecodeOp::getScratchLayout(const TileGeometry &tile) {
  int64_t offsetBytes = getOffsetType().getIntOrFloatBitWidth() / 8;
  int64_t runs = tile.blockSize * tile.itemsPerThread;
  int64_t bytes = getOffsetsStart(tile) * tile.elementBytes +
                  (runs + 2 + warpSums(tile)) * offsetBytes;
  return ScratchLayout{
      static_cast<int64_t>(llvm::divideCeil(bytes, tile.elementBytes)),
      SlotPadding(), 0};
}

ScratchAccess RunLengthDecodeOp::getScratchAccess(const TileGeometry &tile) {
  ScratchAccess access{SlotMap::dataDependent, SlotMap::dataDependent,
                       /*groupLocal=*/false, /*internalBlockBarrier=*/true};
  if (warpSums(tile)) {
    // The warps write their sums before the first barrier; the runs are
    // written between the two and read after the last.
    int64_t runs = tile.blockSize * tile.itemsPerThread;
    int64_t offsetBytes = getOffsetType().getIntOrFloatBitWidth() / 8;
    int64_t sums = llvm::divideCeil(
        getOffsetsStart(tile) * tile.elementBytes + (runs + 2) * offsetBytes,
        tile.elementBytes);
    access.head = {sums, std::numeric_limits<int64_t>::max()};
    access.tail = {0, sums};
  }
  return access;
}

void RunLengthDecodeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getRunValuesMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getRunLengthsMutable(),
                       SideEffects::DefaultResource::get());
  for (OpOperand &output : getOutputMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &output,
                         SideEffects::DefaultResource::get());
  for (OpOperand &destination : getDestinationMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &destination,
                         SideEffects::DefaultResource::get());
  addScratchEffects(effects);
}
