//===- CoopMLIRModule.cpp - coop for the upstream MLIR Python bindings ----===//
//
// cuda.coop.mlir._coop: registers the coop dialect and passes in an
// mlir.ir.Context of the upstream bindings (xtc-mlir-python-bindings). The
// MLIR here is theirs: this module links the coop static libraries against
// their libMLIRPythonCAPI.so and libLLVM.so, and takes their contexts through
// the bindings' capsule interop (NanobindAdaptors.h).
//
//===----------------------------------------------------------------------===//

#include "coop-c/Dialects.h"
#include "coop-c/Passes.h"

#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

namespace nb = nanobind;

NB_MODULE(_coop, m) {
  m.doc() = "The coop dialect and passes for the upstream MLIR Python bindings";

  m.def(
      "register_dialect",
      [](MlirContext context, bool load) {
        MlirDialectHandle handle = mlirGetDialectHandle__coop__();
        mlirDialectHandleRegisterDialect(handle, context);
        if (load)
          mlirDialectHandleLoadDialect(handle, context);
      },
      nb::arg("context").none() = nb::none(), nb::arg("load") = true,
      "Registers coop in `context` (default: the current one) and loads it "
      "unless `load` is false.");

  m.def(
      "register_passes",
      [] {
        mlirCoopRegisterPasses();
        mlirCoopRegisterLowerToPTXPipeline();
      },
      "Registers coop's passes and pipelines, coop-lower-to-ptx included, in "
      "the global registry that PassManager.parse reads.");
}
