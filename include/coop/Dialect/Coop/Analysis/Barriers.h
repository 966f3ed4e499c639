//===- Barriers.h - which scratch reuses need a barrier -----------*- C++ -*-===//

#ifndef COOP_DIALECT_COOP_ANALYSIS_BARRIERS_H
#define COOP_DIALECT_COOP_ANALYSIS_BARRIERS_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::coop {

enum class BarrierKind { none = 0, warp = 1, block = 2 };

/// What one scratch-using op needs around it.
struct BarrierDecision {
  /// The barrier before the op, so that it can overwrite scratch that an
  /// earlier op (perhaps in an earlier loop iteration) may still read.
  BarrierKind before = BarrierKind::none;
  /// An earlier op whose scratch this one reuses (set when `before` is not
  /// none).
  Operation *reuses = nullptr;
  /// A block barrier after the op (explicit temp storage with auto_sync).
  bool trailing = false;
};

/// Decides the reuse barriers of every scratch-using coop op in `fn`
/// (transpose-family loads and stores, exchanges, shuffles, block reductions
/// and scans), which must have been through the scratch planner. Ops on explicit temp
/// storage without auto_sync get no barriers (the program synchronizes).
llvm::DenseMap<Operation *, BarrierDecision>
analyzeReuseBarriers(FunctionOpInterface fn);

} // namespace mlir::coop

#endif // COOP_DIALECT_COOP_ANALYSIS_BARRIERS_H
