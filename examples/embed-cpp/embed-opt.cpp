//===- embed-opt.cpp - the example DSL's opt tool, with coop embedded -----===//
//
// Registers the DSL's own dialect and pass next to coop's dialects, passes and
// pipelines, so one pipeline can lower a kernel that mixes both.
//
//===----------------------------------------------------------------------===//

#include "EmbedDialect.h"

#include "coop/InitAll.h"
#include "coop/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<embed::EmbedDialect>();
  embed::registerLowerScalePass();
  mlir::coop::registerCoopAndUpstreamDialects(registry);
  mlir::coop::registerCoopAndUpstreamPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "embed: coop inside another DSL\n", registry));
}
