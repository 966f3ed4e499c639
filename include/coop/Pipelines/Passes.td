//===- Passes.td - passes of the coop pipelines -------------*- tablegen -*-===//

#ifndef COOP_PIPELINES_PASSES_TD
#define COOP_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoopCheckGPUModuleTopLevel
    : Pass<"coop-check-gpu-module-top-level", "ModuleOp"> {
  let summary = "Reject ops outside functions in a gpu.module before PTX";
  let description = [{
    LLVM IR translation converts each op at a `gpu.module`'s top level with
    no function to put instructions in, and crashes on one that needs it (a
    barrier outside any function, which the verifiers allow). Such an op is
    the input's mistake: this check reports it, at the op, before
    `gpu-module-to-binary` runs. Functions, globals and the module-level
    LLVM ops (`llvm.mlir.global_ctors`, `global_dtors`, `module_flags`,
    `linker_options`) pass. `coop-lower-to-ptx` runs it after
    `coop-lower-to-nvvm`.

    ```mlir
    gpu.module @m {
      gpu.barrier  // error: is outside any function in gpu.module 'm'
    }
    ```
  }];
  let dependentDialects = ["gpu::GPUDialect", "LLVM::LLVMDialect"];
}

#endif // COOP_PIPELINES_PASSES_TD
