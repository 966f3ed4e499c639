//===- Passes.cpp - C API registration of coop passes ---------------------===//

#include "coop-c/Passes.h"
#include "coop/InitAll.h"

void mlirCoopRegisterPasses(void) { mlir::coop::registerCoopAndUpstreamPasses(); }
