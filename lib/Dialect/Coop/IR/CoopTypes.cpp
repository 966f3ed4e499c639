//===- CoopTypes.cpp - coop types -----------------------------------------===//

#include "coop/Dialect/Coop/IR/CoopTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coop;

#define GET_TYPEDEF_CLASSES
#include "coop/Dialect/Coop/IR/CoopTypes.cpp.inc"

void CoopDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "coop/Dialect/Coop/IR/CoopTypes.cpp.inc"
      >();
}

static constexpr unsigned kWarpSize = 32;

std::optional<int64_t> GroupType::getStaticSize() const {
  switch (getKind()) {
  case GroupKind::thread:
    return 1;
  case GroupKind::warp:
    return kWarpSize;
  case GroupKind::threads_within_warp:
    return getCount();
  case GroupKind::warps_within_block:
    return int64_t(getCount()) * kWarpSize;
  case GroupKind::block:
  case GroupKind::cluster:
  case GroupKind::grid:
    return std::nullopt;
  }
  llvm_unreachable("unknown group kind");
}

LogicalResult GroupType::verify(function_ref<InFlightDiagnostic()> emitError,
                                GroupKind kind, unsigned count, bool exhaustive) {
  bool partition = kind == GroupKind::threads_within_warp ||
                   kind == GroupKind::warps_within_block;
  if (!partition) {
    if (count != 0 || !exhaustive)
      return emitError() << "a '" << stringifyGroupKind(kind)
                         << "' group takes no count or exhaustive flag; only "
                            "threads_within_warp and warps_within_block do";
    return success();
  }
  if (count == 0)
    return emitError() << "a '" << stringifyGroupKind(kind)
                       << "' group needs a positive count";
  if (kind == GroupKind::threads_within_warp) {
    if (count > kWarpSize)
      return emitError() << "a logical warp holds at most " << kWarpSize
                         << " lanes; got " << count;
    if (exhaustive && kWarpSize % count != 0)
      return emitError() << "an exhaustive partition must divide the warp's "
                         << kWarpSize << " lanes; " << count
                         << " does not (use non_exhaustive to allow a "
                            "remainder)";
  }
  return success();
}

Type GroupType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  std::optional<GroupKind> kind = symbolizeGroupKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "unknown group kind '" << keyword
                          << "'; expected thread, warp, block, cluster, grid, "
                             "threads_within_warp or warps_within_block";
    return {};
  }
  unsigned count = 0;
  bool exhaustive = true;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseInteger(count))
      return {};
    if (succeeded(parser.parseOptionalComma())) {
      if (parser.parseKeyword("non_exhaustive"))
        return {};
      exhaustive = false;
    }
  }
  if (parser.parseGreater())
    return {};
  return GroupType::getChecked([&] { return parser.emitError(loc); },
                               parser.getContext(), *kind, count, exhaustive);
}

void GroupType::print(AsmPrinter &printer) const {
  printer << '<' << stringifyGroupKind(getKind());
  if (isPartition()) {
    printer << ", " << getCount();
    if (!getExhaustive())
      printer << ", non_exhaustive";
  }
  printer << '>';
}
