// RUN: coop-opt %s -split-input-file --coop-lower-to-ptx -verify-diagnostics

// A barrier outside any function passes the verifiers and the lowering to
// NVVM; LLVM IR translation would crash on it.
gpu.module @m {
  // expected-error @+1 {{'nvvm.barrier0' op is outside any function in gpu.module 'm': only functions and globals can be compiled to PTX}}
  gpu.barrier
}
