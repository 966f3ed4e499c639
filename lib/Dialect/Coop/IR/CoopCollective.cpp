//===- CoopCollective.cpp - what every collective op shares ---------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::coop;

int64_t SlotPadding::apply(int64_t position) const {
  switch (kind) {
  case Kind::none:
    return position;
  case Kind::shiftAdd:
    return position + (position >> kLogSharedMemoryBanks);
  case Kind::xorRow:
    return position ^ (((position >> rowShift) << rowScale) &
                       ((int64_t(1) << bits) - 1));
  }
  llvm_unreachable("unknown slot padding");
}

std::optional<int64_t> SlotPadding::shift(int64_t delta) const {
  switch (kind) {
  case Kind::none:
    return delta;
  case Kind::shiftAdd: {
    int64_t banks = int64_t(1) << kLogSharedMemoryBanks;
    if (delta % banks)
      return std::nullopt;
    return delta + delta / banks;
  }
  case Kind::xorRow: {
    // The XOR term reads bits [rowShift, rowShift + bits - rowScale) and
    // writes bits [0, bits): a delta with all of those bits clear (and none
    // below) leaves the term alone and carries nothing through it.
    int64_t period = std::max(bits, rowShift + std::max<int64_t>(bits - rowScale, 0));
    if (delta % (int64_t(1) << period))
      return std::nullopt;
    return delta;
  }
  }
  llvm_unreachable("unknown slot padding");
}

std::string SlotPadding::str() const {
  switch (kind) {
  case Kind::none:
    return "";
  case Kind::shiftAdd:
    return "padded";
  case Kind::xorRow:
    return "swizzled (low " + std::to_string(bits) + " bits ^ row << " +
           std::to_string(rowScale) + ")";
  }
  llvm_unreachable("unknown slot padding");
}

/// The position of item `i` of the thread of group rank `rank` (and lane
/// `lane` of its warp) in a phase's map.
static int64_t mapPosition(const TileGeometry &tile, SlotMap map,
                           int64_t rank, int64_t lane, int64_t i) {
  switch (map) {
  case SlotMap::blocked:
    return rank * tile.itemsPerThread + i;
  case SlotMap::striped:
    return rank + i * tile.groupSize;
  case SlotMap::warpStriped:
    return lane + i * kWarpThreads;
  case SlotMap::rakingGrid:
  case SlotMap::dataDependent:
    break;
  }
  llvm_unreachable("only an exchange's slots have a position map");
}

int64_t mlir::coop::bankWavefronts(const TileGeometry &tile, SlotMap map,
                                   const ScratchLayout &layout) {
  constexpr int64_t wordBytes = 4;
  constexpr int64_t maxAccessBytes = 16;
  int64_t lanes = std::min(tile.blockSize, kWarpThreads);
  auto laneRank = [&](int64_t lane) {
    return tile.warpLike ? lane % tile.groupSize : lane;
  };
  auto laneRegion = [&](int64_t lane) {
    return tile.warpLike ? lane / tile.groupSize * layout.groupStride : 0;
  };
  // A thread's blocked items are contiguous in an unpadded layout, and the
  // compiler joins them into vector accesses of up to 16 bytes where every
  // thread's run is aligned to the vector (nvcc does so for CUB, NVVM's
  // load-store vectorizer for our lowering): at 4 int32 items a thread, one
  // 16-byte access of 4 wavefronts, not 4 accesses of 4 each.
  int64_t accessBytes = tile.elementBytes;
  if (map == SlotMap::blocked &&
      layout.padding.kind == SlotPadding::Kind::none) {
    int64_t run = tile.itemsPerThread * tile.elementBytes;
    // Every group's region too: a warp's region is at an offset the
    // compiler cannot know.
    bool regions = !tile.warpLike || tile.groupsPerBlock() == 1;
    auto aligned = [&](int64_t width) {
      if (run % width != 0 ||
          (!regions && layout.groupStride * tile.elementBytes % width != 0))
        return false;
      for (int64_t lane = 0; lane < lanes; ++lane)
        if ((laneRegion(lane) + laneRank(lane) * tile.itemsPerThread) *
                tile.elementBytes % width !=
            0)
          return false;
      return true;
    };
    for (int64_t width = maxAccessBytes; width > accessBytes; width /= 2) {
      if (aligned(width)) {
        accessBytes = width;
        break;
      }
    }
  }
  int64_t itemsPerAccess = accessBytes / tile.elementBytes;
  // A wider access is served a part of the warp at a time (half-warps for 8
  // bytes, quarter-warps for 16), and banks conflict only within a part.
  int64_t partLanes =
      kWarpThreads / std::max<int64_t>(1, accessBytes / wordBytes);
  int64_t total = 0;
  // Per bank, the distinct words a part's access touches: lanes reading one
  // word share it; distinct words of one bank serialize.
  std::array<SmallVector<int64_t, 4>, kWarpThreads> bankWords;
  for (int64_t i = 0; i < tile.itemsPerThread; i += itemsPerAccess) {
    for (int64_t part = 0; part < lanes; part += partLanes) {
      for (SmallVector<int64_t, 4> &words : bankWords)
        words.clear();
      size_t worst = 0;
      for (int64_t lane = part; lane < std::min(lanes, part + partLanes);
           ++lane) {
        int64_t position = mapPosition(tile, map, laneRank(lane), lane, i);
        int64_t slot = laneRegion(lane) + layout.padding.apply(position);
        int64_t first = slot * tile.elementBytes;
        for (int64_t byte = first; byte < first + accessBytes;
             byte += wordBytes) {
          int64_t word = byte / wordBytes;
          SmallVector<int64_t, 4> &words = bankWords[word % kWarpThreads];
          if (!llvm::is_contained(words, word)) {
            words.push_back(word);
            worst = std::max(worst, words.size());
          }
        }
      }
      total += worst;
    }
  }
  return total;
}

