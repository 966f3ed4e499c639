//===- KernelPlan.cpp - plan a kernel's scratch and barriers --------------===//

#include "coop-c/KernelPlan.h"
#include "Run.h"

#include "coop/Dialect/Coop/IR/CoopCollective.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"

#include "coop/Dialect/Coop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;


static std::optional<int64_t> siteNumber(Operation *op) {
  if (auto site = op->getAttrOfType<IntegerAttr>(kSiteAttr))
    return site.getInt();
  return std::nullopt;
}

/// Ops that make groups or reserved arrays, or are other inserted barriers:
/// they sit between a barrier and the site it belongs to without touching
/// the operations' scratch.
static bool isTransparent(Operation *op) {
  return isa<ThisBlockOp, ThisWarpOp, GroupByOp, BarrierOp, ReserveOp>(op);
}

/// The site a planned barrier belongs to: the next site in its block (a
/// reuse barrier, placed before it), else the previous one (auto_sync,
/// placed after it). Where both are true the two places are the same program
/// point for scratch.
static Operation *adjacentSite(BarrierOp barrier, CoopBarrierPlace &place) {
  for (Operation *op = barrier->getNextNode(); op; op = op->getNextNode()) {
    if (siteNumber(op) && !isTransparent(op)) {
      place = COOP_BARRIER_BEFORE;
      return op;
    }
    if (!isTransparent(op))
      break;
  }
  for (Operation *op = barrier->getPrevNode(); op; op = op->getPrevNode()) {
    if (siteNumber(op) && !isTransparent(op)) {
      place = COOP_BARRIER_AFTER;
      return op;
    }
    if (!isTransparent(op))
      break;
  }
  return nullptr;
}

static LogicalResult readPlan(CoopKernelPlanImpl &plan, func::FuncOp kernel) {
  plan.scratchAlignment = kScratchAlignment;
  if (auto size = kernel->getAttrOfType<IntegerAttr>(kScratchSizeAttr))
    plan.scratchSize = size.getInt();
  if (auto alignment = kernel->getAttrOfType<IntegerAttr>(kScratchAlignmentAttr))
    plan.scratchAlignment = alignment.getInt();
  plan.dynamic = kernel->hasAttr(kDynamicSharedMemoryAttr);

  WalkResult walked = kernel.walk([&](Operation *op) {
    if (std::optional<int64_t> site = siteNumber(op)) {
      auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
      plan.offsets[*site] = offset ? offset.getInt() : -1;
      return WalkResult::advance();
    }
    auto barrier = dyn_cast<BarrierOp>(op);
    if (!barrier)
      return WalkResult::advance();
    CoopBarrierPlace place;
    Operation *site = adjacentSite(barrier, place);
    auto collective = dyn_cast_if_present<CollectiveOpInterface>(site);
    if (!collective) {
      recordError(plan.diagnostics, barrier.getLoc(),
                  "internal error: a planned barrier is not next to a call site");
      return WalkResult::interrupt();
    }
    Type group = barrier.getGroup().getType();
    CoopBarrierScope scope;
    if (cast<GroupType>(group).getKind() == GroupKind::block)
      scope = COOP_BARRIER_BLOCK;
    else if (group == collective.getGroup().getType())
      scope = COOP_BARRIER_SITE_GROUP;
    else {
      recordError(plan.diagnostics, barrier.getLoc(),
                  "internal error: a planned barrier is neither the block's nor "
                  "its site's group");
      return WalkResult::interrupt();
    }
    plan.barriers.push_back({*siteNumber(site), place, scope});
    return WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

void mlir::coop::capi::planKernel(CoopKernelPlanImpl &plan, ModuleOp module) {
  DiagnosticCapture capture(plan.diagnostics);
  PassManager *pm = threadPassManager("<plan kernel>", [](PassManager &pm) {
    pm.addPass(createCoopPlanScratch());
    pm.addPass(createCoopInsertBarriers());
    return success();
  });
  if (failed(pm->run(module)))
    return;
  auto functions = module.getOps<func::FuncOp>();
  if (std::distance(functions.begin(), functions.end()) != 1) {
    recordError(plan.diagnostics, module.getLoc(),
                "a kernel skeleton has exactly one function");
    return;
  }
  plan.succeeded = succeeded(readPlan(plan, *functions.begin()));
}

CoopKernelPlan coopPlanKernel(const char *module, size_t moduleLength,
                              const char *sourceName) {
  auto *plan = new CoopKernelPlanImpl;
  OwningOpRef<ModuleOp> parsed = parseAndRun(
      plan->diagnostics, StringRef(module ? module : "", module ? moduleLength : 0),
      sourceName ? sourceName : "<coop>", "");
  if (parsed)
    planKernel(*plan, *parsed);
  return plan;
}

int coopKernelPlanSucceeded(CoopKernelPlan plan) { return plan->succeeded; }

size_t coopKernelPlanGetNumDiagnostics(CoopKernelPlan plan) {
  return plan->diagnostics.size();
}

CoopDiagnostic coopKernelPlanGetDiagnostic(CoopKernelPlan plan, size_t index) {
  return view(plan->diagnostics.at(index));
}

int64_t coopKernelPlanGetScratchSize(CoopKernelPlan plan) {
  return plan->scratchSize;
}

int64_t coopKernelPlanGetScratchAlignment(CoopKernelPlan plan) {
  return plan->scratchAlignment;
}

int coopKernelPlanIsDynamic(CoopKernelPlan plan) { return plan->dynamic; }

int64_t coopKernelPlanGetSiteOffset(CoopKernelPlan plan, int64_t site) {
  auto found = plan->offsets.find(site);
  return found == plan->offsets.end() ? -1 : found->second;
}

size_t coopKernelPlanGetNumBarriers(CoopKernelPlan plan) {
  return plan->barriers.size();
}

CoopPlannedBarrier coopKernelPlanGetBarrier(CoopKernelPlan plan,
                                            size_t index) {
  return plan->barriers.at(index);
}

void coopKernelPlanDestroy(CoopKernelPlan plan) { delete plan; }
