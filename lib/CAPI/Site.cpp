//===- Site.cpp - build, plan and lower call sites described as data ------===//
//
// A site's op is built through its registered definition: an OperationState
// with the op's name, operands in ODS order (segment sizes where the op has
// optional operands), properties from the given attributes (checked against
// the op's property types) and result types. Nothing here names a coop op
// but the group ops, which a group type determines.
//
//===----------------------------------------------------------------------===//

#include "coop-c/Site.h"
#include "Run.h"

#include "coop/Conversion/Passes.h"
#include "coop/Dialect/Coop/IR/CoopCollective.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"
#include "coop/Dialect/Coop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;

namespace {

/// The parts of a site that its op and its function are made of.
class SiteBuilder {
public:
  SiteBuilder(const CoopSite &site, Diagnostics &diagnostics)
      : site(site), diagnostics(diagnostics), context(threadContext()),
        loc(site.file && *site.file
                ? Location(FileLineColLoc::get(&context, site.file, site.line,
                                               site.column))
                : Location(UnknownLoc::get(&context))) {}

  Location location() const { return loc; }

  /// Types of the operands the caller passes (as the op takes them, or as
  /// passed), one per operand that is neither the group nor the storage.
  FailureOr<SmallVector<Type>> parameterTypes(bool asPassed);

  FailureOr<SmallVector<Type>> resultTypes();

  /// The site's coop.temp_storage, when its op has a storage operand.
  FailureOr<Value> buildStorage(OpBuilder &b);

  /// The group ops and the site's op on `parameters` (as the op takes them).
  FailureOr<Operation *> buildOp(OpBuilder &b, ValueRange parameters,
                                 Value storage);

  bool hasStorageOperand();

private:
  Type parse(const char *text, const Twine &what);
  FailureOr<DictionaryAttr> parseAttributes(const CoopSiteAttribute *attributes,
                                            size_t count);
  Value buildGroup(OpBuilder &b, GroupType type);
  LogicalResult fail(const Twine &message) {
    recordError(diagnostics, loc, message);
    return failure();
  }

  const CoopSite &site;
  Diagnostics &diagnostics;
  MLIRContext &context;
  Location loc;
};

} // namespace

Type SiteBuilder::parse(const char *text, const Twine &what) {
  if (!text) {
    (void)fail(what + " has no type");
    return {};
  }
  Type type = parseType(text, &context, nullptr, /*isKnownNullTerminated=*/true);
  if (!type)
    (void)fail("invalid type '" + Twine(text) + "' for " + what);
  return type;
}

bool SiteBuilder::hasStorageOperand() {
  for (const CoopSiteOperand &operand : ArrayRef(site.operands, site.numOperands))
    if (operand.type && StringRef(operand.type) == "!coop.temp_storage")
      return true;
  return false;
}

/// Whether `type` is made inside the site rather than passed to it.
static bool isMadeInSite(Type type) { return isa<GroupType, TempStorageType>(type); }

FailureOr<SmallVector<Type>> SiteBuilder::parameterTypes(bool asPassed) {
  SmallVector<Type> types;
  for (const CoopSiteOperand &operand : ArrayRef(site.operands, site.numOperands)) {
    if (!operand.type)
      continue;
    std::string what = (Twine("operand '") + operand.name + "'").str();
    Type type = parse(operand.type, what);
    if (!type)
      return failure();
    if (isMadeInSite(type))
      continue;
    if (asPassed && operand.passedType) {
      type = parse(operand.passedType, what + " as passed");
      if (!type)
        return failure();
    }
    if (operand.parameter < 0 || operand.parameter >= int64_t(site.numOperands))
      return fail(what + " has no parameter position");
    if (int64_t(types.size()) <= operand.parameter)
      types.resize(operand.parameter + 1);
    if (types[operand.parameter])
      return fail(what + " takes the position of another operand");
    types[operand.parameter] = type;
  }
  if (llvm::is_contained(types, Type()))
    return fail("the operands' parameter positions have a gap");
  return types;
}

FailureOr<SmallVector<Type>> SiteBuilder::resultTypes() {
  SmallVector<Type> types;
  for (size_t i = 0; i < site.numResults; ++i) {
    Type type = parse(site.resultTypes[i], "result #" + Twine(i));
    if (!type)
      return failure();
    types.push_back(type);
  }
  return types;
}

FailureOr<DictionaryAttr>
SiteBuilder::parseAttributes(const CoopSiteAttribute *attributes, size_t count) {
  NamedAttrList list;
  for (const CoopSiteAttribute &attribute : ArrayRef(attributes, count)) {
    if (!attribute.name || !attribute.value)
      return fail("an attribute needs a name and a value");
    Attribute value = parseAttribute(attribute.value, &context, Type(), nullptr,
                                     /*isKnownNullTerminated=*/true);
    if (!value)
      return fail("invalid value '" + Twine(attribute.value) + "' for attribute '" +
                  attribute.name + "'");
    list.set(attribute.name, value);
  }
  return list.getDictionary(&context);
}

