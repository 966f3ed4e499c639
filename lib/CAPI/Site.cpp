//===- Site.cpp - check, describe and lower one call site ------------------===//
//
// The site's function takes the values the caller passes, converts them to
// what the op takes, runs the op (built by SiteBuilder) and returns its
// results; our passes then check, plan or lower it.
//
//===----------------------------------------------------------------------===//

#include "SiteBuilder.h"

#include "coop/Conversion/Passes.h"
#include "coop/Dialect/Coop/IR/CoopCollective.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;

/// Whether `op` reads (`read`) or writes memory through `value`.
static bool accesses(Operation *op, Value value, bool read) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> found;
  effects.getEffectsOnValue(value, found);
  return llvm::any_of(found, [&](const MemoryEffects::EffectInstance &effect) {
    return read ? isa<MemoryEffects::Read>(effect.getEffect())
                : isa<MemoryEffects::Write>(effect.getEffect());
  });
}

/// Copies `from`'s items into `to`, bitcast to `to`'s element type.
static void copyItems(OpBuilder &b, Location loc, Value from, Value to) {
  auto source = cast<MemRefType>(from.getType());
  auto target = cast<MemRefType>(to.getType());
  for (int64_t k = 0, e = source.getDimSize(0); k < e; ++k) {
    Value index = arith::ConstantIndexOp::create(b, loc, k);
    Value item = memref::LoadOp::create(b, loc, from, index);
    Value cast = arith::BitcastOp::create(b, loc, target.getElementType(), item);
    memref::StoreOp::create(b, loc, cast, to, index);
  }
}

FailureOr<func::FuncOp> mlir::coop::capi::buildSiteFunction(
    ModuleOp module, const CoopSite &site, const CoopSitePlacement *placement,
    Diagnostics &diagnostics) {
  SiteBuilder builder(site, diagnostics);
  Location loc = builder.location();
  MLIRContext *context = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  for (const CoopSiteFunction &function : ArrayRef(site.functions, site.numFunctions)) {
    Type type = function.type ? parseType(function.type, context, nullptr, true) : Type();
    if (!isa_and_present<FunctionType>(type) || !function.name) {
      recordError(diagnostics, loc, "a site's function needs a name and a function type");
      return failure();
    }
    func::FuncOp::create(b, loc, function.name, cast<FunctionType>(type)).setPrivate();
  }
  FailureOr<SmallVector<Type>> passed = builder.parameterTypes(/*asPassed=*/true);
  FailureOr<SmallVector<Type>> taken = builder.parameterTypes(/*asPassed=*/false);
  FailureOr<SmallVector<Type>> results = builder.resultTypes();
  if (failed(passed) || failed(taken) || failed(results))
    return failure();
  if (!site.name) {
    recordError(diagnostics, loc, "a site needs a function name");
    return failure();
  }
  auto function = func::FuncOp::create(b, loc, site.name,
                                         b.getFunctionType(*passed, *results));
  function.setPrivate();
  function->setAttr("gpu.known_block_size",
                    b.getDenseI32ArrayAttr(ArrayRef(site.blockDims, 3)));
  if (placement) {
    function->setAttr(kScratchSizeAttr, b.getI64IntegerAttr(placement->size));
    function->setAttr(kScratchAlignmentAttr, b.getI64IntegerAttr(placement->alignment));
    function->setAttr(kScratchSymbolAttr,
                      b.getStringAttr(placement->buffer ? placement->buffer : ""));
    if (placement->dynamic)
      function->setAttr(kDynamicSharedMemoryAttr, b.getUnitAttr());
  }
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);

  SmallVector<Value> parameters(entry->getArguments());
  for (auto [value, type] : llvm::zip(parameters, *taken))
    if (value.getType() != type && isa<IndexType>(type))
      value = arith::IndexCastOp::create(b, loc, type, value);
  // Payloads kept in other words: (the passed payload, the op's copy).
  SmallVector<std::pair<Value, Value>> copies;
  for (auto [value, type] : llvm::zip(parameters, *taken)) {
    if (value.getType() == type)
      continue;
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !isa<MemRefType>(value.getType())) {
      recordError(diagnostics, loc, "a site converts only integers to index and "
                                    "payloads of words of the item's width");
      return failure();
    }
    Value copy = memref::AllocaOp::create(b, loc, memref);
    copies.emplace_back(value, copy);
    value = copy;
  }

  Value storage;
  if (builder.hasStorageOperand()) {
    FailureOr<Value> made = builder.buildStorage(b);
    if (failed(made))
      return failure();
    storage = *made;
  }
  FailureOr<Operation *> op = builder.buildOp(b, parameters, storage);
  if (failed(op))
    return failure();
  if (placement)
    (*op)->setAttr(kScratchOffsetAttr, b.getI64IntegerAttr(placement->offset));
  for (auto [passedValue, copy] : copies) {
    if (accesses(*op, copy, /*read=*/true)) {
      b.setInsertionPointAfter(copy.getDefiningOp());
      copyItems(b, loc, passedValue, copy);
    }
  }
  b.setInsertionPointAfter(*op);
  for (auto [passedValue, copy] : copies)
    if (accesses(*op, copy, /*read=*/false))
      copyItems(b, loc, copy, passedValue);
  func::ReturnOp::create(b, loc, (*op)->getResults());
  return function;
}

