//===- Barriers.cpp - which scratch reuses need a barrier -----------------===//
//
// A forward may-analysis: the state at a program point is the set of scratch
// ranges that some thread may still be reading since the last block barrier.
// Ops take part through their memory effects on the scratch resource and
// their CollectiveOpInterface (geometry, layout, the slot maps of their
// phases); control flow through RegionBranchOpInterface (regions analysed to
// a fixed point along the successors the op declares, so loops see their
// back edges), CFG regions to a fixed point over their blocks, and calls
// through CallOpInterface (a callee that synchronizes the block on every path
// orders what its caller left pending).
//
//===----------------------------------------------------------------------===//

#include "coop/Dialect/Coop/Analysis/Barriers.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coop;

namespace {

/// One op's use of scratch that may still be in flight.
struct PendingUse {
  Operation *op;
  int64_t slice;          // where the op's slice begins in the buffer
  int64_t begin, end;     // the bytes in flight
  TileGeometry tile;
  ScratchAccess access;

  bool operator==(const PendingUse &other) const { return op == other.op; }
};

/// True when every scratch slot that `earlier` reads last is written first
/// by `later` from the same thread, so no other thread can race on it: the
/// later op scatters with the map the earlier one gathered with, over the
/// same slice and geometry. A transpose load followed by the matching store
/// (or a store by the next iteration's matching load, or an exchange back)
/// qualifies; data-dependent slots never do.
bool sameThreadSlots(const PendingUse &earlier, const PendingUse &later) {
  return earlier.access.gather != SlotMap::dataDependent &&
         earlier.access.gather == later.access.scatter &&
         earlier.tile == later.tile && earlier.slice == later.slice;
}

/// True when both uses split the slice into the same per-group regions, so a
/// hazard between them stays inside one group and the group's barrier
/// orders it.
bool sameGroupRegions(const PendingUse &a, const PendingUse &b) {
  return a.access.groupLocal && b.access.groupLocal && a.tile == b.tile &&
         a.slice == b.slice;
}

/// `use` narrowed to the elements `range` of its slice.
PendingUse narrowed(PendingUse use, SliceRange range) {
  int64_t bytes = use.tile.elementBytes;
  if (range.begin > 0)
    use.begin = std::max(use.begin, use.slice + range.begin * bytes);
  if (range.end < std::numeric_limits<int64_t>::max())
    use.end = std::min(use.end, use.slice + range.end * bytes);
  return use;
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
  /// Callees known to synchronize the block on every path.
  llvm::DenseMap<Operation *, bool> calleeSynchronizes;
  /// Set when analysing a callee for its barriers only: its collectives use
  /// its own scratch buffer.
  bool ignoreCollectives = false;

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
    if (auto collective = dyn_cast<CollectiveOpInterface>(op))
      if (hasScratchEffect(op))
        return tile(collective, std::move(state));
    if (auto call = dyn_cast<CallOpInterface>(op))
      return synchronizesBlock(call) ? State() : state;
    if (op->getNumRegions() == 0)
      return state;
    if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
      return regionBranch(branch, std::move(state));
    // Any other region op: its regions may run any number of times (zero
    // included), in any order. Iterate until the state at their entry is
    // stable, so a use in one iteration meets the uses of the previous.
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

  /// Propagates the state along the region successors the op declares, to
  /// a fixed point; what reaches the parent is the state after the op.
  State regionBranch(RegionBranchOpInterface branch, State state) {
    llvm::DenseMap<Region *, State> entry;
    llvm::SetVector<Region *> worklist;
    State after;
    auto flow = [&](ArrayRef<RegionSuccessor> successors, const State &out) {
      for (const RegionSuccessor &successor : successors) {
        if (successor.isParent()) {
          merge(after, out);
          continue;
        }
        Region *next = successor.getSuccessor();
        auto [it, inserted] = entry.try_emplace(next, out);
        size_t before = it->second.size();
        if (!inserted)
          merge(it->second, out);
        if (inserted || it->second.size() != before)
          worklist.insert(next);
      }
    };
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
    flow(successors, state);
    while (!worklist.empty()) {
      Region *r = worklist.pop_back_val();
      State out = region(*r, entry[r]);
      successors.clear();
      branch.getSuccessorRegions(*r, successors);
      flow(successors, out);
    }
    return after;
  }

  /// True when the callee executes a block barrier on every path (checked
  /// by analysing it from a state that only a block barrier clears).
  bool synchronizesBlock(CallOpInterface call) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
    if (!callee || callee.isExternal())
      return false;
    auto [it, inserted] = calleeSynchronizes.try_emplace(callee, false);
    if (!inserted)
      return it->second; // also breaks recursion: assume no barrier
    PendingUse marker{call, 0, 0, 0, {}, {}};
    Analysis inner;
    inner.calleeSynchronizes = calleeSynchronizes;
    inner.ignoreCollectives = true;
    State out = inner.region(callee.getFunctionBody(), State{marker});
    bool synchronizes = !llvm::is_contained(out, marker);
    calleeSynchronizes[callee] = synchronizes;
    return synchronizes;
  }

  State tile(CollectiveOpInterface op, State state) {
    auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
    if (!offset || ignoreCollectives)
      return state;
    FailureOr<TileGeometry> geometry = getTileGeometry(op);
    if (failed(geometry))
      return state;
    std::optional<ScratchLayout> layout = op.getScratchLayout(*geometry);
    if (!layout)
      return state;

    bool autoSync = false;
    if (Value storage = op.getTempStorage()) {
      auto descriptor = storage.getDefiningOp<TempStorageOp>();
      autoSync = descriptor && descriptor.getAutoSync();
      if (!autoSync)
        return state; // The program owns synchronization of this storage.
    }

    PendingUse use{op,
                   offset.getInt(),
                   offset.getInt(),
                   offset.getInt() + layout->bytes(geometry->elementBytes),
                   *geometry,
                   op.getScratchAccess(*geometry)};
    // What follows an internal block barrier is ordered after every earlier
    // access: only the op's head can race with them.
    bool internal = use.access.internalBlockBarrier;
    PendingUse head = internal ? narrowed(use, use.access.head) : use;
    BarrierDecision &decision = decisions[op];
    BarrierKind needed = BarrierKind::none;
    Operation *reused = nullptr;
    for (const PendingUse &earlier : state) {
      if (earlier.end <= head.begin || head.end <= earlier.begin ||
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
    if (decision.before == BarrierKind::block || internal)
      state.clear();
    else if (decision.before == BarrierKind::warp || use.access.groupLocal)
      llvm::erase_if(state, [&](const PendingUse &u) {
        return sameGroupRegions(u, use);
      });
    if (autoSync) {
      decision.trailing = true;
      return {};
    }
    llvm::erase(state, use);
    state.push_back(internal ? narrowed(use, use.access.tail) : use);
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
