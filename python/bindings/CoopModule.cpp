//===- CoopModule.cpp - cuda.coop._compiler -------------------------------===//
//
// Python access to the coop C API: run a pass pipeline on MLIR text, lower a
// call site described as data, and plan a kernel skeleton's scratch and
// barriers. Failures raise
// cuda.coop._compiler.PipelineError whose `diagnostics` attribute lists
// (severity, location, message) tuples.
//
//===----------------------------------------------------------------------===//

#include "coop-c/KernelPlan.h"
#include "coop-c/Pipeline.h"
#include "coop-c/Site.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

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

/// The result's printed module; raises PipelineError with its diagnostics
/// when it did not succeed.
std::string outputOrRaise(CoopPipelineResult result) {
  diagnosticsOrRaise(coopPipelineResultSucceeded(result),
                     coopPipelineResultGetNumDiagnostics(result),
                     [&](size_t i) { return coopPipelineResultGetDiagnostic(result, i); });
  size_t length = 0;
  const char *output = coopPipelineResultGetOutput(result, &length);
  return std::string(output, length);
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
  return outputOrRaise(result.get());
}

struct PlanDeleter {
  void operator()(CoopKernelPlanImpl *plan) const {
    coopKernelPlanDestroy(plan);
  }
};
using PlanPtr = std::unique_ptr<CoopKernelPlanImpl, PlanDeleter>;

