/*===- coop-c/Passes.h - registration of coop passes ---------------*- C -*-===*\
|* For embedders that link CoopCAPIDialect with their own MLIR of the same    *|
|* version (see coop-c/Dialects.h).                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef COOP_C_PASSES_H
#define COOP_C_PASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers the coop passes, and the upstream passes that coop pipelines
/// name, in the global pass registry so textual pipelines can use them.
/// Safe to call more than once.
MLIR_CAPI_EXPORTED void mlirCoopRegisterPasses(void);

/// Registers coop-lower-to-ptx and the upstream passes it names. Running it
/// needs the NVVM target and the LLVM IR translations in the context (the
/// upstream Python bindings register them in every context). Safe to call
/// more than once.
MLIR_CAPI_EXPORTED void mlirCoopRegisterLowerToPTXPipeline(void);

#ifdef __cplusplus
}
#endif

#endif /* COOP_C_PASSES_H */
