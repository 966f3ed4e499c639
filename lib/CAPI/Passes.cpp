//===- Passes.cpp - C API registration of coop passes ---------------------===//

#include "coop-c/Passes.h"
#include "coop/InitAll.h"
#include "coop/Pipelines/Pipelines.h"

void mlirCoopRegisterPasses(void) { mlir::coop::registerCoopAndUpstreamPasses(); }

void mlirCoopRegisterLowerToPTXPipeline(void) {
  mlir::coop::registerLowerToPTXPipeline();
}
