/*===- coop-c/Site.h - call sites and kernel skeletons as data -----*- C -*-===*\
|* A host compiler describes each cooperative call site as data: the op's     *|
|* registered name, its operands (types, in ODS order), its attributes and    *|
|* results, the group and temp storage it uses and its source location. The  *|
|* library builds the op through its registered definition (no coop syntax    *|
|* crosses this boundary), verifies it, plans and lowers it to gpu/nvvm, and  *|
|* returns the site's function as generic MLIR text. A kernel skeleton (its   *|
|* control flow with the sites and block barriers) is data too; planning it   *|
|* returns a CoopKernelPlan. Strings are NUL-terminated; types and attribute  *|
|* values use MLIR's type and attribute syntax.                              *|
\*===----------------------------------------------------------------------===*/

#ifndef COOP_C_SITE_H
#define COOP_C_SITE_H

#include "coop-c/KernelPlan.h"
#include "coop-c/Pipeline.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One ODS operand slot of the site's op, in ODS order.
typedef struct CoopSiteOperand {
  /// The ODS operand name, for diagnostics.
  const char *name;
  /// Its type as the op takes it; NULL for an absent optional operand. A
  /// `!coop.group` operand is the site's group and a `!coop.temp_storage`
  /// operand its descriptor, both made inside the site; every other operand
  /// is a parameter of the site's function.
  const char *type;
  /// The type the caller passes when it differs from `type` (NULL: the
  /// same): an integer for an `index` operand (cast), or a payload memref of
  /// words of the item's width whose items the site bitcasts in and, for an
  /// operand the op writes, out again (float16 items kept as i16).
  const char *passedType;
  /// Its position among the site function's parameters (the caller's order
  /// of the values it passes); ignored for the group, the temp storage and
  /// absent operands.
  int64_t parameter;
} CoopSiteOperand;

/// A named attribute; `value` in MLIR attribute syntax.
typedef struct CoopSiteAttribute {
  const char *name;
  const char *value;
} CoopSiteAttribute;

/// A function the op names by symbol (a user operator), defined elsewhere:
/// the site's module declares it. `type` is a function type, `(f32, f32) -> f32`.
typedef struct CoopSiteFunction {
  const char *name;
  const char *type;
} CoopSiteFunction;

typedef struct CoopSite {
  /// The symbol of the site's function.
  const char *name;
  /// The registered op, e.g. "coop.load".
  const char *op;
  const CoopSiteOperand *operands;
  size_t numOperands;
  /// The op's attributes (inherent ones by their ODS names).
  const CoopSiteAttribute *attributes;
  size_t numAttributes;
  const char *const *resultTypes;
  size_t numResults;
  /// The attributes of the site's coop.temp_storage descriptor (its
  /// `temp_storage` operand), when the op has one.
  const CoopSiteAttribute *storage;
  size_t numStorage;
  const CoopSiteFunction *functions;
  size_t numFunctions;
  /// The launch's block (`gpu.known_block_size`).
  int32_t blockDims[3];
  /// The call's source location (none where `file` is NULL or empty).
  const char *file;
  unsigned line;
  unsigned column;
} CoopSite;

/// Where a site's scratch lies in its kernel's buffer.
typedef struct CoopSitePlacement {
  /// The kernel's workgroup buffer symbol.
  const char *buffer;
  int64_t size;
  int64_t alignment;
  /// Dynamic shared memory (past 48 KiB) instead of the buffer.
  int dynamic;
  /// The site's slice.
  int64_t offset;
} CoopSitePlacement;

typedef enum CoopSiteStage {
  /// Build and verify, and plan the site's own scratch: checks a site that
  /// the kernel plan will place. Prints the planned coop IR.
  COOP_SITE_CHECK = 0,
  /// Plan the site on its own (its scratch, its barriers) and lower it.
  COOP_SITE_LOWER = 1,
  /// Lower a site at `placement` in the kernel's planned buffer.
  COOP_SITE_LOWER_PLACED = 2,
} CoopSiteStage;