ScratchLayout mlir::coop::cubExchangeLayout(const TileGeometry &tile,
                                            bool timeSliced,
                                            bool padPositions) {
  int64_t ipt = tile.itemsPerThread;
  bool pad = ipt > 4 && llvm::isPowerOf2_64(ipt);
  if (tile.warpLike) {
    int64_t items = tile.groupSize * ipt + 1;
    int64_t stride = items + (pad ? items >> kLogSharedMemoryBanks : 0);
    return ScratchLayout{stride * tile.groupsPerBlock(),
                         pad && padPositions ? SlotPadding::shiftAdd()
                                             : SlotPadding(),
                         stride};
  }
  int64_t threads =
      timeSliced ? std::min(tile.blockSize, kWarpThreads) : tile.blockSize;
  int64_t items = threads * ipt;
  return ScratchLayout{items + (pad ? items >> kLogSharedMemoryBanks : 0),
                       pad ? SlotPadding::shiftAdd() : SlotPadding(), 0};
}

ScratchLayout mlir::coop::exchangeLayout(const TileGeometry &tile,
                                         bool timeSliced,
                                         const ScratchAccess &access) {
  bool staticMaps =
      isExchangeMap(access.scatter) && isExchangeMap(access.gather);
  ScratchLayout cub = cubExchangeLayout(tile, timeSliced, !staticMaps);
  if (timeSliced || !staticMaps)
    return cub;
  // The model costs up to a few milliseconds at 16 items a thread; a kernel's
  // sites often share a geometry. Each compiling thread keeps its own.
  using Key = std::tuple<bool, int64_t, int64_t, int64_t, int64_t, SlotMap,
                         SlotMap>;
  thread_local std::map<Key, ScratchLayout> chosenLayouts;
  Key key{tile.warpLike,       tile.groupSize,     tile.blockSize,
          tile.itemsPerThread, tile.elementBytes, access.scatter,
          access.gather};
  if (auto known = chosenLayouts.find(key); known != chosenLayouts.end())
    return known->second;

  SmallVector<SlotPadding> paddings = {SlotPadding(), SlotPadding::shiftAdd()};
  constexpr int64_t rowBytes = kWarpThreads * 4;
  if (rowBytes % tile.elementBytes == 0) {
    int64_t rowShift = llvm::Log2_64(rowBytes / tile.elementBytes);
    for (int64_t bits = 1; bits <= kLogSharedMemoryBanks; ++bits)
      for (int64_t rowScale = 0; rowScale <= 2; ++rowScale)
        paddings.push_back(SlotPadding::xorRow(rowShift, rowScale, bits));
  }
  int64_t items = tile.tileItems();
  // The slots a layout may take: CUB's TempStorage (per group, for warps).
  int64_t budget = tile.warpLike ? cub.groupStride : cub.elements;
  auto wavefronts = [&](const ScratchLayout &layout) {
    return bankWavefronts(tile, access.scatter, layout) +
           bankWavefronts(tile, access.gather, layout);
  };
  // Another layout must take fewer wavefronts than CUB's: on a tie CUB's
  // keeps its cheaper address arithmetic (a swizzle costs one more
  // instruction an access, which at 64 registers a thread can spill).
  std::pair<int64_t, int64_t> best = {wavefronts(cub), cub.elements};
  ScratchLayout chosen = cub;
  bool cubs = true;
  for (const SlotPadding &padding : paddings) {
    int64_t needed = 0;
    for (int64_t p = 0; p < items; ++p)
      needed = std::max(needed, padding.apply(p) + 1);
    SmallVector<int64_t> strides = {needed};
    if (tile.warpLike)
      strides.append({items + 1, budget});
    for (int64_t stride : strides) {
      if (stride < needed || stride > budget)
        continue;
      ScratchLayout layout =
          tile.warpLike
              ? ScratchLayout{stride * tile.groupsPerBlock(), padding, stride}
              : ScratchLayout{stride, padding, 0};
      std::pair<int64_t, int64_t> cost = {wavefronts(layout), stride};
      if (cost.first < best.first || (!cubs && cost < best)) {
        best = cost;
        chosen = layout;
        cubs = false;
      }
    }
  }
  chosenLayouts.emplace(key, chosen);
  return chosen;
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
