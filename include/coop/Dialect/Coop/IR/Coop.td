//===- Coop.td - umbrella for the coop dialect -------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOP_TD
#define COOP_DIALECT_COOP_IR_COOP_TD

include "coop/Dialect/Coop/IR/CoopDialect.td"
include "coop/Dialect/Coop/IR/CoopAttrs.td"
include "coop/Dialect/Coop/IR/CoopTypes.td"
include "coop/Dialect/Coop/IR/CoopInterfaces.td"
include "coop/Dialect/Coop/IR/CoopOps.td"

#endif // COOP_DIALECT_COOP_IR_COOP_TD
