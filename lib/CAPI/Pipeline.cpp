//===- Pipeline.cpp - parse, transform and print a module -----------------===//

#include "coop-c/Pipeline.h"
#include "Run.h"
#include "coop/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::coop::capi;

static CoopDiagnosticSeverity toSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return COOP_SEVERITY_ERROR;
  case DiagnosticSeverity::Warning:
    return COOP_SEVERITY_WARNING;
  case DiagnosticSeverity::Note:
    return COOP_SEVERITY_NOTE;
  case DiagnosticSeverity::Remark:
    return COOP_SEVERITY_REMARK;
  }
  return COOP_SEVERITY_ERROR;
}

/// The innermost file location in `loc` (call sites and fused locations of
/// numba kernels nest them), formatted as file:line:col.
static std::string formatLocation(Location loc) {
  std::string text = "<unknown>";
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

static void record(Diagnostics &diagnostics, Diagnostic &diag) {
  diagnostics.push_back({toSeverity(diag.getSeverity()),
                         formatLocation(diag.getLocation()), diag.str()});
  for (Diagnostic &note : diag.getNotes())
    diagnostics.push_back(
        {COOP_SEVERITY_NOTE, formatLocation(note.getLocation()), note.str()});
}

void mlir::coop::capi::recordError(Diagnostics &diagnostics, Location loc,
                                   const Twine &message) {
  diagnostics.push_back(
      {COOP_SEVERITY_ERROR, formatLocation(loc), message.str()});
}

CoopDiagnostic mlir::coop::capi::view(const StoredDiagnostic &diagnostic) {
  return {diagnostic.severity, diagnostic.location.c_str(),
          diagnostic.message.c_str()};
}

/// One context per thread, reused across calls: loading the dialects a
/// lowering needs costs more than the lowering of a small function. Types and
/// attributes are uniqued, so the context grows only with new content.
MLIRContext &mlir::coop::capi::threadContext() {
  thread_local std::unique_ptr<MLIRContext> context = [] {
    DialectRegistry registry;
    coop::registerCoopAndUpstreamDialects(registry);
    auto created = std::make_unique<MLIRContext>(registry,
                                                 MLIRContext::Threading::DISABLED);
    created->loadAllAvailableDialects();
    return created;
  }();
  return *context;
}

DiagnosticCapture::DiagnosticCapture(Diagnostics &diagnostics)
    : handler(&threadContext(), [&diagnostics](Diagnostic &diag) {
        record(diagnostics, diag);
        return success();
      }) {}

/// The canonicalizer's initialization (collecting the canonicalization
/// patterns of every op of the loaded dialects, LLVM's and NVVM's included)
/// cost more than a small site's whole lowering when every call built its
/// own pass manager.
PassManager *mlir::coop::capi::threadPassManager(
    StringRef key, function_ref<LogicalResult(PassManager &)> build) {
  thread_local llvm::StringMap<std::unique_ptr<PassManager>> managers;
  auto [entry, inserted] = managers.try_emplace(key);
  if (!inserted)
    return entry->second.get();
  auto pm = std::make_unique<PassManager>(&threadContext());
  if (failed(build(*pm))) {
    managers.erase(entry);
    return nullptr;
  }
  entry->second = std::move(pm);
  return entry->second.get();
}

std::string mlir::coop::capi::printModule(ModuleOp module, unsigned flags) {
  OpPrintingFlags printing;
  if (flags & COOP_PRINT_GENERIC)
    printing.printGenericOpForm();
  if (flags & COOP_PRINT_DEBUG_INFO)
    printing.enableDebugInfo();
  std::string output;
  llvm::raw_string_ostream os(output);
  module->print(os, printing);
  return output;
}

OwningOpRef<ModuleOp> mlir::coop::capi::parseAndRun(Diagnostics &diagnostics,
                                                  StringRef text,
                                                  StringRef sourceName,
                                                  StringRef pipeline) {
  coop::registerCoopAndUpstreamPasses();
  MLIRContext &context = threadContext();
  DiagnosticCapture capture(diagnostics);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return {};

  PassManager *pm = threadPassManager(pipeline, [&](PassManager &pm) {
    std::string pipelineErrors;
    llvm::raw_string_ostream errorStream(pipelineErrors);
    if (succeeded(parsePassPipeline(pipeline, pm, errorStream)))
      return success();
    diagnostics.push_back({COOP_SEVERITY_ERROR, "<pipeline>",
                           "invalid pass pipeline '" + pipeline.str() +
                               "': " + pipelineErrors});
    return failure();
  });
  if (!pm || failed(pm->run(*module)))
    return {};
  return module;
}

static void run(CoopPipelineResultImpl &result, StringRef moduleText,
                StringRef sourceName, StringRef pipeline, unsigned flags) {
  OwningOpRef<ModuleOp> module =
      parseAndRun(result.diagnostics, moduleText, sourceName, pipeline);
  if (!module)
    return;
  result.output = printModule(*module, flags);
  result.succeeded = true;
}

CoopPipelineResult coopRunPipeline(const char *module, size_t moduleLength,
                                   const char *sourceName, const char *pipeline,
                                   size_t pipelineLength, unsigned flags) {
  auto *result = new CoopPipelineResultImpl;
  run(*result, StringRef(module ? module : "", module ? moduleLength : 0),
      sourceName ? sourceName : "<coop>",
      StringRef(pipeline ? pipeline : "", pipeline ? pipelineLength : 0), flags);
  return result;
}

int coopPipelineResultSucceeded(CoopPipelineResult result) {
  return result->succeeded;
}

const char *coopPipelineResultGetOutput(CoopPipelineResult result,
                                        size_t *length) {
  if (length)
    *length = result->output.size();
  return result->output.c_str();
}

size_t coopPipelineResultGetNumDiagnostics(CoopPipelineResult result) {
  return result->diagnostics.size();
}

CoopDiagnostic coopPipelineResultGetDiagnostic(CoopPipelineResult result,
                                               size_t index) {
  return view(result->diagnostics.at(index));
}

void coopPipelineResultDestroy(CoopPipelineResult result) { delete result; }
