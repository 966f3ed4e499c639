// RUN: coop-opt %s -split-input-file --coop-check-gpu-module-top-level -verify-diagnostics | FileCheck %s

// Functions, globals and module-level LLVM ops at a gpu.module's top level
// pass unchanged.
// CHECK-LABEL: gpu.module @fine
// CHECK: llvm.mlir.global internal @table
// CHECK: llvm.func @helper
// CHECK: gpu.func @kernel
gpu.module @fine {
  llvm.mlir.global internal @table(0 : i32) : i32
  llvm.func @helper() {
    llvm.return
  }
  gpu.func @kernel() kernel {
    gpu.barrier
    gpu.return
  }
}

// -----

// An op that needs a function to hold its instructions is the input's
// mistake, reported at the op.
gpu.module @m {
  // expected-error @+1 {{'gpu.barrier' op is outside any function in gpu.module 'm': only functions and globals can be compiled to PTX}}
  gpu.barrier
}

// -----

// The check stops at the first offender.
gpu.module @first {
  // expected-error @+1 {{'arith.constant' op is outside any function in gpu.module 'first'}}
  %c = arith.constant 0 : i32
  gpu.barrier
}
