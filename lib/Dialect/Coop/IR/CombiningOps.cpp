//===- CombiningOps.cpp - reduce and scan: verifiers, scratch, effects ------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

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
  if (getValidItems() && !getGroup().getType().isWarpLike())
    return emitOpError("valid_items on a scan is a warp option (CUB's "
                       "partial warp scans); a block scans whole tiles: pad a "
                       "partial tile with the operator's identity (load's "
                       "oob_default)");
  if (failed(verifyPrefix()))
    return failure();
  return verifyBlockOptions(*this, bool(getAlgorithm()));
}

/// The block prefix callback: both its function and its state, on blocks
/// only, never with an initial value (both seed the scan), and a function
/// (state, item) -> item where the module has it.
LogicalResult ScanOp::verifyPrefix() {
  FlatSymbolRefAttr callback = getPrefixCallbackAttr();
  if (!callback) {
    if (getPrefixState())
      return emitOpError("a prefix state needs its function: "
                         "prefix = @f(%state : type)");
    return success();
  }
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
  SmallVector<Type, 2> inputs;
  if (Value state = getPrefixState())
    inputs.push_back(state.getType());
  inputs.push_back(item);
  auto wanted = FunctionType::get(getContext(), inputs, {item});
  if (function.getFunctionType() != wanted)
    return emitOpError("prefix function ")
           << callback << " must take "
           << (getPrefixState() ? "the state and " : "")
           << "the tile's aggregate and return the prefix " << wanted
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

//===----------------------------------------------------------------------===//
// Batched warp reduction
//===----------------------------------------------------------------------===//

LogicalResult ReduceBatchedOp::verify() {
  GroupType group = getGroup().getType();
  if (!group.isWarpLike())
    return emitOpError("is a warp operation (CUB's WarpReduceBatched): use "
                       "this_warp() or a logical warp (this_warp().group_by(n)), "
                       "not ")
           << group;
  if (failed(verifyOperator(*this, getKind(), getCombinerAttr(),
                            getIsUnsigned(), getItemType())))
    return failure();
  int64_t width = group.getKind() == GroupKind::threads_within_warp
                      ? group.getCount()
                      : kWarpThreads;
  int64_t slots = llvm::divideCeil(getItemsPerThread(), width);
  auto output = cast<MemRefType>(getOutput().getType());
  if (output.getElementType() != getItemType() || output.getDimSize(0) != slots)
    return emitOpError("output must hold ceil(")
           << getItemsPerThread() << " batches / " << width << " lanes) = "
           << slots << " items of " << getItemType() << "; got " << output;
  return success();
}

std::optional<ScratchLayout>
ReduceBatchedOp::getScratchLayout(const TileGeometry &) {
  return std::nullopt; // shuffles only
}

ScratchAccess ReduceBatchedOp::getScratchAccess(const TileGeometry &) {
  return {SlotMap::dataDependent, SlotMap::dataDependent, true, false};
}

void ReduceBatchedOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPayloadEffects(effects, getInputMutable(), getOutputMutable());
}
