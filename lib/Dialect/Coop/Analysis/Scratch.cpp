//===- Scratch.cpp - tile geometry and scratch needs of coop ops ----------===//

#include "coop/Dialect/Coop/Analysis/Scratch.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;

Value mlir::coop::getTempStorage(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getTempStorage();
  return cast<StoreOp>(op).getTempStorage();
}

Algorithm mlir::coop::getAlgorithm(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getAlgorithm();
  return cast<StoreOp>(op).getAlgorithm();
}

Value mlir::coop::getGroup(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getGroup();
  return cast<StoreOp>(op).getGroup();
}

FailureOr<TileGeometry> mlir::coop::getTileGeometry(Operation *op) {
  GroupType group;
  int64_t itemsPerThread;
  Type elementType;
  if (auto load = dyn_cast<LoadOp>(op)) {
    group = load.getGroup().getType();
    itemsPerThread = load.getItemsPerThread();
    elementType = load.getSource().getType().getElementType();
  } else {
    auto store = cast<StoreOp>(op);
    group = store.getGroup().getType();
    itemsPerThread = store.getItemsPerThread();
    elementType = store.getDestination().getType().getElementType();
  }
  std::optional<int64_t> blockSize = getKnownBlockSize(op);
  if (!blockSize)
    return op->emitOpError("needs the block size, which is a launch fact: "
                           "set known_block_size on the enclosing gpu.func "
                           "(or gpu.known_block_size on the function)");
  if (*blockSize > 1024)
    return op->emitOpError("block of ")
           << *blockSize << " threads exceeds CUDA's 1024 threads per block";
  TileGeometry tile;
  tile.algorithm = getAlgorithm(op);
  tile.warpLike = group.isWarpLike();
  tile.groupSize = tile.warpLike ? *group.getStaticSize() : *blockSize;
  tile.blockSize = *blockSize;
  tile.itemsPerThread = itemsPerThread;
  tile.elementType = elementType;
  tile.elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  return tile;
}

std::optional<ScratchLayout>
mlir::coop::getScratchLayout(const TileGeometry &tile) {
  if (!usesScratch(tile.algorithm))
    return std::nullopt;
  int64_t ipt = tile.itemsPerThread;
  bool pad = ipt > 4 && llvm::isPowerOf2_64(ipt);
  auto padded = [&](int64_t items) { return items + (pad ? items >> 5 : 0); };
  if (tile.warpLike) {
    // cub::WarpExchange (shared memory): width * ipt + 1 items per logical
    // warp, one copy per group actually in the block.
    int64_t stride = tile.groupSize * ipt + 1;
    return ScratchLayout{stride * tile.groupsPerBlock(), false, stride};
  }
  switch (tile.algorithm) {
  case Algorithm::transpose:
  case Algorithm::warp_transpose:
    return ScratchLayout{padded(tile.tileItems()), pad, 0};
  case Algorithm::warp_transpose_timesliced:
    return ScratchLayout{padded(kWarpThreads * ipt), pad, 0};
  default:
    return std::nullopt;
  }
}
