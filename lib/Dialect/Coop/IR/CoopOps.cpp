//===- CoopOps.cpp - coop operations and their verifiers ------------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;

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
  if (*blockSize % kWarpThreads != 0)
    return emitOpError("partitioning a block by warps needs a block size that "
                       "is a multiple of 32; the block has ")
           << *blockSize << " threads";
  int64_t warps = *blockSize / kWarpThreads;
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
// Collectives
//===----------------------------------------------------------------------===//

/// An error if the block size is known and not a whole number of warps.
static LogicalResult verifyWholeWarps(Operation *op, const Twine &what) {
  std::optional<int64_t> blockSize = getKnownBlockSize(op);
  if (blockSize && *blockSize % kWarpThreads != 0)
    return op->emitOpError()
           << what << " needs a block size that is a multiple of 32; the "
           << "block has " << *blockSize << " threads";
  return success();
}

LogicalResult mlir::coop::verifyCollectiveOp(Operation *op) {
  auto collective = cast<CollectiveOpInterface>(op);
  StringRef name = op->getName().stripDialect();
  GroupType group = collective.getGroup().getType();
  GroupKind kind = group.getKind();
  int64_t items = collective.getItemsPerThread();
  if (!ShapedType::isDynamic(items) && items > kMaxItemsPerThread)
    return op->emitOpError("has ")
           << items << " items per thread; at most " << kMaxItemsPerThread
           << " are supported (the lowering unrolls each item)";
  if (kind == GroupKind::thread && collective.acceptsThreadGroup()) {
    if (collective.getTempStorage())
      return op->emitOpError("a thread works on its own items and takes no "
                             "temp_storage; remove temp_storage");
    return success();
  }
  StringRef blockPrimitive = collective.getBlockPrimitive();
  if (!blockPrimitive.empty() && kind != GroupKind::block)
    return op->emitOpError("is a block operation (CUB's ")
           << blockPrimitive << "); use this_block(), not " << group;
  if (kind != GroupKind::block && !group.isWarpLike())
    return op->emitOpError("needs a block, a warp or a logical warp "
                           "(this_warp().group_by(n)) group; ")
           << group << " is not a" << (name.front() == 'e' ? "n " : " ")
           << name << " target";
  if (kind == GroupKind::threads_within_warp &&
      (!group.getExhaustive() || !llvm::isPowerOf2_32(group.getCount())))
    return op->emitOpError("logical warp width must be 1, 2, 4, 8, 16 or 32; ")
           << "got " << group.getCount()
           << (group.getExhaustive() ? "" : " (non-exhaustive)");
  if (ShapedType::isDynamic(items))
    return op->emitOpError("payload must have a static size "
                           "(items_per_thread)");
  if (items <= 0)
    return op->emitOpError("items_per_thread must be positive; the payload "
                           "has ")
           << items << " items";
  if (collective.getTempStorage() && group.isWarpLike())
    return op->emitOpError("warp operations take no temp_storage (the "
                           "compiler allocates warp scratch); remove "
                           "temp_storage");
  if (group.isWarpLike())
    return verifyWholeWarps(op, Twine("warp ") + name);
  return success();
}

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

static void addScratchEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), ScratchResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), ScratchResource::get());
}

