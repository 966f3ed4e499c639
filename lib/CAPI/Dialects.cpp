//===- Dialects.cpp - C API of the coop dialect ---------------------------===//

#include "coop-c/Dialects.h"
#include "coop/Dialect/Coop/IR/CoopDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Coop, coop, mlir::coop::CoopDialect)
