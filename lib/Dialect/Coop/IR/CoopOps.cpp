//===- CoopOps.cpp - coop operations: groups, temp storage, collectives ---===//
//
// The ops' definitions, the group and temp storage ops' verifiers and what
// every collective shares (its verifier, its effects). Each family's
// verifiers, scratch layouts and effects live in a file of its own:
// TileOps.cpp, ExchangeOps.cpp, CombiningOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "OpHelpers.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::detail;

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

static int64_t itemBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

int64_t ReserveOp::getBytes() {
  return getCount() * itemBytes(getResult().getType().getElementType());
}

int64_t ReserveOp::getByteAlignment() {
  return getAlignment().value_or(
      itemBytes(getResult().getType().getElementType()));
}

LogicalResult ReserveOp::verify() {
  MemRefType type = getResult().getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  Type element = type.getElementType();
  if (type.getRank() != 1 || type.getDimSize(0) != getCount() ||
      !type.getLayout().isIdentity() || !space ||
      space.getValue() != gpu::AddressSpace::Workgroup ||
      !element.isIntOrFloat())
    return emitOpError("result must be memref<")
           << getCount()
           << "xT, #gpu.address_space<workgroup>> of an integer or float "
              "item type T; got "
           << type;
  if (std::optional<int64_t> alignment = getAlignment())
    if (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment) ||
        *alignment < itemBytes(element))
      return emitOpError("alignment must be a power of two of at least the "
                         "item's ")
             << itemBytes(element) << " bytes; got " << *alignment;
  return success();
}

void ReserveOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A fresh array each: two reservations are never one.
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       getOperation()->getOpResult(0),
                       SideEffects::DefaultResource::get());
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

LogicalResult mlir::coop::detail::verifyWholeWarps(Operation *op, const Twine &what) {
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
  if (group.isWarpLike())
    return verifyWholeWarps(op, Twine("warp ") + name);
  return success();
}

void mlir::coop::detail::addScratchEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), ScratchResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), ScratchResource::get());
}

void mlir::coop::detail::addPayloadEffects(
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

#include "coop/Dialect/Coop/IR/CoopInterfaces.cpp.inc"

/// A scan's prefix state after its function: `(%state : type)`, or nothing
/// for a stateless prefix function.
static ParseResult
parsePrefixState(OpAsmParser &parser,
                 std::optional<OpAsmParser::UnresolvedOperand> &state,
                 Type &type) {
  if (failed(parser.parseOptionalLParen()))
    return success();
  OpAsmParser::UnresolvedOperand operand;
  if (parser.parseOperand(operand) || parser.parseColonType(type) ||
      parser.parseRParen())
    return failure();
  state = operand;
  return success();
}

static void printPrefixState(OpAsmPrinter &printer, Operation *, Value state,
                             Type type) {
  if (state)
    printer << "(" << state << " : " << type << ")";
}

#define GET_OP_CLASSES
#include "coop/Dialect/Coop/IR/CoopOps.cpp.inc"