/// Builds the site's function (parameters: its operands as passed), runs
/// `stage` (the lowering for compute capability `sm`, major * 10 + minor,
/// 0 for the lowest) and prints the module in generic form with locations.
/// `placement` is read for COOP_SITE_LOWER_PLACED only. Never NULL; release
/// with coopPipelineResultDestroy.
COOP_CAPI_EXPORTED CoopPipelineResult coopLowerSite(
    const CoopSite *site, CoopSiteStage stage,
    const CoopSitePlacement *placement, int sm);

/// What a site's op says of itself through its interfaces.
typedef struct CoopSiteFacts {
  /// It takes a slice of the kernel's scratch (at its tile's geometry): the
  /// kernel plan places it.
  int usesScratch;
  /// The kernel should declare its block exact (`.reqntid`, not `.maxntid`).
  int exactBlock;
} CoopSiteFacts;

/// Builds and verifies `site` and fills `facts` when it succeeds. The result
/// holds the diagnostics and no output. Never NULL.
COOP_CAPI_EXPORTED CoopPipelineResult coopDescribeSite(const CoopSite *site,
                                                       CoopSiteFacts *facts);

/// Lowers `site` on its own for a host compiler that links LLVM bitcode (CuTe
/// DSL's `cute.ffi`) and returns that bitcode as the result's output. The
/// site's function is public and takes payloads as bare pointers (to the
/// caller's register arrays), indices as i64 and other values by value; it
/// returns its first result and writes each other one through a pointer
/// parameter appended after the operands (a host's foreign call returns one
/// value). A site that uses scratch starts with a barrier of its group (the
/// scratch's previous use, by this site or another, is over), unless
/// `firstUse` says no use precedes it (the first in its kernel, run once);
/// our passes place the barriers inside it. A block's site takes its scratch at offset 0
/// of `sharedBuffer`, a shared global it declares, when that is given
/// (non-NULL, non-empty), and sets `*sharedSize` and `*sharedAlignment` to
/// what it needs of it (0: none); the host defines the buffer once per
/// kernel, as large and aligned as its sites need (coopEmitScratchBitcode),
/// linked after every site that declares it.
/// Any other site's scratch is a static buffer of its own. Scratch past 48
/// KiB (dynamic shared memory) is an error. The module has the NVPTX triple
/// and NVVM's data layout and no module flags (a host module's "Debug Info
/// Version" flag conflicts with ours). `sm` as for coopLowerSite. Never NULL.
COOP_CAPI_EXPORTED CoopPipelineResult coopEmitSiteBitcode(
    const CoopSite *site, int sm, const char *sharedBuffer, int firstUse,
    int64_t *sharedSize, int64_t *sharedAlignment);

/// LLVM bitcode defining `name`, a shared (address space 3) byte array of
/// `size` bytes aligned to `alignment`: the buffer block sites declare.
/// Never NULL.
COOP_CAPI_EXPORTED CoopPipelineResult coopEmitScratchBitcode(const char *name,
                                                             int64_t size,
                                                             int64_t alignment);

/// A block of a kernel skeleton: its sites and block barriers in order, and
/// the blocks it may branch to (none: the kernel returns).
typedef struct CoopSkeletonBlock {
  /// Site indices, or -1 for a block barrier of the kernel's own.
  const int64_t *entries;
  size_t numEntries;
  const int64_t *successors;
  size_t numSuccessors;
} CoopSkeletonBlock;

typedef struct CoopKernelSkeleton {
  const CoopSite *sites;
  size_t numSites;
  /// Per site: which of the kernel's temp storage descriptors it uses (sites
  /// naming one descriptor share it), -1 for an implicit one.
  const int64_t *storageOf;
  /// The blocks; the first is the entry.
  const CoopSkeletonBlock *blocks;
  size_t numBlocks;
  /// The function may run again while its scratch is still read (a device
  /// function, not a kernel): every return may lead back to the entry.
  int repeated;
  const char *sourceName;
} CoopKernelSkeleton;

/// Builds the skeleton's function and plans it as coopPlanKernel does.
COOP_CAPI_EXPORTED CoopKernelPlan
coopPlanKernelSkeleton(const CoopKernelSkeleton *skeleton);

#ifdef __cplusplus
}
#endif

#endif /* COOP_C_SITE_H */
