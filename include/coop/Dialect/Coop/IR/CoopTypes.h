//===- CoopTypes.h - coop types -----------------------------------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPTYPES_H
#define COOP_DIALECT_COOP_IR_COOPTYPES_H

#include "coop/Dialect/Coop/IR/CoopDialect.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "coop/Dialect/Coop/IR/CoopTypes.h.inc"

#endif // COOP_DIALECT_COOP_IR_COOPTYPES_H
