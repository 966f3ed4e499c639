//===- coop-opt.cpp - run coop passes on MLIR files -----------------------===//

#include "coop/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::coop::registerCoopAndUpstreamDialects(registry);
  mlir::coop::registerCoopAndUpstreamPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "coop optimizer driver\n", registry));
}
