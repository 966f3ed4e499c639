//===- SiteBuilder.h - a call site's op, built from its description -*- C++ -*-===//
//
// A site's op is built through its registered definition: an OperationState
// with the op's name, operands in ODS order (segment sizes where the op has
// optional operands), properties from the given attributes (checked against
// the op's property types) and result types. Nothing here names a coop op
// but the group ops, which a group type determines. Shared by the lowering
// of one site (Site.cpp) and the planning of a kernel skeleton (Skeleton.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CAPI_SITEBUILDER_H
#define COOP_LIB_CAPI_SITEBUILDER_H

#include "Run.h"
#include "coop-c/Site.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::coop::capi {

/// The parts of a site that its op and its function are made of.
class SiteBuilder {
public:
  SiteBuilder(const CoopSite &site, Diagnostics &diagnostics);

  Location location() const { return loc; }

  /// Types of the operands the caller passes (as the op takes them, or as
  /// passed) in parameter order: every operand but the group and the storage.
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

/// The site's function in `module`: its parameters as passed, converted to
/// the op's types (index casts, payloads of storage words copied into
/// payloads of items where the op reads them and back where it writes them),
/// the op, its results returned; private, with the launch's block. With a
/// `placement`, the function says where its scratch lies.
FailureOr<func::FuncOp> buildSiteFunction(ModuleOp module, const CoopSite &site,
                                          const CoopSitePlacement *placement,
                                          Diagnostics &diagnostics);

/// This thread's pass manager for `stage` at compute capability `sm`: plan
/// the site's scratch, and for the lowerings its barriers (unplaced) and the
/// conversion to gpu/nvvm.
PassManager *stagePassManager(CoopSiteStage stage, int sm);

} // namespace mlir::coop::capi

#endif // COOP_LIB_CAPI_SITEBUILDER_H