/// Sets `op`'s attributes: inherent ones through its properties (whose
/// conversion checks each one's type), discardable ones as they are.
static LogicalResult setAttributes(Operation *op, DictionaryAttr attributes,
                                   Location loc) {
  NamedAttrList inherent, discardable;
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  for (NamedAttribute attribute : attributes) {
    bool isInherent = name && (attribute.getName() == "operandSegmentSizes" ||
                                llvm::is_contained(name->getAttributeNames(),
                                                   attribute.getName()));
    (isInherent ? inherent : discardable).push_back(attribute);
  }
  if (!inherent.empty() &&
      failed(op->setPropertiesFromAttribute(
          inherent.getDictionary(op->getContext()),
          [&] { return emitError(loc) << "site of '" << op->getName() << "': "; })))
    return failure();
  for (NamedAttribute attribute : discardable) {
    if (name && !attribute.getName().getValue().contains('.'))
      return emitError(loc) << "'" << op->getName() << "' has no attribute '"
                            << attribute.getName().getValue() << "'";
    op->setAttr(attribute.getName(), attribute.getValue());
  }
  return success();
}

FailureOr<Value> SiteBuilder::buildStorage(OpBuilder &b) {
  FailureOr<DictionaryAttr> attributes = parseAttributes(site.storage, site.numStorage);
  if (failed(attributes))
    return failure();
  OperationState state(loc, TempStorageOp::getOperationName());
  state.addTypes(TempStorageType::get(&context));
  Operation *op = b.create(state);
  if (failed(setAttributes(op, *attributes, loc))) {
    op->erase();
    return failure();
  }
  return op->getResult(0);
}

Value SiteBuilder::buildGroup(OpBuilder &b, GroupType type) {
  auto make = [&](GroupKind kind, Type result) {
    OperationState state(loc, ("coop.this_" + stringifyGroupKind(kind)).str());
    state.addTypes(result);
    return b.create(state)->getResult(0);
  };
  switch (type.getKind()) {
  case GroupKind::threads_within_warp: {
    Value warp = make(GroupKind::warp, GroupType::get(&context, GroupKind::warp));
    return GroupByOp::create(b, loc, type, warp);
  }
  case GroupKind::warps_within_block: {
    Value block = make(GroupKind::block, GroupType::get(&context, GroupKind::block));
    return GroupByOp::create(b, loc, type, block);
  }
  default:
    return make(type.getKind(), type);
  }
}

FailureOr<Operation *> SiteBuilder::buildOp(OpBuilder &b, ValueRange parameters,
                                            Value storage) {
  if (!site.op)
    return fail("a site names no op");
  OperationState state(loc, site.op);
  if (!state.name.isRegistered())
    return fail("'" + Twine(site.op) + "' is not a registered operation");
  FailureOr<DictionaryAttr> attributes =
      parseAttributes(site.attributes, site.numAttributes);
  FailureOr<SmallVector<Type>> results = resultTypes();
  if (failed(attributes) || failed(results))
    return failure();

  SmallVector<int32_t> segments;
  Value group;
  for (const CoopSiteOperand &operand : ArrayRef(site.operands, site.numOperands)) {
    if (!operand.type) {
      segments.push_back(0);
      continue;
    }
    Type type = parse(operand.type, Twine("operand '") + operand.name + "'");
    if (!type)
      return failure();
    Value value;
    if (auto groupType = dyn_cast<GroupType>(type)) {
      if (!group)
        group = buildGroup(b, groupType);
      value = group;
    } else if (isa<TempStorageType>(type)) {
      value = storage;
    } else if (operand.parameter >= 0 && operand.parameter < int64_t(parameters.size())) {
      value = parameters[operand.parameter];
    }
    if (!value)
      return fail(Twine("no value for operand '") + operand.name + "'");
    state.addOperands(value);
    segments.push_back(1);
  }
  state.addTypes(*results);
  Operation *op = b.create(state);
  NamedAttrList all(*attributes);
  if (state.name.hasTrait<OpTrait::AttrSizedOperandSegments>())
    all.set("operandSegmentSizes", b.getDenseI32ArrayAttr(segments));
  if (failed(setAttributes(op, all.getDictionary(&context), loc))) {
    op->erase();
    return failure();
  }
  return op;
}

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

/// The site's function: parameters as passed, converted to the op's types
/// (index casts, payloads of storage words copied into payloads of items
/// where the op reads them and back where it writes them), the op, its
/// results returned.
static FailureOr<func::FuncOp> buildSiteFunction(ModuleOp module,
                                                 const CoopSite &site,
                                                 const CoopSitePlacement *placement,
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

/// This thread's pass manager for `stage` at compute capability `sm`.
static PassManager *stagePassManager(CoopSiteStage stage, int sm) {
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
  result->succeeded = !walked.wasInterrupted();
  return result;
}

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
