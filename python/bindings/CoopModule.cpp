//===- CoopModule.cpp - cuda.coop._compiler -------------------------------===//
//
// Python access to the coop C API: run a pass pipeline on MLIR text, and plan
// a kernel skeleton's scratch and barriers. Failures raise
// cuda.coop._compiler.PipelineError whose `diagnostics` attribute lists
// (severity, location, message) tuples.
//
//===----------------------------------------------------------------------===//

#include "coop-c/KernelPlan.h"
#include "coop-c/Pipeline.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <functional>

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

/// The diagnostics as Python tuples; raises PipelineError with them when the
/// call did not succeed.
nb::list diagnosticsOrRaise(bool succeeded, size_t count,
                            const std::function<CoopDiagnostic(size_t)> &get) {
  nb::list diagnostics;
  std::string summary;
  for (size_t i = 0; i < count; ++i) {
    CoopDiagnostic diag = get(i);
    diagnostics.append(nb::make_tuple(severityName(diag.severity),
                                      diag.location, diag.message));
    if (!summary.empty())
      summary += "\n";
    summary += std::string(diag.location) + ": " +
               severityName(diag.severity) + ": " + diag.message;
  }
  if (succeeded)
    return diagnostics;
  if (summary.empty())
    summary = "the coop pipeline failed without a diagnostic";
  nb::object error = pipelineErrorType(summary);
  error.attr("diagnostics") = diagnostics;
  PyErr_SetObject(pipelineErrorType.ptr(), error.ptr());
  throw nb::python_error();
}

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
  diagnosticsOrRaise(coopPipelineResultSucceeded(result.get()),
                     coopPipelineResultGetNumDiagnostics(result.get()),
                     [&](size_t i) {
                       return coopPipelineResultGetDiagnostic(result.get(), i);
                     });
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result.get(), &length);
  return std::string(output, length);
}

struct PlanDeleter {
  void operator()(CoopKernelPlanImpl *plan) const {
    coopKernelPlanDestroy(plan);
  }
};
using PlanPtr = std::unique_ptr<CoopKernelPlanImpl, PlanDeleter>;

nb::dict planKernel(const std::string &module, const std::string &sourceName,
                    int64_t sites) {
  PlanPtr plan;
  {
    nb::gil_scoped_release release;
    plan.reset(coopPlanKernel(module.data(), module.size(), sourceName.c_str()));
  }
  diagnosticsOrRaise(coopKernelPlanSucceeded(plan.get()),
                     coopKernelPlanGetNumDiagnostics(plan.get()),
                     [&](size_t i) {
                       return coopKernelPlanGetDiagnostic(plan.get(), i);
                     });
  nb::dict result;
  result["size"] = coopKernelPlanGetScratchSize(plan.get());
  result["alignment"] = coopKernelPlanGetScratchAlignment(plan.get());
  result["dynamic"] = bool(coopKernelPlanIsDynamic(plan.get()));
  nb::list offsets;
  for (int64_t site = 0; site < sites; ++site) {
    int64_t offset = coopKernelPlanGetSiteOffset(plan.get(), site);
    if (offset < 0)
      offsets.append(nb::none());
    else
      offsets.append(offset);
  }
  result["offsets"] = offsets;
  nb::list barriers;
  for (size_t i = 0, e = coopKernelPlanGetNumBarriers(plan.get()); i < e; ++i) {
    CoopPlannedBarrier barrier = coopKernelPlanGetBarrier(plan.get(), i);
    barriers.append(nb::make_tuple(
        barrier.site, barrier.place == COOP_BARRIER_BEFORE ? "before" : "after",
        barrier.scope == COOP_BARRIER_BLOCK ? "block" : "site"));
  }
  result["barriers"] = barriers;
  return result;
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
  m.def("plan_kernel", &planKernel, nb::arg("module"), nb::kw_only(),
        nb::arg("source_name") = "<coop>", nb::arg("sites"),
        "Plan the scratch and barriers of the one function of `module` (a "
        "kernel skeleton whose call sites carry `coop.site = k`, k in "
        "[0, sites)). Returns a dict: `size`, `alignment` and `dynamic` of the "
        "kernel's scratch buffer, `offsets` (each site's byte offset or None) "
        "and `barriers`, (site, 'before' | 'after', 'site' | 'block') tuples: "
        "a barrier of the site's group or of the block, next to the site. "
        "Raises PipelineError with the diagnostics when planning fails.");
}
