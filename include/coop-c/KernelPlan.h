/*===- coop-c/KernelPlan.h - plan a kernel's scratch and barriers --*- C -*-===*\
|* A host compiler (the Numba backend) describes a kernel as a skeleton: a    *|
|* function with the kernel's control flow and one coop op per call site,    *|
|* numbered by a `coop.site` attribute. Planning it returns data: the        *|
|* kernel's scratch buffer, each site's slice of it and the barriers to add  *|
|* next to sites. The caller never reads planned IR.                         *|
\*===----------------------------------------------------------------------===*/

#ifndef COOP_C_KERNELPLAN_H
#define COOP_C_KERNELPLAN_H

#include "coop-c/Pipeline.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CoopBarrierPlace {
  /// Right before the site: scratch reuse after an earlier site.
  COOP_BARRIER_BEFORE = 0,
  /// Right after the site: the site's temp storage asked for auto_sync.
  COOP_BARRIER_AFTER = 1,
} CoopBarrierPlace;

typedef enum CoopBarrierScope {
  /// A barrier of the site's own group, a warp's or a logical warp's.
  COOP_BARRIER_SITE_GROUP = 0,
  /// A barrier of the whole block.
  COOP_BARRIER_BLOCK = 1,
} CoopBarrierScope;

typedef struct CoopPlannedBarrier {
  int64_t site;
  CoopBarrierPlace place;
  CoopBarrierScope scope;
} CoopPlannedBarrier;

typedef struct CoopKernelPlanImpl *CoopKernelPlan;

/// Plans the one function of `module` (coop-plan-scratch, then
/// coop-insert-barriers). Never null; check coopKernelPlanSucceeded and read
/// the diagnostics when it did not.
COOP_CAPI_EXPORTED CoopKernelPlan coopPlanKernel(const char *module,
                                                 size_t moduleLength,
                                                 const char *sourceName);

COOP_CAPI_EXPORTED int coopKernelPlanSucceeded(CoopKernelPlan plan);

COOP_CAPI_EXPORTED size_t coopKernelPlanGetNumDiagnostics(CoopKernelPlan plan);

COOP_CAPI_EXPORTED CoopDiagnostic
coopKernelPlanGetDiagnostic(CoopKernelPlan plan, size_t index);

/// Bytes of the kernel's scratch buffer (0: no site uses scratch).
COOP_CAPI_EXPORTED int64_t coopKernelPlanGetScratchSize(CoopKernelPlan plan);

COOP_CAPI_EXPORTED int64_t
coopKernelPlanGetScratchAlignment(CoopKernelPlan plan);

/// Whether the buffer is past the static shared-memory limit and must be
/// dynamic shared memory.
COOP_CAPI_EXPORTED int coopKernelPlanIsDynamic(CoopKernelPlan plan);

/// The byte offset of site `site`'s slice, or -1 when it has none.
COOP_CAPI_EXPORTED int64_t coopKernelPlanGetSiteOffset(CoopKernelPlan plan,
                                                       int64_t site);

COOP_CAPI_EXPORTED size_t coopKernelPlanGetNumBarriers(CoopKernelPlan plan);

COOP_CAPI_EXPORTED CoopPlannedBarrier
coopKernelPlanGetBarrier(CoopKernelPlan plan, size_t index);

COOP_CAPI_EXPORTED void coopKernelPlanDestroy(CoopKernelPlan plan);

#ifdef __cplusplus
}
#endif

#endif /* COOP_C_KERNELPLAN_H */
