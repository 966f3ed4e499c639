//===- Barriers.cpp - which scratch reuses need a barrier -----------------===//
//
// A forward may-analysis: the state at a program point is the set of scratch
// ranges that some thread may still be reading since the last block barrier.
// Loops are analysed to a fixed point with their back edge, so a reuse across
// iterations is seen; CFG regions (blocks and branches) are analysed to a
// fixed point over their blocks.
//
//===----------------------------------------------------------------------===//

#include "coop/Dialect/Coop/Analysis/Barriers.h"
#include "coop/Dialect/Coop/Analysis/Scratch.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coop;

namespace {

/// One op's use of scratch that may still be in flight.
struct PendingUse {
  Operation *op;
  int64_t begin, end;     // byte range in the function's scratch buffer
  TileGeometry tile;

  bool operator==(const PendingUse &other) const { return op == other.op; }
};

/// True when every scratch slot that `earlier` reads last is written first
/// by `later` from the same thread, so no other thread can race on it. An
/// exchange's phases are scatter then gather: a load scatters in memory order
/// and gathers blocked, a store the reverse. So a load followed by the
/// matching store (or a store by the next iteration's matching load) touches
/// each slot from one thread, given the same algorithm, geometry and slice.
/// Time-sliced exchanges share one warp's region between all warps, so they
/// never qualify.
bool sameThreadSlots(const PendingUse &earlier, const PendingUse &later) {
  const TileGeometry &a = earlier.tile, &b = later.tile;
  return isa<LoadOp>(earlier.op) != isa<LoadOp>(later.op) &&
         a.algorithm == b.algorithm &&
         a.algorithm != Algorithm::warp_transpose_timesliced &&
         a.warpLike == b.warpLike && a.groupSize == b.groupSize &&
         a.blockSize == b.blockSize && a.itemsPerThread == b.itemsPerThread &&
         a.elementBytes == b.elementBytes && earlier.begin == later.begin;
}

/// Exchanges that each warp (block warp_transpose) or logical warp does in
/// its own region of the slice, synchronized by a warp barrier.
bool isGroupLocal(const TileGeometry &tile) {
  return tile.warpLike || tile.algorithm == Algorithm::warp_transpose;
}

/// True when both uses split the slice into the same per-group regions, so a
/// hazard between them stays inside one group and the group's barrier
/// orders it.
bool sameGroupRegions(const PendingUse &a, const PendingUse &b) {
  return isGroupLocal(a.tile) && a.tile.algorithm == b.tile.algorithm &&
         a.tile.warpLike == b.tile.warpLike &&
         a.tile.groupSize == b.tile.groupSize &&
         a.tile.blockSize == b.tile.blockSize &&
         a.tile.itemsPerThread == b.tile.itemsPerThread &&
         a.tile.elementBytes == b.tile.elementBytes && a.begin == b.begin;
}

/// True when the op's own exchange has a block barrier after its first
/// scratch access, which orders every earlier access of every thread.
bool hasInternalBlockBarrier(const TileGeometry &tile) {
  if (tile.warpLike)
    return false;
  return tile.algorithm == Algorithm::transpose ||
         (tile.algorithm == Algorithm::warp_transpose_timesliced &&
          tile.blockSize > kWarpThreads);
}

using State = SmallVector<PendingUse, 4>;

void merge(State &into, const State &from) {
  for (const PendingUse &use : from)
    if (!llvm::is_contained(into, use))
      into.push_back(use);
}

bool sameSet(const State &a, const State &b) {
  return a.size() == b.size() &&
         llvm::all_of(a, [&](const PendingUse &u) { return llvm::is_contained(b, u); });
}

bool isBlockBarrier(Operation *op) {
  if (isa<gpu::BarrierOp>(op))
    return true;
  if (auto barrier = dyn_cast<BarrierOp>(op))
    return barrier.getGroup().getType().getKind() == GroupKind::block;
  return false;
}

class Analysis {
public:
  llvm::DenseMap<Operation *, BarrierDecision> decisions;

