/*===- coop-c/Dialects.h - C API of the coop dialect ---------------*- C -*-===*\
|* For embedders that link the static libraries of the CMake package         *|
|* (CoopCAPIDialect) with their own MLIR of the same version: the dialect     *|
|* handle to load coop into their context. libcuda_coop_capi.so has none.     *|
\*===----------------------------------------------------------------------===*/

#ifndef COOP_C_DIALECTS_H
#define COOP_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Coop, coop);

#ifdef __cplusplus
}
#endif

#endif /* COOP_C_DIALECTS_H */
