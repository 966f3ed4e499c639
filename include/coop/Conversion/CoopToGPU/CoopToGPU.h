//===- CoopToGPU.h - lower coop ops to gpu/nvvm/memref ------------*- C++ -*-===//
//
// One pattern file per op family (LoadStore.cpp, Exchange.cpp, Shuffle.cpp,
// Reduce.cpp, Scan.cpp, Groups.cpp) over shared tile helpers (TileHelpers.h)
// and combining helpers (Combining.h). The
// patterns expect the scratch planner's offsets and barriers already in
// place (--coop-plan-scratch, --coop-insert-barriers).
//
//===----------------------------------------------------------------------===//

#ifndef COOP_CONVERSION_COOPTOGPU_COOPTOGPU_H
#define COOP_CONVERSION_COOPTOGPU_COOPTOGPU_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::coop {

/// Adds the patterns that lower every coop op for a target of compute
/// capability `sm` (major * 10 + minor; 0: unknown).
void populateCoopToGPUConversionPatterns(RewritePatternSet &patterns,
                                         unsigned sm = 0);

/// Marks the coop dialect illegal and the dialects the patterns emit legal.
void configureCoopToGPUConversionTarget(ConversionTarget &target);

} // namespace mlir::coop

#endif // COOP_CONVERSION_COOPTOGPU_COOPTOGPU_H
