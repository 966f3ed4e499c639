//===- CoopModule.cpp - cuda.coop._compiler -------------------------------===//
//
// Python access to the coop C API: run a pass pipeline on MLIR text. Failures
// raise cuda.coop._compiler.PipelineError whose `diagnostics` attribute lists
// (severity, location, message) tuples.
//
//===----------------------------------------------------------------------===//

#include "coop-c/Pipeline.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace nb = nanobind;

namespace {

const char *severityName(CoopDiagnosticSeverity severity) {
  switch (severity) {
  case COOP_SEVERITY_ERROR:
    return "error";
  case COOP_SEVERITY_WARNING:
    return "warning";
  case COOP_SEVERITY_NOTE:
    return "note";
  case COOP_SEVERITY_REMARK:
    return "remark";
  }
  return "error";
}

/// Never thrown: it only gives PipelineError its own C++ type for nanobind.
struct PipelineFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ResultDeleter {
  void operator()(CoopPipelineResultImpl *result) const {
    coopPipelineResultDestroy(result);
  }
};
using ResultPtr = std::unique_ptr<CoopPipelineResultImpl, ResultDeleter>;

nb::handle pipelineErrorType;

std::string runPipeline(const std::string &module, const std::string &pipeline,
                        const std::string &sourceName, bool generic,
                        bool debugInfo) {
  unsigned flags = (generic ? COOP_PRINT_GENERIC : 0u) |
                   (debugInfo ? COOP_PRINT_DEBUG_INFO : 0u);
  ResultPtr result;
  {
    nb::gil_scoped_release release;
    result.reset(coopRunPipeline(module.data(), module.size(),
                                 sourceName.c_str(), pipeline.data(),
                                 pipeline.size(), flags));
  }

  nb::list diagnostics;
  std::string summary;
  size_t count = coopPipelineResultGetNumDiagnostics(result.get());
  for (size_t i = 0; i < count; ++i) {
    CoopDiagnostic diag = coopPipelineResultGetDiagnostic(result.get(), i);
    diagnostics.append(nb::make_tuple(severityName(diag.severity),
                                      diag.location, diag.message));
    if (!summary.empty())
      summary += "\n";
    summary += std::string(diag.location) + ": " +
               severityName(diag.severity) + ": " + diag.message;
  }

  if (!coopPipelineResultSucceeded(result.get())) {
    if (summary.empty())
      summary = "the coop pipeline failed without a diagnostic";
    nb::object error = pipelineErrorType(summary);
    error.attr("diagnostics") = diagnostics;
    PyErr_SetObject(pipelineErrorType.ptr(), error.ptr());
    throw nb::python_error();
  }
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result.get(), &length);
  return std::string(output, length);
}

} // namespace

NB_MODULE(_compiler, m) {
  m.doc() = "The coop MLIR compiler: parse, verify, transform and print "
            "modules with the coop dialect.";

  nb::object error = nb::exception<PipelineFailure>(m, "PipelineError",
                                                   PyExc_ValueError);
  error.attr("__doc__") =
      "An MLIR module or pipeline was rejected. `diagnostics` lists "
      "(severity, location, message) tuples in the order they were emitted.";
  pipelineErrorType = error;

  m.def("run_pipeline", &runPipeline, nb::arg("module"),
        nb::arg("pipeline") = "", nb::kw_only(),
        nb::arg("source_name") = "<coop>", nb::arg("generic") = false,
        nb::arg("debug_info") = false,
        "Parse and verify `module` (MLIR text), run `pipeline` (a textual "
        "pass pipeline on builtin.module, e.g. 'canonicalize,cse'; empty: "
        "verify only) and return the printed result. Raises PipelineError "
        "with the diagnostics when parsing, verification or a pass fails.");
}