/// A payload input is read (a scalar input is a value, not memory); output
/// payloads are written.
static void addPayloadEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects,
    OpOperand &input, MutableOperandRange outputs) {
  if (isa<MemRefType>(input.get().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &input,
                         SideEffects::DefaultResource::get());
  for (OpOperand &operand : outputs)
    effects.emplace_back(MemoryEffects::Write::get(), &operand,
                         SideEffects::DefaultResource::get());
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
    if (getResult())
      return emitOpError("mode '") << modeName << "' writes its output payload "
                                   << "and returns no value";
  } else {
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

//===----------------------------------------------------------------------===//
// Reduce and scan
//===----------------------------------------------------------------------===//

/// The rules of an operator: exactly one of a named operator and a
/// function (T, T) -> T; bitwise operators and unsigned comparisons need
/// integer items.
static LogicalResult verifyOperator(Operation *op, std::optional<BinaryOp> kind,
                                    FlatSymbolRefAttr combiner,
                                    bool isUnsigned, Type item) {
  if (bool(kind) == bool(combiner))
    return op->emitOpError("needs exactly one operator: a named one (op = sum, "
                           "min, max, ...) or a function (combiner = @f)");
  bool isInteger = isa<IntegerType>(item);
  if (kind && !isInteger &&
      (*kind == BinaryOp::bit_and || *kind == BinaryOp::bit_or ||
       *kind == BinaryOp::bit_xor))
    return op->emitOpError("operator '")
           << stringifyBinaryOp(*kind) << "' needs integer items; got " << item;
  if (isUnsigned && !isInteger)
    return op->emitOpError("'unsigned' applies to integer items; got ") << item;
  if (!combiner)
    return success();
  auto function =
      SymbolTable::lookupNearestSymbolFrom<FunctionOpInterface>(op, combiner);
  if (!function)
    return success(); // supplied by the host compiler when it links the site
  auto type = dyn_cast<FunctionType>(function.getFunctionType());
  if (!type || type.getNumInputs() != 2 || type.getNumResults() != 1 ||
      type.getInput(0) != item || type.getInput(1) != item ||
      type.getResult(0) != item)
    return op->emitOpError("combiner ")
           << combiner << " must take two items and return one (" << item
           << ", " << item << ") -> " << item << "; it is "
           << function.getFunctionType();
  return success();
}

/// Options that only blocks have.
static LogicalResult verifyBlockOptions(Operation *op, bool hasAlgorithm) {
  GroupType group = cast<CollectiveOpInterface>(op).getGroup().getType();
  if (hasAlgorithm && group.getKind() != GroupKind::block)
    return op->emitOpError("algorithm is a block option: ")
           << group << " combines by shuffles; remove algorithm";
  return success();
}

/// Scratch effects of a block reduction or scan (warps use shuffles).
static bool combinesThroughScratch(CollectiveOpInterface op) {
  return op.getGroup().getType().getKind() == GroupKind::block;
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyOperator(*this, getKind(), getCombinerAttr(),
                            getIsUnsigned(), getItemType())))
    return failure();
  Type input = getInput().getType();
  Type element = isa<MemRefType>(input)
                     ? cast<MemRefType>(input).getElementType()
                     : input;
  if (element != getResult().getType())
    return emitOpError("result type ")
           << getResult().getType() << " must be the item type " << element;
  return verifyBlockOptions(*this, bool(getAlgorithm()));
}

bool ReduceOp::acceptsThreadGroup() { return true; }

std::optional<ScratchLayout>
ReduceOp::getScratchLayout(const TileGeometry &tile) {
  if (tile.warpLike)
    return std::nullopt;
  int64_t block = tile.blockSize;
  switch (getBlockAlgorithm()) {
  case ReduceAlgorithm::warp_reductions:
    // One aggregate per warp (CUB's warp_aggregates).
    return ScratchLayout{
        static_cast<int64_t>(llvm::divideCeil(block, kWarpThreads)),
        SlotPadding(), 0};
  case ReduceAlgorithm::raking_commutative_only:
    if (block % kWarpThreads == 0 && block > kWarpThreads && !getValidItems())
      return ScratchLayout{
          RakingLayout(block - kWarpThreads).gridElements(), SlotPadding(), 0};
    [[fallthrough]];
  case ReduceAlgorithm::raking:
    return ScratchLayout{RakingLayout(block).gridElements(), SlotPadding(), 0};
  }
  llvm_unreachable("unknown reduce algorithm");
}

/// CUB's raking algorithms reduce or scan in one warp's branch (the raking
/// warp): ptxas proves that branch warp-uniform, and drops the divergence
/// checks and warp syncs around its shuffles, only when every warp is known
/// full. Asked of an explicit raking algorithm only: `.reqntid` also makes
/// ptxas predicate `warp_reductions`' fold (docs/numba.md).
bool ReduceOp::needsExactBlock() {
  std::optional<ReduceAlgorithm> algorithm = getAlgorithm();
  return algorithm && *algorithm != ReduceAlgorithm::warp_reductions;
}

ScratchAccess ReduceOp::getScratchAccess(const TileGeometry &) {
  return {SlotMap::dataDependent, SlotMap::dataDependent, false, true};
}

void ReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getInputMutable(),
                    MutableOperandRange(getOperation(), 0, 0));
  if (combinesThroughScratch(*this))
    addScratchEffects(effects);
}

LogicalResult ScanOp::verify() {
  Type element = getItemType();
  if (failed(verifyOperator(*this, getKind(), getCombinerAttr(),
                            getIsUnsigned(), element)))
    return failure();
  bool payload = isa<MemRefType>(getInput().getType());
  if (payload && (!getOutput() || getOutput().getType() != getInput().getType()))
    return emitOpError("scans a payload into an output payload ('into') of "
                       "the input's type ")
           << getInput().getType();
  if (!payload && getOutput())
    return emitOpError("scans a scalar and returns it; remove 'into'");
  size_t expected = (payload ? 0 : 1) + (getAggregate() ? 1 : 0);
  if (getResults().size() != expected)
    return emitOpError("returns ")
           << expected << " value(s): "
           << (payload ? "" : "the scanned scalar")
           << (!payload && getAggregate() ? " and " : "")
           << (getAggregate() ? "the aggregate" : "")
           << (expected == 0 ? "none (the payload goes to 'into')" : "")
           << "; got " << getResults().size();
  for (Type type : getResults().getTypes())
    if (type != element)
      return emitOpError("results must have the item type ")
             << element << "; got " << type;
  if (getInitialValue() && getInitialValue().getType() != element)
    return emitOpError("initial_value type ")
           << getInitialValue().getType() << " does not match the item type "
           << element;
  if (failed(verifyPrefix()))
    return failure();
  return verifyBlockOptions(*this, bool(getAlgorithm()));
}

