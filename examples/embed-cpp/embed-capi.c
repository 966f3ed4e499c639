//===- embed-capi.c - coop through MLIR's C API, in the embedder's MLIR ---===//
//
// A C program with its own MLIR context loads coop with the dialect handle,
// registers coop's passes and runs them through mlir-c/Pass.h, like MLIR's
// test/CAPI programs. It prints the result for FileCheck and exits nonzero on
// any failure.
//
//===----------------------------------------------------------------------===//

#include "coop-c/Dialects.h"
#include "coop-c/Passes.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static const char *kKernel =
    "gpu.module @kernels {\n"
    "  gpu.func @copy(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index) kernel\n"
    "      attributes {known_block_size = array<i32: 128, 1, 1>} {\n"
    "    %b = coop.this_block\n"
    "    %items = memref.alloca() : memref<4xi32>\n"
    "    coop.load %b, %src[%off] into %items algorithm = transpose\n"
    "        : !coop.group<block>, memref<?xi32>, memref<4xi32>\n"
    "    coop.store %b, %items into %dst[%off] algorithm = transpose\n"
    "        : !coop.group<block>, memref<4xi32>, memref<?xi32>\n"
    "    gpu.return\n"
    "  }\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  MlirContext context = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__coop__(), context);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), context);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__gpu__(), context);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__memref__(), context);

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kKernel));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }

  mlirCoopRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(coop-plan-scratch,coop-insert-barriers,"
          "convert-coop-to-gpu)"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed)) {
    fprintf(stderr, "\npipeline parse failed\n");
    return 1;
  }
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  if (mlirLogicalResultIsFailure(ran)) {
    fprintf(stderr, "pipeline failed\n");
    return 1;
  }
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