nb::dict planResult(PlanPtr plan, int64_t sites) {
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

nb::dict planKernel(const std::string &module, const std::string &sourceName,
                    int64_t sites) {
  PlanPtr plan;
  {
    nb::gil_scoped_release release;
    plan.reset(coopPlanKernel(module.data(), module.size(), sourceName.c_str()));
  }
  return planResult(std::move(plan), sites);
}

/// A site's C description and the strings it points into, read from the
/// Python tuple `Site.data()` makes.
class SiteData {
public:
  explicit SiteData(nb::handle data) {
    nb::tuple fields = nb::cast<nb::tuple>(data);
    if (fields.size() != 11)
      throw nb::value_error("a site is (name, op, operands, attributes, results, "
                            "storage, functions, block, file, line, column)");
    site.name = keep(fields[0]);
    site.op = keep(fields[1]);
    for (nb::handle operand : fields[2]) {
      nb::tuple parts = nb::cast<nb::tuple>(operand);
      operands.push_back({keep(parts[0]), keepOrNull(parts[1]), keepOrNull(parts[2]),
                          nb::cast<int64_t>(parts[3])});
    }
    attributes = pairs<CoopSiteAttribute>(fields[3]);
    for (nb::handle type : fields[4])
      results.push_back(keep(type));
    storage = pairs<CoopSiteAttribute>(fields[5]);
    functions = pairs<CoopSiteFunction>(fields[6]);
    nb::tuple block = nb::cast<nb::tuple>(fields[7]);
    for (int i = 0; i < 3; ++i)
      site.blockDims[i] = nb::cast<int32_t>(block[i]);
    site.file = keep(fields[8]);
    site.line = nb::cast<unsigned>(fields[9]);
    site.column = nb::cast<unsigned>(fields[10]);
    site.operands = operands.data();
    site.numOperands = operands.size();
    site.attributes = attributes.data();
    site.numAttributes = attributes.size();
    site.resultTypes = results.data();
    site.numResults = results.size();
    site.storage = storage.data();
    site.numStorage = storage.size();
    site.functions = functions.data();
    site.numFunctions = functions.size();
  }
  SiteData(const SiteData &) = delete;

  CoopSite site = {};

private:
  const char *keep(nb::handle value) {
    return strings.emplace_back(nb::cast<std::string>(value)).c_str();
  }
  const char *keepOrNull(nb::handle value) {
    return value.is_none() ? nullptr : keep(value);
  }
  template <typename Pair> std::vector<Pair> pairs(nb::handle sequence) {
    std::vector<Pair> made;
    for (nb::handle item : sequence) {
      nb::tuple parts = nb::cast<nb::tuple>(item);
      made.push_back({keep(parts[0]), keep(parts[1])});
    }
    return made;
  }

  std::deque<std::string> strings; // stable addresses
  std::vector<CoopSiteOperand> operands;
  std::vector<CoopSiteAttribute> attributes;
  std::vector<const char *> results;
  std::vector<CoopSiteAttribute> storage;
  std::vector<CoopSiteFunction> functions;
};

CoopSiteStage stageNamed(const std::string &stage) {
  if (stage == "check")
    return COOP_SITE_CHECK;
  if (stage == "lower")
    return COOP_SITE_LOWER;
  if (stage == "placed")
    return COOP_SITE_LOWER_PLACED;
  throw nb::value_error("stage is 'check', 'lower' or 'placed'");
}

std::string lowerSite(nb::handle data, const std::string &stage, nb::handle placement,
                      int sm) {
  SiteData site(data);
  CoopSitePlacement placed = {};
  std::string buffer;
  if (!placement.is_none()) {
    nb::tuple parts = nb::cast<nb::tuple>(placement);
    buffer = nb::cast<std::string>(parts[0]);
    placed = {buffer.c_str(), nb::cast<int64_t>(parts[1]), nb::cast<int64_t>(parts[2]),
              nb::cast<bool>(parts[3]), nb::cast<int64_t>(parts[4])};
  }
  CoopSiteStage siteStage = stageNamed(stage);
  ResultPtr result;
  {
    nb::gil_scoped_release release;
    result.reset(coopLowerSite(&site.site, siteStage,
                               placement.is_none() ? nullptr : &placed, sm));
  }
  return outputOrRaise(result.get());
}

nb::dict describeSite(nb::handle data) {
  SiteData site(data);
  CoopSiteFacts facts = {};
  ResultPtr result;
  {
    nb::gil_scoped_release release;
    result.reset(coopDescribeSite(&site.site, &facts));
  }
  outputOrRaise(result.get());
  nb::dict described;
  described["uses_scratch"] = bool(facts.usesScratch);
  described["exact_block"] = bool(facts.exactBlock);
  return described;
}

nb::tuple emitSiteBitcode(nb::handle data, int sm, const std::string &sharedBuffer,
                          bool firstUse) {
  SiteData site(data);
  ResultPtr result;
  int64_t size = 0, alignment = 0;
  {
    nb::gil_scoped_release release;
    result.reset(coopEmitSiteBitcode(&site.site, sm, sharedBuffer.c_str(), firstUse, &size,
                                     &alignment));
  }
  std::string bitcode = outputOrRaise(result.get());
  return nb::make_tuple(nb::bytes(bitcode.data(), bitcode.size()), size, alignment);
}

nb::bytes emitScratchBitcode(const std::string &name, int64_t size, int64_t alignment) {
  ResultPtr result(coopEmitScratchBitcode(name.c_str(), size, alignment));
  std::string bitcode = outputOrRaise(result.get());
  return nb::bytes(bitcode.data(), bitcode.size());
}

nb::dict planSkeleton(nb::handle sites, nb::handle storageOf, nb::handle blocks,
                      bool repeated, const std::string &sourceName) {
  std::deque<SiteData> siteData;
  std::vector<CoopSite> siteList;
  for (nb::handle site : sites)
    siteList.push_back(siteData.emplace_back(site).site);
  std::vector<int64_t> storages;
  for (nb::handle descriptor : storageOf)
    storages.push_back(nb::cast<int64_t>(descriptor));
  if (storages.size() != siteList.size())
    throw nb::value_error("storage_of needs one descriptor index (or -1) per site");
  std::deque<std::vector<int64_t>> lists;
  std::vector<CoopSkeletonBlock> blockList;
  for (nb::handle block : blocks) {
    nb::tuple parts = nb::cast<nb::tuple>(block);
    std::vector<int64_t> &entries = lists.emplace_back();
    for (nb::handle entry : parts[0])
      entries.push_back(nb::cast<int64_t>(entry));
    std::vector<int64_t> &successors = lists.emplace_back();
    for (nb::handle successor : parts[1])
      successors.push_back(nb::cast<int64_t>(successor));
    blockList.push_back({entries.data(), entries.size(), successors.data(),
                         successors.size()});
  }
  CoopKernelSkeleton skeleton = {siteList.data(), siteList.size(), storages.data(),
                                 blockList.data(), blockList.size(), repeated,
                                 sourceName.c_str()};
  PlanPtr plan;
  {
    nb::gil_scoped_release release;
    plan.reset(coopPlanKernelSkeleton(&skeleton));
  }
  return planResult(std::move(plan), int64_t(siteList.size()));
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
  m.def("lower_site", &lowerSite, nb::arg("site"), nb::arg("stage"),
        nb::arg("placement").none() = nb::none(), nb::arg("sm") = 0,
        "Build the call site `site` (the tuple of cuda.coop.numba_mlir's "
        "Site.data(): name, op, operands as (ODS name, type or None, passed "
        "type or None, parameter position or -1) in ODS order, attributes and storage attributes as "
        "(name, MLIR attribute text), result types, declared functions as "
        "(symbol, function type), block, file, line, column) through its "
        "registered op, verify it and run `stage`: 'check' (plan its "
        "scratch), 'lower' (plan and lower it alone) or 'placed' (lower it at "
        "`placement`, (buffer, size, alignment, dynamic, offset)) for "
        "compute capability `sm`. Returns the module in generic form. Raises "
        "PipelineError with the diagnostics.");
  m.def("describe_site", &describeSite, nb::arg("site"),
        "Build and verify the call site `site` (as lower_site takes it) and "
        "return what its op says of itself: `uses_scratch` (the kernel plan "
        "places it) and `exact_block` (the kernel should declare its block "
        "exact). Raises PipelineError with the diagnostics.");
  m.def("emit_site_bitcode", &emitSiteBitcode, nb::arg("site"), nb::arg("sm") = 0,
        nb::arg("shared_buffer") = "", nb::arg("first_use") = false,
        "Lower the call site `site` (as lower_site takes it) on its own for a "
        "host compiler that links LLVM bitcode (CuTe DSL's cute.ffi): a "
        "public function taking payloads as bare pointers, a leading barrier "
        "of its group when it uses scratch (not with `first_use`: no use "
        "precedes it), NVVM's data layout and no module flags. A block site's "
        "scratch is at offset 0 of `shared_buffer` "
        "(declared) when given, any other's a static buffer of its own. "
        "Returns (bitcode, size, alignment): what the site needs of the "
        "shared buffer (0, 0: nothing). Raises PipelineError with the "
        "diagnostics.");
  m.def("emit_scratch_bitcode", &emitScratchBitcode, nb::arg("name"), nb::arg("size"),
        nb::arg("alignment"),
        "LLVM bitcode defining `name`, a shared byte array of `size` bytes "
        "aligned to `alignment` (the buffer block sites of emit_site_bitcode "
        "declare). Raises PipelineError for a bad size or alignment.");
  m.def("plan_skeleton", &planSkeleton, nb::arg("sites"), nb::arg("storage_of"),
        nb::arg("blocks"), nb::kw_only(), nb::arg("repeated") = false,
        nb::arg("source_name") = "<coop>",
        "Plan a kernel skeleton given as data: `sites` (Site.data() tuples), "
        "`storage_of` (per site its descriptor's index, -1 for none), "
        "`blocks` ((entries, successors): site indices or -1 for a block "
        "barrier, and the blocks it branches to; the first is the entry). "
        "`repeated`: the function may run again (a device function). Returns "
        "plan_kernel's dict.");
}
