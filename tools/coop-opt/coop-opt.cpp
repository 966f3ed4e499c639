//===- coop-opt.cpp - run coop passes on MLIR files -----------------------===//

#include "coop/InitAll.h"
#include "coop/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::coop::test {
void registerTestPasses();
} // namespace mlir::coop::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::coop::registerCoopAndUpstreamDialects(registry);
  mlir::coop::registerCoopAndUpstreamPasses();
  mlir::coop::registerLowerToPTXDialectExtensions(registry);
  mlir::coop::registerLowerToPTXPipeline();
  mlir::coop::test::registerTestPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "coop optimizer driver\n", registry));
}
