//===- Skeleton.cpp - plan a kernel skeleton described as data ------------===//

#include "SiteBuilder.h"

#include "coop/Dialect/Coop/IR/CoopCollective.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Verifier.h"

#include <map>

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;

/// The skeleton's function: one parameter per site operand (as its op takes
/// it) and per branch condition, a temp storage op per descriptor, the
/// blocks with their sites (numbered by `coop.site`) and barriers, and
/// branches between them.
static LogicalResult buildSkeleton(ModuleOp module, const CoopKernelSkeleton &skeleton,
                                   Diagnostics &diagnostics) {
  MLIRContext *context = module.getContext();
  Location loc = UnknownLoc::get(context);
  if (!skeleton.numSites || !skeleton.numBlocks) {
    recordError(diagnostics, loc, "a kernel skeleton needs a site and a block");
    return failure();
  }
  ArrayRef<CoopSite> sites(skeleton.sites, skeleton.numSites);
  ArrayRef<CoopSkeletonBlock> blocks(skeleton.blocks, skeleton.numBlocks);
  SmallVector<SmallVector<Type>> siteTypes;
  SmallVector<Type> parameters;
  for (const CoopSite &site : sites) {
    SiteBuilder builder(site, diagnostics);
    FailureOr<SmallVector<Type>> types = builder.parameterTypes(/*asPassed=*/false);
    if (failed(types))
      return failure();
    llvm::append_range(parameters, *types);
    siteTypes.push_back(std::move(*types));
  }
  size_t conditionStart = parameters.size();
  for (const CoopSkeletonBlock &block : blocks)
    if (block.numSuccessors > 1 || (skeleton.repeated && block.numSuccessors == 0))
      parameters.push_back(IntegerType::get(context, 32));

  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(b, loc, "kernel", b.getFunctionType(parameters, {}));
  function->setAttr("gpu.known_block_size",
                    b.getDenseI32ArrayAttr(ArrayRef(sites.front().blockDims, 3)));
  Region &body = function.getBody();
  Block *entry = b.createBlock(&body, {}, parameters,
                               SmallVector<Location>(parameters.size(), loc));
  // A repeated function starts with a branch to its first block, which every
  // return may take again.
  SmallVector<Block *> made;
  for (size_t i = 0; i < blocks.size(); ++i)
    made.push_back(skeleton.repeated || i ? b.createBlock(&body, body.end())
                                          : entry);
  Block *exit = skeleton.repeated ? b.createBlock(&body, body.end()) : nullptr;

  b.setInsertionPointToStart(entry);
  std::map<int64_t, Value> storages;
  for (auto [k, site] : llvm::enumerate(sites)) {
    int64_t descriptor = skeleton.storageOf ? skeleton.storageOf[k] : -1;
    SiteBuilder builder(site, diagnostics);
    if (descriptor < 0 || storages.count(descriptor) || !builder.hasStorageOperand())
      continue;
    FailureOr<Value> storage = builder.buildStorage(b);
    if (failed(storage))
      return failure();
    storages[descriptor] = *storage;
  }
  if (skeleton.repeated)
    cf::BranchOp::create(b, loc, made.front());

  auto arguments = entry->getArguments();
  size_t nextParameter = 0, nextCondition = conditionStart;
  SmallVector<size_t> siteStart;
  for (const SmallVector<Type> &types : siteTypes) {
    siteStart.push_back(nextParameter);
    nextParameter += types.size();
  }
  for (auto [block, into] : llvm::zip(blocks, made)) {
    b.setInsertionPointToEnd(into);
    for (int64_t entryIndex : ArrayRef(block.entries, block.numEntries)) {
      if (entryIndex < 0) {
        gpu::BarrierOp::create(b, loc);
        continue;
      }
      if (entryIndex >= int64_t(sites.size())) {
        recordError(diagnostics, loc, "a skeleton block names site " +
                                          Twine(entryIndex) + " of " + Twine(sites.size()));
        return failure();
      }
      const CoopSite &site = sites[entryIndex];
      SiteBuilder builder(site, diagnostics);
      int64_t descriptor = skeleton.storageOf ? skeleton.storageOf[entryIndex] : -1;
      Value storage = descriptor < 0 ? Value() : storages[descriptor];
      if (builder.hasStorageOperand() && !storage) {
        FailureOr<Value> made = builder.buildStorage(b);
        if (failed(made))
          return failure();
        storage = *made;
      }
      ValueRange siteParameters = arguments.slice(siteStart[entryIndex],
                                                  siteTypes[entryIndex].size());
      FailureOr<Operation *> op = builder.buildOp(b, siteParameters, storage);
      if (failed(op))
        return failure();
      (*op)->setAttr(kSiteAttr, b.getI64IntegerAttr(entryIndex));
    }
    SmallVector<Block *> successors;
    for (int64_t successor : ArrayRef(block.successors, block.numSuccessors)) {
      if (successor < 0 || successor >= int64_t(made.size())) {
        recordError(diagnostics, loc, "a skeleton block branches to block " +
                                          Twine(successor) + " of " + Twine(made.size()));
        return failure();
      }
      successors.push_back(made[successor]);
    }
    if (successors.empty() && skeleton.repeated) {
      cf::SwitchOp::create(b, loc, arguments[nextCondition++], exit, ValueRange(),
                             ArrayRef<int32_t>{1}, BlockRange{made.front()},
                             ArrayRef<ValueRange>{ValueRange()});
    } else if (successors.empty()) {
      func::ReturnOp::create(b, loc);
    } else if (successors.size() == 1) {
      cf::BranchOp::create(b, loc, successors.front());
    } else {
      SmallVector<int32_t> values;
      for (size_t j = 1; j < successors.size(); ++j)
        values.push_back(int32_t(j));
      SmallVector<ValueRange> operands(successors.size() - 1, ValueRange());
      cf::SwitchOp::create(b, loc, arguments[nextCondition++], successors.front(),
                             ValueRange(), values,
                             ArrayRef(successors).drop_front(), operands);
    }
  }
  if (exit) {
    b.setInsertionPointToEnd(exit);
    func::ReturnOp::create(b, loc);
  }
  return success();
}

CoopKernelPlan coopPlanKernelSkeleton(const CoopKernelSkeleton *skeleton) {
  auto *plan = new CoopKernelPlanImpl;
  if (!skeleton) {
    plan->diagnostics.push_back({COOP_SEVERITY_ERROR, "<unknown>", "no skeleton"});
    return plan;
  }
  MLIRContext &context = threadContext();
  OwningOpRef<ModuleOp> module;
  {
    DiagnosticCapture capture(plan->diagnostics);
    module = ModuleOp::create(UnknownLoc::get(&context));
    if (failed(buildSkeleton(*module, *skeleton, plan->diagnostics)) ||
        failed(verify(*module)))
      return plan;
  }
  planKernel(*plan, *module);
  return plan;
}
