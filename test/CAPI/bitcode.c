// RUN: %cc %s %coop_capi_flags -o %t && %t 2>&1 | FileCheck %s

// A call site lowered alone to LLVM bitcode, from C, for a host compiler
// that links bitcode: its block scratch in a buffer the host defines, the
// definition, and the errors.

#include "coop-c/Site.h"

#include <stdio.h>
#include <string.h>

static const CoopSiteAttribute kTranspose[] = {
    {"algorithm", "#coop<algorithm transpose>"}};

/// A block load of 4 int32 items a thread from a 512-item tile (a bare
/// pointer to its first item).
static CoopSite loadSite(const char *name) {
  static CoopSiteOperand operands[7] = {
      {"group", "!coop.group<block>", NULL, -1},
      {"source", "memref<512xi32>", NULL, 0},
      {"payload", "memref<4xi32>", NULL, 1},
      {"offset", NULL, NULL, -1},
      {"valid_items", NULL, NULL, -1},
      {"oob_default", NULL, NULL, -1},
      {"temp_storage", NULL, NULL, -1},
  };
  CoopSite site = {0};
  site.name = name;
  site.op = "coop.load";
  site.operands = operands;
  site.numOperands = 7;
  site.attributes = kTranspose;
  site.numAttributes = 1;
  site.blockDims[0] = 128;
  site.blockDims[1] = 1;
  site.blockDims[2] = 1;
  site.file = "kernel.py";
  site.line = 7;
  site.column = 5;
  return site;
}

static void report(CoopPipelineResult result) {
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result, &length);
  printf("succeeded: %d bitcode: %d bytes: %d\n", coopPipelineResultSucceeded(result),
         length >= 4 && memcmp(output, "BC\xc0\xde", 4) == 0, length > 0);
  for (size_t i = 0; i < coopPipelineResultGetNumDiagnostics(result); ++i) {
    CoopDiagnostic d = coopPipelineResultGetDiagnostic(result, i);
    printf("diagnostic %d %s: %s\n", (int)d.severity, d.location, d.message);
  }
  coopPipelineResultDestroy(result);
}

int main(void) {
  int64_t size = -1, alignment = -1;
  CoopSite site = loadSite("load_site");

  // CHECK: succeeded: 1 bitcode: 1 bytes: 1
  // CHECK-NEXT: own buffer: 0 0
  report(coopEmitSiteBitcode(&site, 90, NULL, 0, &size, &alignment));
  printf("own buffer: %lld %lld\n", (long long)size, (long long)alignment);

  // The transposed tile's 2 KiB at offset 0 of the host's buffer.
  // CHECK-NEXT: succeeded: 1 bitcode: 1 bytes: 1
  // CHECK-NEXT: shared buffer: 2048 16
  report(coopEmitSiteBitcode(&site, 90, "buffer", 1, &size, &alignment));
  printf("shared buffer: %lld %lld\n", (long long)size, (long long)alignment);

  // CHECK-NEXT: succeeded: 1 bitcode: 1 bytes: 1
  report(coopEmitScratchBitcode("buffer", 2048, 16));

  // CHECK-NEXT: succeeded: 0 bitcode: 0 bytes: 0
  // CHECK-NEXT: diagnostic 0 <unknown>: a scratch buffer needs a name, a positive size and a power-of-two alignment
  report(coopEmitScratchBitcode("buffer", 2048, 12));

  // A site past 48 KiB of static shared memory: 16 int64 items a thread
  // over 512 threads.
  static CoopSiteOperand big[7] = {
      {"group", "!coop.group<block>", NULL, -1},
      {"source", "memref<8192xi64>", NULL, 0},
      {"payload", "memref<16xi64>", NULL, 1},
      {"offset", NULL, NULL, -1},
      {"valid_items", NULL, NULL, -1},
      {"oob_default", NULL, NULL, -1},
      {"temp_storage", NULL, NULL, -1},
  };
  site.operands = big;
  site.blockDims[0] = 512;
  // CHECK-NEXT: succeeded: 0 bitcode: 0 bytes: 0
  // CHECK-NEXT: diagnostic 0 kernel.py:7:5: the site's scratch exceeds 48 KiB of static shared memory, which is all a bitcode site may use: use a smaller tile
  report(coopEmitSiteBitcode(&site, 90, "buffer", 0, &size, &alignment));

  // CHECK-NEXT: succeeded: 0 bitcode: 0 bytes: 0
  // CHECK-NEXT: diagnostic 0 <unknown>: no site
  report(coopEmitSiteBitcode(NULL, 90, NULL, 0, &size, &alignment));
  return 0;
}
