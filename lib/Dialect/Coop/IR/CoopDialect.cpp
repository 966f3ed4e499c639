//===- CoopDialect.cpp - the coop dialect ---------------------------------===//

#include "coop/Dialect/Coop/IR/CoopDialect.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/IR/CoopTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coop;

#include "coop/Dialect/Coop/IR/CoopDialect.cpp.inc"
#include "coop/Dialect/Coop/IR/CoopEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "coop/Dialect/Coop/IR/CoopAttrs.cpp.inc"

void CoopDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "coop/Dialect/Coop/IR/CoopAttrs.cpp.inc"
      >();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "coop/Dialect/Coop/IR/CoopOps.cpp.inc"
      >();
}
