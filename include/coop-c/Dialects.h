/*===- coop-c/Dialects.h - C API of the coop dialect ---------------*- C -*-===*\
|* For embedders that build against the same MLIR as this library (the static *|
|* libraries of a coop build): the dialect handle to load coop into a context.*|
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
