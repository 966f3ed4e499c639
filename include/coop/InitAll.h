//===- InitAll.h - what coop-opt and the C API register -----------*- C++ -*-===//

#ifndef COOP_INITALL_H
#define COOP_INITALL_H

namespace mlir {
class DialectRegistry;

namespace coop {

/// Registers the coop dialect and the upstream dialects coop programs and
/// their lowerings use (builtin, func, arith, memref, scf, cf, gpu, nvvm,
/// llvm, vector).
void registerCoopAndUpstreamDialects(DialectRegistry &registry);

/// Registers the coop passes and the upstream passes named by coop pipelines
/// in the global pass registry. Safe to call more than once.
void registerCoopAndUpstreamPasses();

} // namespace coop
} // namespace mlir

#endif // COOP_INITALL_H