  State region(Region &region, State in) {
    if (region.empty())
      return in;
    if (region.hasOneBlock())
      return block(region.front(), std::move(in));
    // Fixed point over the region's CFG. States only grow, so a block is
    // revisited only when its entry state gained a use.
    llvm::DenseMap<Block *, State> entry;
    entry[&region.front()] = std::move(in);
    llvm::SetVector<Block *> worklist;
    llvm::DenseSet<Block *> done;
    worklist.insert(&region.front());
    State exit;
    while (!worklist.empty()) {
      Block *b = worklist.pop_back_val();
      State out = block(*b, entry[b]);
      done.insert(b);
      if (b->getNumSuccessors() == 0)
        merge(exit, out);
      for (Block *succ : b->getSuccessors()) {
        State &succIn = entry[succ];
        size_t before = succIn.size();
        merge(succIn, out);
        if (succIn.size() != before || !done.contains(succ))
          worklist.insert(succ);
      }
    }
    return exit;
  }

private:
  State block(Block &block, State state) {
    for (Operation &op : block)
      state = operation(&op, std::move(state));
    return state;
  }

  State operation(Operation *op, State state) {
    if (isBlockBarrier(op))
      return {};
    if (isa<LoadOp, StoreOp>(op))
      return tile(op, std::move(state));
    if (op->getNumRegions() == 0)
      return state;
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      State out = region(ifOp.getThenRegion(), state);
      merge(out, region(ifOp.getElseRegion(), state));
      return out;
    }
    // Loops and any other region op: its regions may run any number of times
    // (zero included), in any order. Iterate until the state at their entry
    // is stable, so a use in one iteration meets the uses of the previous.
    State entryState = state;
    while (true) {
      State next = entryState;
      for (Region &r : op->getRegions())
        merge(next, region(r, entryState));
      if (sameSet(next, entryState))
        return next;
      entryState = std::move(next);
    }
  }

  State tile(Operation *op, State state) {
    auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
    if (!offset)
      return state;
    FailureOr<TileGeometry> geometry = getTileGeometry(op);
    if (failed(geometry))
      return state;
    std::optional<ScratchLayout> layout = getScratchLayout(*geometry);
    if (!layout)
      return state;

    bool autoSync = false;
    if (Value storage = getTempStorage(op)) {
      auto descriptor = storage.getDefiningOp<TempStorageOp>();
      autoSync = descriptor && descriptor.getAutoSync();
      if (!autoSync)
        return state; // The program owns synchronization of this storage.
    }

    PendingUse use{op, offset.getInt(),
                   offset.getInt() + layout->bytes(geometry->elementBytes),
                   *geometry};
    BarrierDecision &decision = decisions[op];
    BarrierKind needed = BarrierKind::none;
    Operation *reused = nullptr;
    for (const PendingUse &earlier : state) {
      if (earlier.end <= use.begin || use.end <= earlier.begin ||
          sameThreadSlots(earlier, use))
        continue;
      BarrierKind kind = sameGroupRegions(earlier, use) ? BarrierKind::warp
                                                        : BarrierKind::block;
      if (kind > needed) {
        needed = kind;
        reused = earlier.op;
      }
    }
    if (needed > decision.before) {
      decision.before = needed;
      decision.reuses = reused;
    }
    // What is still pending after the op: its own barriers (the reuse
    // barrier before it, the exchange's internal one) order earlier uses.
    if (decision.before == BarrierKind::block || hasInternalBlockBarrier(use.tile))
      state.clear();
    else if (decision.before == BarrierKind::warp || isGroupLocal(use.tile))
      llvm::erase_if(state, [&](const PendingUse &u) {
        return sameGroupRegions(u, use);
      });
    if (autoSync) {
      decision.trailing = true;
      return {};
    }
    llvm::erase(state, use);
    state.push_back(use);
    return state;
  }
};

} // namespace

llvm::DenseMap<Operation *, BarrierDecision>
mlir::coop::analyzeReuseBarriers(FunctionOpInterface fn) {
  Analysis analysis;
  if (!fn.isExternal())
    analysis.region(fn.getFunctionBody(), {});
  return std::move(analysis.decisions);
}
