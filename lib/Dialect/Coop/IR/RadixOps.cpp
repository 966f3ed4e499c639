//===- RadixOps.cpp - radix rank and sort: verifiers, scratch, effects ----===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

/// CUB's digit counters are 16 bits.
static constexpr int64_t kMaxRadixTile = 65535;
static constexpr int64_t kMaxRadixBits = 8;

RadixSortScratch mlir::coop::radixSortScratch(const TileGeometry &keys,
                                              Type valueType,
                                              int64_t radixBits) {
  int64_t rank = RadixCounters{radixBits, keys.blockSize}.bytes();
  ScratchLayout layout =
      cubExchangeLayout(keys, /*timeSliced=*/false, /*padPositions=*/true);
  int64_t keyBytes = layout.bytes(keys.elementBytes);
  if (!valueType)
    return {std::max(rank, keyBytes), 0, false};
  int64_t valueBytes = valueType.getIntOrFloatBitWidth() / 8;
  int64_t values = layout.bytes(valueBytes);
  int64_t unionBytes = std::max({rank, keyBytes, values});
  int64_t beside = llvm::alignTo(keyBytes, valueBytes);
  if (beside + values <= unionBytes)
    return {unionBytes, beside, true};
  return {unionBytes, 0, false};
}

/// The rules both radix ops share: keys, bits, the tile's size. Every item
/// type is a key (a float's bits ordered as CUB orders them).
static LogicalResult verifyRadixKeys(Operation *op, Type key, bool isUnsigned,
                                     int64_t radixBits, int64_t items) {
  if (isUnsigned && !key.isInteger())
    return op->emitOpError("'unsigned' orders integer keys; ")
           << key << " keys are floats: remove it";
  if (radixBits < 1 || radixBits > kMaxRadixBits)
    return op->emitOpError("radix_bits must be in [1, 8]; got ") << radixBits;
  if (std::optional<int64_t> threads = getKnownBlockSize(op))
    if (*threads * items > kMaxRadixTile)
      return op->emitOpError("ranks a tile of ")
             << *threads * items << " keys (" << *threads << " threads x "
             << items
             << "); CUB's 16-bit digit counters allow at most 65,535: use "
                "fewer items per thread";
  return success();
}

StringRef RadixRankOp::getBlockPrimitive() { return "BlockRadixRank"; }

LogicalResult RadixRankOp::verify() {
  Type key = getItemType();
  if (failed(verifyRadixKeys(*this, key, getIsUnsigned(), getRadixBits(),
                             getItemsPerThread())))
    return failure();
  int64_t keyBits = key.getIntOrFloatBitWidth();
  if (getBeginBit() < 0 || getBeginBit() + getRadixBits() > keyBits)
    return emitOpError("digit bits [")
           << getBeginBit() << ", " << getBeginBit() + getRadixBits()
           << ") lie outside the key's " << keyBits << " bits";
  if (getAlgorithm() == RadixRankAlgorithm::match)
    if (std::optional<int64_t> threads = getKnownBlockSize(*this))
      if (*threads % kWarpThreads != 0)
        return emitOpError("algorithm 'match' ranks by warp-wide ballots and "
                           "needs whole warps; a block of ")
               << *threads << " threads is not: use 'basic'";
  auto ranks = cast<MemRefType>(getRanks().getType());
  if (!ranks.getElementType().isInteger(32) ||
      ranks.getDimSize(0) != getItemsPerThread())
    return emitOpError("ranks must be ")
           << getItemsPerThread() << " i32 (one per key); got " << ranks;
  if (Value prefix = getDigitPrefix()) {
    auto type = cast<MemRefType>(prefix.getType());
    if (!type.getElementType().isInteger(32))
      return emitOpError("digit_prefix must hold i32; got ") << type;
    if (std::optional<int64_t> threads = getKnownBlockSize(*this)) {
      int64_t slots =
          RadixCounters{static_cast<int64_t>(getRadixBits()), *threads}
              .binsPerThread();
      if (type.getDimSize(0) < slots)
        return emitOpError("digit_prefix of ")
               << type.getDimSize(0) << " slots a thread; "
               << (int64_t(1) << getRadixBits()) << " bins over " << *threads
               << " threads need " << slots;
    }
  }
  return success();
}

std::optional<ScratchLayout>
RadixRankOp::getScratchLayout(const TileGeometry &tile) {
  if (getAlgorithm() == RadixRankAlgorithm::match) {
    int64_t bytes = RadixMatchCounters{static_cast<int64_t>(getRadixBits()),
                                       tile.blockSize, tile.itemsPerThread}
                        .bytes();
    return ScratchLayout{
        static_cast<int64_t>(llvm::divideCeil(bytes, tile.elementBytes)),
        SlotPadding(), 0};
  }
  int64_t bytes =
      RadixCounters{static_cast<int64_t>(getRadixBits()), tile.blockSize}
          .bytes();
  return ScratchLayout{
      static_cast<int64_t>(llvm::divideCeil(bytes, tile.elementBytes)),
      SlotPadding(), 0};
}

ScratchAccess RadixRankOp::getScratchAccess(const TileGeometry &) {
  // Each thread zeroes and counts in its own column, rakes a segment of
  // other threads' columns and reads its counters back: the columns are not
  // the keys' tile slots.
  return {SlotMap::dataDependent, SlotMap::dataDependent, /*groupLocal=*/false,
          /*internalBlockBarrier=*/true};
}

void RadixRankOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getKeysMutable(), getRanksMutable());
  for (OpOperand &prefix : getDigitPrefixMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &prefix,
                         SideEffects::DefaultResource::get());
  addScratchEffects(effects);
}

StringRef RadixSortOp::getBlockPrimitive() { return "BlockRadixSort"; }

LogicalResult RadixSortOp::verify() {
  Type key = getItemType();
  if (failed(verifyRadixKeys(*this, key, getIsUnsigned(), getRadixBits(),
                             getItemsPerThread())))
    return failure();
  if (getOutput().getType() != getKeys().getType())
    return emitOpError("output must be the keys' type ")
           << getKeys().getType() << "; got " << getOutput().getType();
  if (Value values = getValues()) {
    auto type = cast<MemRefType>(values.getType());
    if (type.getDimSize(0) != getItemsPerThread())
      return emitOpError("values must be one per key (")
             << getItemsPerThread() << " a thread); got " << type;
    if (!getValuesOutput())
      return emitOpError("moves values only into a values output: add "
                         "'values_into'");
    if (getValuesOutput().getType() != type)
      return emitOpError("values output must be the values' type ")
             << type << "; got " << getValuesOutput().getType();
  } else if (Value indices = getValuesOutput()) {
    auto type = cast<MemRefType>(indices.getType());
    if (!type.getElementType().isInteger(32) ||
        type.getDimSize(0) != getItemsPerThread())
      return emitOpError("without values, the values output receives the "
                         "keys' tile positions: ")
             << getItemsPerThread() << " i32; got " << type;
  }
  return success();
}

std::optional<ScratchLayout>
RadixSortOp::getScratchLayout(const TileGeometry &tile) {
  RadixSortScratch scratch =
      radixSortScratch(tile, getValueType(), getRadixBits());
  return ScratchLayout{static_cast<int64_t>(
                           llvm::divideCeil(scratch.bytes, tile.elementBytes)),
                       SlotPadding(), 0};
}

ScratchAccess RadixSortOp::getScratchAccess(const TileGeometry &) {
  return {SlotMap::dataDependent, SlotMap::dataDependent, /*groupLocal=*/false,
          /*internalBlockBarrier=*/true};
}

void RadixSortOp::getEffects(
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
