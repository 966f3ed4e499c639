//===- Run.h - parse and transform a module for the C API -------*- C++ -*-===//
//
// Shared by the C API's entry points: this thread's MLIR context, diagnostics
// recorded for the caller, and a module parsed and run through a pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef COOP_LIB_CAPI_RUN_H
#define COOP_LIB_CAPI_RUN_H

#include "coop-c/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::coop::capi {

struct StoredDiagnostic {
  CoopDiagnosticSeverity severity;
  std::string location;
  std::string message;
};

using Diagnostics = std::vector<StoredDiagnostic>;

/// Parses `text` in this thread's context and runs `pipeline` on it. Every
/// diagnostic goes to `diagnostics`; null when parsing, verification or a pass
/// failed.
OwningOpRef<ModuleOp> parseAndRun(Diagnostics &diagnostics, StringRef text,
                                  StringRef sourceName, StringRef pipeline);

/// Records an error of the C API's own at `loc`.
void recordError(Diagnostics &diagnostics, Location loc, const Twine &message);

CoopDiagnostic view(const StoredDiagnostic &diagnostic);

} // namespace mlir::coop::capi

#endif // COOP_LIB_CAPI_RUN_H