/// The block prefix callback: both its function and its state, on blocks
/// only, never with an initial value (both seed the scan), and a function
/// (state, item) -> item where the module has it.
LogicalResult ScanOp::verifyPrefix() {
  FlatSymbolRefAttr callback = getPrefixCallbackAttr();
  if (bool(callback) != bool(getPrefixState()))
    return emitOpError("prefix needs both its function and its state: "
                       "prefix = @f(%state : type)");
  if (!callback)
    return success();
  GroupType group = getGroup().getType();
  if (group.getKind() != GroupKind::block)
    return emitOpError("prefix is a block option: ")
           << group
           << " scans by shuffles; carry the running total with 'aggregate' "
              "and combine it yourself";
  if (getInitialValue())
    return emitOpError("prefix and initial_value both seed the scan; pass one "
                       "(the prefix function can start from the initial value)");
  auto function =
      SymbolTable::lookupNearestSymbolFrom<FunctionOpInterface>(*this, callback);
  if (!function)
    return success(); // supplied by the host compiler when it links the site
  Type item = getItemType();
  Type state = getPrefixState().getType();
  auto type = dyn_cast<FunctionType>(function.getFunctionType());
  if (!type || type.getNumInputs() != 2 || type.getNumResults() != 1 ||
      type.getInput(0) != state || type.getInput(1) != item ||
      type.getResult(0) != item)
    return emitOpError("prefix function ")
           << callback << " must take the state and the tile's aggregate and "
           << "return the prefix (" << state << ", " << item << ") -> " << item
           << "; it is " << function.getFunctionType();
  return success();
}

std::optional<ScratchLayout> ScanOp::getScratchLayout(const TileGeometry &tile) {
  if (tile.warpLike)
    return std::nullopt;
  if (getBlockAlgorithm() == ScanAlgorithm::warp_scans) {
    // One aggregate per warp, and the block prefix a callback returns when
    // more than one warp needs it (CUB's block_prefix).
    int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
    return ScratchLayout{
        warps + (getPrefixCallback() && warps > 1 ? 1 : 0), SlotPadding(), 0};
  }
  // The raking grid, and the block aggregate after it when it is asked for
  // (CUB's TempStorage always has the slot).
  return ScratchLayout{RakingLayout(tile.blockSize).gridElements() +
                           (getAggregate() ? 1 : 0),
                       SlotPadding(), 0};
}

bool ScanOp::needsExactBlock() {
  std::optional<ScanAlgorithm> algorithm = getAlgorithm();
  return algorithm && *algorithm != ScanAlgorithm::warp_scans;
}

ScratchAccess ScanOp::getScratchAccess(const TileGeometry &tile) {
  ScratchAccess access{SlotMap::dataDependent, SlotMap::dataDependent, false,
                       true};
  if (getBlockAlgorithm() != ScanAlgorithm::warp_scans) {
    // A thread writes its partial to its own slot of the raking grid, and
    // after the last barrier reads its prefix from that slot (and the
    // aggregate after the grid, which the raking threads write only after
    // the first barrier).
    access.scatter = access.gather = SlotMap::rakingGrid;
    return access;
  }
  // With a callback, the warps write their aggregates, and after the last
  // barrier every thread reads only the block prefix after them.
  int64_t warps = llvm::divideCeil(tile.blockSize, kWarpThreads);
  if (getPrefixCallback() && warps > 1) {
    access.head = {0, warps};
    access.tail = {warps, warps + 1};
  }
  return access;
}

void ScanOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getInputMutable(), getOutputMutable());
  // The prefix function may read and update the state it is given.
  for (OpOperand &state : getPrefixStateMutable())
    if (isa<MemRefType>(state.get().getType())) {
      effects.emplace_back(MemoryEffects::Read::get(), &state,
                           SideEffects::DefaultResource::get());
      effects.emplace_back(MemoryEffects::Write::get(), &state,
                           SideEffects::DefaultResource::get());
    }
  if (combinesThroughScratch(*this))
    addScratchEffects(effects);
}

#include "coop/Dialect/Coop/IR/CoopInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "coop/Dialect/Coop/IR/CoopOps.cpp.inc"
