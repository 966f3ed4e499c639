// RUN: %cc %s %coop_capi_flags -o %t && %t 2>&1 | FileCheck %s

// Call sites and kernel skeletons described as data, from C: the library
// builds each op through its registered definition, so a host compiler writes
// no coop syntax. Compiled against the headers and the library alone.

#include "coop-c/Site.h"

#include <stdio.h>
#include <string.h>

static const CoopSiteAttribute kTranspose[] = {
    {"algorithm", "#coop<algorithm transpose>"}};

/// A block load of 4 int32 items a thread at `offset`, passed as i64.
static CoopSite loadSite(const char *group, const CoopSiteAttribute *attributes,
                         size_t numAttributes, unsigned line) {
  static CoopSiteOperand operands[2][7];
  static int next = 0;
  CoopSiteOperand *slots = operands[next++ % 2];
  // The caller passes the offset first, then the source and the payload.
  CoopSiteOperand made[7] = {
      {"group", group, NULL, -1},
      {"source", "memref<?xi32>", NULL, 1},
      {"payload", "memref<4xi32>", NULL, 2},
      {"offset", "index", "i64", 0},
      {"valid_items", NULL, NULL, -1},
      {"oob_default", NULL, NULL, -1},
      {"temp_storage", NULL, NULL, -1},
  };
  memcpy(slots, made, sizeof(made));
  CoopSite site = {0};
  site.name = "load_site";
  site.op = "coop.load";
  site.operands = slots;
  site.numOperands = 7;
  site.attributes = attributes;
  site.numAttributes = numAttributes;
  site.blockDims[0] = 128;
  site.blockDims[1] = 1;
  site.blockDims[2] = 1;
  site.file = "kernel.py";
  site.line = line;
  site.column = 5;
  return site;
}

static void lower(const CoopSite *site, CoopSiteStage stage) {
  CoopPipelineResult result = coopLowerSite(site, stage, NULL, 90);
  printf("succeeded: %d\n", coopPipelineResultSucceeded(result));
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result, &length);
  printf("%.*s", (int)length, output);
  for (size_t i = 0; i < coopPipelineResultGetNumDiagnostics(result); ++i) {
    CoopDiagnostic d = coopPipelineResultGetDiagnostic(result, i);
    printf("diagnostic %d %s: %s\n", (int)d.severity, d.location, d.message);
  }
  coopPipelineResultDestroy(result);
}

static void testLowerASite(void) {
  // CHECK-LABEL: lower a site
  // CHECK: succeeded: 1
  // CHECK: #[[LOC:loc[0-9]*]] = loc("kernel.py":3:5)
  // CHECK-NOT: coop.
  // CHECK: "func.func"() <{function_type = (i64, memref<?xi32>, memref<4xi32>) -> (), sym_name = "load_site"
  // CHECK: "arith.index_cast"(%arg0) : (i64) -> index loc(#[[LOC]])
  // CHECK: "gpu.barrier"
  printf("lower a site\n");
  CoopSite site = loadSite("!coop.group<block>", kTranspose, 1, 3);
  lower(&site, COOP_SITE_LOWER);
}

static void testVerifierError(void) {
  // CHECK-LABEL: a verifier error
  // CHECK: succeeded: 0
  // CHECK-NEXT: diagnostic 0 kernel.py:7:5: 'coop.load' op algorithm 'warp_transpose' is not valid for a warp group
  printf("a verifier error\n");
  static const CoopSiteAttribute attributes[] = {
      {"algorithm", "#coop<algorithm warp_transpose>"}};
  CoopSite site = loadSite("!coop.group<warp>", attributes, 1, 7);
  lower(&site, COOP_SITE_CHECK);
}

static void testAttributeOfTheWrongKind(void) {
  // CHECK-LABEL: an attribute of the wrong kind
  // CHECK: succeeded: 0
  // CHECK: diagnostic 0 kernel.py:8:5: site of 'coop.load': Invalid attribute `algorithm` in property conversion: #coop<binary_op sum>
  printf("an attribute of the wrong kind\n");
  static const CoopSiteAttribute attributes[] = {
      {"algorithm", "#coop<binary_op sum>"}};
  CoopSite site = loadSite("!coop.group<block>", attributes, 1, 8);
  lower(&site, COOP_SITE_CHECK);
}

static void testUnknownAttribute(void) {
  // CHECK-LABEL: an unknown attribute
  // CHECK: succeeded: 0
  // CHECK: diagnostic 0 kernel.py:9:5: 'coop.load' has no attribute 'mode'
  printf("an unknown attribute\n");
  static const CoopSiteAttribute attributes[] = {
      {"mode", "#coop<scan_mode inclusive>"}};
  CoopSite site = loadSite("!coop.group<block>", attributes, 1, 9);
  lower(&site, COOP_SITE_CHECK);
}

static void testUnknownOp(void) {
  // CHECK-LABEL: an unknown op
  // CHECK: succeeded: 0
  // CHECK: diagnostic 0 kernel.py:10:5: 'coop.sort' is not a registered operation
  printf("an unknown op\n");
  CoopSite site = loadSite("!coop.group<block>", kTranspose, 1, 10);
  site.op = "coop.sort";
  lower(&site, COOP_SITE_LOWER);
}

static void testPlanASkeleton(void) {
  // Two transpose loads on the implicit scratch: one slice, and a reuse
  // barrier before the second.
  // CHECK-LABEL: plan a skeleton
  // CHECK: succeeded: 1 size: 2048 offsets: 0 0
  // CHECK: barrier: site 1 place 0 scope 1
  printf("plan a skeleton\n");
  CoopSite sites[2] = {loadSite("!coop.group<block>", kTranspose, 1, 3),
                       loadSite("!coop.group<block>", kTranspose, 1, 4)};
  int64_t storageOf[2] = {-1, -1};
  int64_t entries[2] = {0, 1};
  CoopSkeletonBlock block = {entries, 2, NULL, 0};
  CoopKernelSkeleton skeleton = {sites, 2, storageOf, &block, 1, 0, "kernel.py"};
  CoopKernelPlan plan = coopPlanKernelSkeleton(&skeleton);
  printf("succeeded: %d size: %lld offsets: %lld %lld\n", coopKernelPlanSucceeded(plan),
         (long long)coopKernelPlanGetScratchSize(plan),
         (long long)coopKernelPlanGetSiteOffset(plan, 0),
         (long long)coopKernelPlanGetSiteOffset(plan, 1));
  for (size_t i = 0; i < coopKernelPlanGetNumBarriers(plan); ++i) {
    CoopPlannedBarrier barrier = coopKernelPlanGetBarrier(plan, i);
    printf("barrier: site %lld place %d scope %d\n", (long long)barrier.site,
           (int)barrier.place, (int)barrier.scope);
  }
  coopKernelPlanDestroy(plan);
}

int main(void) {
  testLowerASite();
  testVerifierError();
  testAttributeOfTheWrongKind();
  testUnknownAttribute();
  testUnknownOp();
  testPlanASkeleton();
  return 0;
}
