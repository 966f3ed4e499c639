//===- CoopCollective.cpp - what every collective op shares ---------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;

ScratchLayout mlir::coop::exchangeLayout(const TileGeometry &tile,
                                         bool timeSliced, bool scatter) {
  int64_t ipt = tile.itemsPerThread;
  // One padding slot per 32 items when ipt > 4 is a power of two: CUB's
  // BlockExchange in every mode, WarpExchange in ScatterToStriped only.
  bool pad = ipt > 4 && llvm::isPowerOf2_64(ipt);
  if (tile.warpLike) {
    // cub::WarpExchange (shared memory): width * ipt + 1 items per logical
    // warp (padded), one copy per group in the block.
    pad = pad && scatter;
    int64_t items = tile.groupSize * ipt + 1;
    int64_t stride = items + (pad ? items >> kLogSharedMemoryBanks : 0);
    return ScratchLayout{stride * tile.groupsPerBlock(), pad, stride};
  }
  int64_t threads =
      timeSliced ? std::min(tile.blockSize, kWarpThreads) : tile.blockSize;
  int64_t items = threads * ipt;
  return ScratchLayout{items + (pad ? items >> kLogSharedMemoryBanks : 0), pad,
                       0};
}

RakingLayout::RakingLayout(int64_t sharedElements)
    : sharedElements(sharedElements) {
  int64_t maxRaking = std::min(sharedElements, kWarpThreads);
  segment = llvm::divideCeil(sharedElements, maxRaking);
  // Never a raking thread without data (62 elements, segment 2: 31 threads).
  rakingThreads = llvm::divideCeil(sharedElements, segment);
  padded = segment % 2 == 0 && segment > 2;
}

FailureOr<TileGeometry> mlir::coop::getTileGeometry(CollectiveOpInterface op) {
  GroupType group = op.getGroup().getType();
  std::optional<int64_t> blockSize = getKnownBlockSize(op);
  if (!blockSize)
    return op->emitOpError("needs the block size, which is a launch fact: "
                           "set known_block_size on the enclosing gpu.func "
                           "(or gpu.known_block_size on the function)");
  if (*blockSize > kMaxBlockThreads)
    return op->emitOpError("block of ")
           << *blockSize << " threads exceeds CUDA's " << kMaxBlockThreads
           << " threads per block";
  TileGeometry tile;
  tile.warpLike = group.isWarpLike();
  tile.groupSize = tile.warpLike ? *group.getStaticSize() : *blockSize;
  tile.blockSize = *blockSize;
  tile.itemsPerThread = op.getItemsPerThread();
  tile.elementType = op.getItemType();
  tile.elementBytes = tile.elementType.getIntOrFloatBitWidth() / 8;
  return tile;
}

bool mlir::coop::hasScratchEffect(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return e.getResource() == ScratchResource::get();
  });
}
