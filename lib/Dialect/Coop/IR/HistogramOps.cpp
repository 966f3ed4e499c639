//===- HistogramOps.cpp - histogram: verifier, scratch, effects -----------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

StringRef HistogramOp::getBlockPrimitive() { return "BlockHistogram"; }

TileGeometry HistogramOp::getSortTile(const TileGeometry &tile) {
  TileGeometry keys = tile;
  keys.elementType = IntegerType::get(getContext(), 32);
  keys.elementBytes = 4;
  return keys;
}

/// CUB's BlockHistogramSort: the union of the sort's storage and, after it,
/// each thread's last sorted bin (the discontinuity's neighbours) with the
/// runs' first and past-the-end positions (i32 each).
int64_t HistogramOp::getSortScratchBytes(const TileGeometry &tile) {
  int64_t sort = radixSortScratch(getSortTile(tile), Type(), kSortRadixBits).bytes;
  int64_t runs = (tile.blockSize + 2 * getBins()) * 4;
  return std::max(sort, runs);
}

bool HistogramOp::hasSharedOut() {
  if (!getOut())
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      cast<MemRefType>(getOut().getType()).getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

LogicalResult HistogramOp::verify() {
  if (!getItemType().isInteger())
    return emitOpError("samples must be integers (bin numbers); got ")
           << getItemType();
  if (getBins() <= 0)
    return emitOpError("bins must be positive; got ") << getBins();
  if (bool(getOutput()) == bool(getOut()))
    return emitOpError("needs exactly one destination: fresh counters "
                       "('into', a payload) or an array to add into "
                       "('out = ...')");
  Type counter = getCounterType();
  if (!counter.isInteger(32) && !counter.isInteger(64))
    return emitOpError("counters must be 32- or 64-bit integers; got ")
           << counter;
  if (getAccumulate()) {
    if (!getOutput())
      return emitOpError("accumulate adds to fresh counters; with 'out' the "
                         "array itself accumulates: remove accumulate");
    if (getAccumulate().getType() != getOutput().getType())
      return emitOpError("accumulate must be counters of the output's type ")
             << getOutput().getType() << "; got "
             << getAccumulate().getType();
  }
  if (getOut()) {
    auto space = cast<MemRefType>(getOut().getType()).getMemorySpace();
    if (space && !hasSharedOut())
      return emitOpError("out must be an array in shared memory "
                         "(#gpu.address_space<workgroup>) or global memory; "
                         "got memory space ")
             << space;
  }
  if (getAlgorithm() == HistogramAlgorithm::sort)
    if (std::optional<int64_t> threads = getKnownBlockSize(*this))
      if (*threads * getItemsPerThread() > 65535)
        return emitOpError("sorts a tile of ")
               << *threads * getItemsPerThread()
               << " samples; CUB's radix sort counts at most 65,535: use "
                  "algorithm 'atomic' or fewer samples per thread";
  if (getOutput()) {
    int64_t slots = cast<MemRefType>(getOutput().getType()).getDimSize(0);
    if (std::optional<int64_t> threads = getKnownBlockSize(*this))
      if (slots * *threads < getBins())
        return emitOpError("fresh counters of ")
               << slots << " slots a thread hold " << slots * *threads
               << " bins in a block of " << *threads << " threads; "
               << getBins() << " bins need "
               << llvm::divideCeil(getBins(), *threads) << " slots";
  }
  return success();
}

bool HistogramOp::everySampleIsABin() {
  unsigned bits = getItemType().getIntOrFloatBitWidth();
  return getIsUnsigned() && bits < 63 && (int64_t(1) << bits) <= getBins();
}

/// The block's counters, one of the counter type per bin, in units of the
/// tile's items (the samples).
std::optional<ScratchLayout>
HistogramOp::getScratchLayout(const TileGeometry &tile) {
  if (getAlgorithm() == HistogramAlgorithm::sort) {
    int64_t bytes = getSortScratchBytes(tile);
    return ScratchLayout{
        static_cast<int64_t>(llvm::divideCeil(bytes, tile.elementBytes)),
        SlotPadding(), 0};
  }
  if (hasSharedOut())
    return std::nullopt;
  // A spare counter past the last bin takes the samples not counted.
  int64_t counters = getBins() + (mayMissSamples() ? 1 : 0);
  int64_t bytes = counters * getCounterType().getIntOrFloatBitWidth() / 8;
  return ScratchLayout{static_cast<int64_t>(llvm::divideCeil(bytes, tile.elementBytes)),
                       SlotPadding(), 0};
}

ScratchAccess HistogramOp::getScratchAccess(const TileGeometry &tile) {
  // Zeroing before the first barrier and the reads after the last touch a
  // thread's striped counters; the atomics between are data-dependent. The
  // counters' stripes are not the samples' tile slots, so no slot is
  // claimed private to a thread.
  return {SlotMap::dataDependent, SlotMap::dataDependent, /*groupLocal=*/false,
          /*internalBlockBarrier=*/true};
}

void HistogramOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getSamplesMutable(), getOutputMutable());
  for (OpOperand &accumulate : getAccumulateMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &accumulate,
                         SideEffects::DefaultResource::get());
  for (OpOperand &out : getOutMutable()) {
    effects.emplace_back(MemoryEffects::Read::get(), &out,
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), &out,
                         SideEffects::DefaultResource::get());
  }
  if (!hasSharedOut() || getAlgorithm() == HistogramAlgorithm::sort)
    addScratchEffects(effects);
}
