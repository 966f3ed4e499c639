//===- CoopDialect.h - the coop dialect and its attributes -------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPDIALECT_H
#define COOP_DIALECT_COOP_IR_COOPDIALECT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "coop/Dialect/Coop/IR/CoopDialect.h.inc"
#include "coop/Dialect/Coop/IR/CoopEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "coop/Dialect/Coop/IR/CoopAttrs.h.inc"

#endif // COOP_DIALECT_COOP_IR_COOPDIALECT_H
