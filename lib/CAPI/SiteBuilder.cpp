//===- SiteBuilder.cpp - a call site's op, built from its description -----===//

#include "SiteBuilder.h"

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;

SiteBuilder::SiteBuilder(const CoopSite &site, Diagnostics &diagnostics)
    : site(site), diagnostics(diagnostics), context(threadContext()),
      loc(site.file && *site.file
              ? Location(FileLineColLoc::get(&context, site.file, site.line,
                                             site.column))
              : Location(UnknownLoc::get(&context))) {}

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
