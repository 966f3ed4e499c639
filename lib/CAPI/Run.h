//===- Run.h - parse and transform a module for the C API -------*- C++ -*-===//
//
// Shared by the C API's entry points: this thread's MLIR context, diagnostics
// recorded for the caller, and a module parsed and run through a pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CAPI_RUN_H
#define COOP_LIB_CAPI_RUN_H

#include "coop-c/KernelPlan.h"
#include "coop-c/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::coop::capi {

struct StoredDiagnostic {
  CoopDiagnosticSeverity severity;
  std::string location;
  std::string message;
};

using Diagnostics = std::vector<StoredDiagnostic>;

/// This thread's context, with coop and the upstream dialects it lowers to
/// loaded and multithreading off.
MLIRContext &threadContext();

/// Records every diagnostic of this thread's context into `diagnostics`
/// while it lives.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(Diagnostics &diagnostics);

private:
  ScopedDiagnosticHandler handler;
};

/// This thread's pass manager stored under `key`, built by `build` on the
/// first request (a pass manager initializes its passes on its first run,
/// which costs more than a small site's lowering). Null when `build` fails.
PassManager *threadPassManager(StringRef key,
                               function_ref<LogicalResult(PassManager &)> build);

/// `module` printed as `flags` (COOP_PRINT_*) say.
std::string printModule(ModuleOp module, unsigned flags);

/// Parses `text` in this thread's context and runs `pipeline` on it. Every
/// diagnostic goes to `diagnostics`; null when parsing, verification or a pass
/// failed.
OwningOpRef<ModuleOp> parseAndRun(Diagnostics &diagnostics, StringRef text,
                                  StringRef sourceName, StringRef pipeline);

/// Records an error of the C API's own at `loc`.
void recordError(Diagnostics &diagnostics, Location loc, const Twine &message);

CoopDiagnostic view(const StoredDiagnostic &diagnostic);

/// Plans `module`'s one function (coop-plan-scratch, coop-insert-barriers)
/// into `plan`.
void planKernel(CoopKernelPlanImpl &plan, ModuleOp module);

} // namespace mlir::coop::capi

struct CoopPipelineResultImpl {
  bool succeeded = false;
  std::string output;
  mlir::coop::capi::Diagnostics diagnostics;
};

struct CoopKernelPlanImpl {
  bool succeeded = false;
  mlir::coop::capi::Diagnostics diagnostics;
  int64_t scratchSize = 0;
  int64_t scratchAlignment = 0;
  bool dynamic = false;
  std::map<int64_t, int64_t> offsets;
  std::vector<CoopPlannedBarrier> barriers;
};

#endif // COOP_LIB_CAPI_RUN_H