PassManager *mlir::coop::capi::stagePassManager(CoopSiteStage stage, int sm) {
  std::string key = ("<site " + Twine(int(stage)) + " sm " + Twine(sm) + ">").str();
  return threadPassManager(key, [&](PassManager &pm) {
    if (stage != COOP_SITE_LOWER_PLACED)
      pm.addPass(createCoopPlanScratch());
    if (stage == COOP_SITE_CHECK)
      return success();
    if (stage == COOP_SITE_LOWER)
      pm.addPass(createCoopInsertBarriers());
    ConvertCoopToGPUOptions options;
    options.sm = sm;
    pm.addPass(createConvertCoopToGPU(options));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    return success();
  });
}

CoopPipelineResult coopLowerSite(const CoopSite *site, CoopSiteStage stage,
                                 const CoopSitePlacement *placement, int sm) {
  auto *result = new CoopPipelineResultImpl;
  if (!site) {
    result->diagnostics.push_back({COOP_SEVERITY_ERROR, "<unknown>", "no site"});
    return result;
  }
  MLIRContext &context = threadContext();
  DiagnosticCapture capture(result->diagnostics);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  if (failed(buildSiteFunction(*module, *site,
                               stage == COOP_SITE_LOWER_PLACED ? placement : nullptr,
                               result->diagnostics)))
    return result;
  if (stage == COOP_SITE_LOWER_PLACED && !placement) {
    recordError(result->diagnostics, module->getLoc(),
                "a placed site's lowering needs its placement");
    return result;
  }
  PassManager *pm = stagePassManager(stage, sm);
  if (failed(verify(*module)) || failed(pm->run(*module)))
    return result;
  result->output = printModule(*module, COOP_PRINT_GENERIC | COOP_PRINT_DEBUG_INFO);
  result->succeeded = true;
  return result;
}

CoopPipelineResult coopDescribeSite(const CoopSite *site, CoopSiteFacts *facts) {
  auto *result = new CoopPipelineResultImpl;
  if (!site || !facts) {
    result->diagnostics.push_back({COOP_SEVERITY_ERROR, "<unknown>", "no site"});
    return result;
  }
  MLIRContext &context = threadContext();
  DiagnosticCapture capture(result->diagnostics);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  FailureOr<func::FuncOp> function =
      buildSiteFunction(*module, *site, nullptr, result->diagnostics);
  if (failed(function) || failed(verify(*module)))
    return result;
  *facts = {};
  WalkResult walked = function->walk([&](CollectiveOpInterface op) {
    facts->exactBlock |= op.needsExactBlock();
    if (!hasScratchEffect(op))
      return WalkResult::advance();
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile))
      return WalkResult::interrupt();
    facts->usesScratch |= op.getScratchLayout(*tile).has_value();
    return WalkResult::advance();
  });
  // A reserved array is placed in the kernel's scratch like a use of it.
  function->walk([&](ReserveOp) { facts->usesScratch = true; });
  result->succeeded = !walked.wasInterrupted();
  return result;
}
