/*===- coop-c/Pipeline.h - parse, transform and print a module -----*- C -*-===*\
|* Self-contained C: no MLIR headers, so a client (the Python extension) can  *|
|* be built against the prebuilt library alone. Calls run in an MLIR context  *|
|* of this library's own MLIR, isolated from any other MLIR in the process:   *|
|* one context per calling thread, created on its first call and reused, with *|
|* multithreading off. Results own their text and outlive later calls.        *|
\*===----------------------------------------------------------------------===*/

#ifndef COOP_C_PIPELINE_H
#define COOP_C_PIPELINE_H

#include <stddef.h>

#if defined(_WIN32)
#define COOP_CAPI_EXPORTED __declspec(dllexport)
#else
#define COOP_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CoopDiagnosticSeverity {
  COOP_SEVERITY_ERROR = 0,
  COOP_SEVERITY_WARNING = 1,
  COOP_SEVERITY_NOTE = 2,
  COOP_SEVERITY_REMARK = 3,
} CoopDiagnosticSeverity;

/// One diagnostic. Notes attached to a diagnostic follow it as separate
/// entries of severity COOP_SEVERITY_NOTE. Strings are NUL-terminated and owned
/// by the result they came from.
typedef struct CoopDiagnostic {
  CoopDiagnosticSeverity severity;
  /// "file:line:col" of the innermost file location, or "<unknown>".
  const char *location;
  const char *message;
} CoopDiagnostic;

/// Print the result in MLIR's generic operation form.
#define COOP_PRINT_GENERIC 1u
/// Print locations (debug information) with the result.
#define COOP_PRINT_DEBUG_INFO 2u

typedef struct CoopPipelineResultImpl *CoopPipelineResult;

/// Parses `module` (MLIR text, `moduleLength` bytes, named `sourceName` in
/// diagnostics), verifies it, runs `pipeline` (a textual pass pipeline
/// anchored on builtin.module, without the `builtin.module(...)` wrapper;
/// empty: verify only) and prints the result. Never returns NULL; release the
/// result with coopPipelineResultDestroy.
COOP_CAPI_EXPORTED CoopPipelineResult coopRunPipeline(
    const char *module, size_t moduleLength, const char *sourceName,
    const char *pipeline, size_t pipelineLength, unsigned flags);

/// Nonzero when parsing, verification and every pass succeeded.
COOP_CAPI_EXPORTED int coopPipelineResultSucceeded(CoopPipelineResult result);

/// The printed module after the pipeline (empty on failure).
COOP_CAPI_EXPORTED const char *
coopPipelineResultGetOutput(CoopPipelineResult result, size_t *length);

COOP_CAPI_EXPORTED size_t
coopPipelineResultGetNumDiagnostics(CoopPipelineResult result);

COOP_CAPI_EXPORTED CoopDiagnostic
coopPipelineResultGetDiagnostic(CoopPipelineResult result, size_t index);

COOP_CAPI_EXPORTED void coopPipelineResultDestroy(CoopPipelineResult result);

#ifdef __cplusplus
}
#endif

#endif /* COOP_C_PIPELINE_H */
