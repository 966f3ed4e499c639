// RUN: %cc %s %coop_capi_flags -o %t && %t 2>&1 | FileCheck %s

// The C API of libcuda_coop_capi.so, from C, as the Numba backend and other
// host compilers use it: run a pipeline on module text, plan a kernel
// skeleton, and read diagnostics. Compiled against the headers and the
// library alone (no MLIR headers).

#include "coop-c/KernelPlan.h"
#include "coop-c/Pipeline.h"

#include <stdio.h>
#include <string.h>

static const char *kCopy =
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

static void printDiagnostics(CoopPipelineResult result) {
  for (size_t i = 0; i < coopPipelineResultGetNumDiagnostics(result); ++i) {
    CoopDiagnostic d = coopPipelineResultGetDiagnostic(result, i);
    printf("diagnostic %d %s: %s\n", (int)d.severity, d.location, d.message);
  }
}

static void runPipeline(const char *module, const char *pipeline,
                        unsigned flags) {
  CoopPipelineResult result =
      coopRunPipeline(module, strlen(module), "copy.mlir", pipeline,
                      strlen(pipeline), flags);
  printf("succeeded: %d\n", coopPipelineResultSucceeded(result));
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result, &length);
  printf("%.*s", (int)length, output);
  printDiagnostics(result);
  coopPipelineResultDestroy(result);
}

static void testVerifyOnly(void) {
  // CHECK-LABEL: verify only
  // CHECK: succeeded: 1
  // CHECK: coop.load %{{.*}} algorithm = transpose
  printf("verify only\n");
  runPipeline(kCopy, "", 0);
}

static void testLowerToNVVMGeneric(void) {
  // CHECK-LABEL: lower to nvvm, generic form
  // CHECK: succeeded: 1
  // CHECK-NOT: coop.
  // CHECK: "llvm.func"
  // CHECK: "nvvm.barrier0"
  printf("lower to nvvm, generic form\n");
  runPipeline(kCopy, "coop-lower-to-nvvm", COOP_PRINT_GENERIC);
}

static void testDiagnostics(void) {
  // CHECK-LABEL: a verifier error
  // CHECK: succeeded: 0
  // CHECK-NEXT: diagnostic 0 bad.mlir:1:80: 'coop.load' op algorithm 'warp_transpose' is not valid for a warp group
  printf("a verifier error\n");
  const char *bad =
      "func.func @f(%src: memref<?xi32>, %items: memref<4xi32>) {"
      " %w = coop.this_warp"
      " coop.load %w, %src into %items algorithm = warp_transpose"
      " : !coop.group<warp>, memref<?xi32>, memref<4xi32> return }";
  CoopPipelineResult result =
      coopRunPipeline(bad, strlen(bad), "bad.mlir", "", 0, 0);
  printf("succeeded: %d\n", coopPipelineResultSucceeded(result));
  printDiagnostics(result);
  coopPipelineResultDestroy(result);

  // CHECK-LABEL: an unknown pass
  // CHECK: succeeded: 0
  // CHECK-NEXT: diagnostic 0 <pipeline>: invalid pass pipeline 'coop-no-such-pass'
  printf("an unknown pass\n");
  runPipeline(kCopy, "coop-no-such-pass", 0);
}

static void testPlanKernel(void) {
  // CHECK-LABEL: plan a kernel
  // CHECK: succeeded: 1
  // CHECK: scratch: 2048 bytes, aligned 16, dynamic 0
  // CHECK: site 0 at 0, site 1 at 0, site 2 at -1
  // CHECK: barriers: 0
  printf("plan a kernel\n");
  const char *skeleton =
      "func.func @kernel(%src: memref<?xi32>, %items: memref<4xi32>, %dst: memref<?xi32>)\n"
      "    attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {\n"
      "  %b = coop.this_block\n"
      "  coop.load %b, %src into %items algorithm = transpose {coop.site = 0 : i64}\n"
      "      : !coop.group<block>, memref<?xi32>, memref<4xi32>\n"
      "  coop.store %b, %items into %dst algorithm = transpose {coop.site = 1 : i64}\n"
      "      : !coop.group<block>, memref<4xi32>, memref<?xi32>\n"
      "  return\n"
      "}\n";
  CoopKernelPlan plan =
      coopPlanKernel(skeleton, strlen(skeleton), "kernel.py");
  printf("succeeded: %d\n", coopKernelPlanSucceeded(plan));
  printf("scratch: %lld bytes, aligned %lld, dynamic %d\n",
         (long long)coopKernelPlanGetScratchSize(plan),
         (long long)coopKernelPlanGetScratchAlignment(plan),
         coopKernelPlanIsDynamic(plan));
  printf("site 0 at %lld, site 1 at %lld, site 2 at %lld\n",
         (long long)coopKernelPlanGetSiteOffset(plan, 0),
         (long long)coopKernelPlanGetSiteOffset(plan, 1),
         (long long)coopKernelPlanGetSiteOffset(plan, 2));
  printf("barriers: %zu\n", coopKernelPlanGetNumBarriers(plan));
  coopKernelPlanDestroy(plan);

  // CHECK-LABEL: plan two functions
  // CHECK: succeeded: 0
  // CHECK-NEXT: diagnostic 0 {{.*}}: a kernel skeleton has exactly one function
  printf("plan two functions\n");
  const char *two = "func.func @a() { return }\nfunc.func @b() { return }\n";
  plan = coopPlanKernel(two, strlen(two), "two.py");
  printf("succeeded: %d\n", coopKernelPlanSucceeded(plan));
  for (size_t i = 0; i < coopKernelPlanGetNumDiagnostics(plan); ++i) {
    CoopDiagnostic d = coopKernelPlanGetDiagnostic(plan, i);
    printf("diagnostic %d %s: %s\n", (int)d.severity, d.location, d.message);
  }
  coopKernelPlanDestroy(plan);
}

int main(void) {
  testVerifyOnly();
  testLowerToNVVMGeneric();
  testDiagnostics();
  testPlanKernel();
  return 0;
}
