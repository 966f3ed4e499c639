"""cuda.coop.mlir: the coop dialect in the upstream MLIR Python bindings
(xtc-mlir-python-bindings, package `mlir`): generated op classes and enums,
registration in an mlir.ir.Context, PassManager.parse of our pipelines down to
PTX, and what happens next to the Numba backend in one process."""

import importlib.util
import subprocess
import sys
import textwrap

import pytest

import coop_kernels as ck
from mlir import ir
from mlir.dialects import gpu, memref
from mlir.passmanager import PassManager

from cuda.coop.mlir import coop

COPY = """
gpu.module @kernels {
  gpu.func @copy(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    coop.load %b, %src[%off] into %items algorithm = transpose
        : !coop.group<block>, memref<?xi32>, memref<4xi32>
    coop.store %b, %items into %dst[%off] algorithm = transpose
        : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}
"""


def _body(module: ir.Module) -> list:
    """The kernel's ops (valid while `module` lives)."""
    kernel = module.body.operations[0].regions[0].blocks[0].operations[0]
    return list(kernel.regions[0].blocks[0].operations)


def test_parsed_ops_are_the_generated_classes():
    with ir.Context() as context:
        coop.register_dialect(context)
        module = ir.Module.parse(COPY)
        ops = _body(module)
        assert [type(op) for op in ops[:4]] == [coop.ThisBlockOp, memref.AllocaOp,
                                                 coop.LoadOp, coop.StoreOp]
        assert str(ops[2].algorithm) == "#coop<algorithm transpose>"
        assert ops[2].offset is not None and ops[2].valid_items is None


def test_without_registration_coop_is_unknown():
    with ir.Context(), pytest.raises(ir.MLIRError, match="coop"):
        ir.Module.parse(COPY)


def test_builders_make_a_kernel_that_verifies():
    with ir.Context() as context, ir.Location.unknown():
        coop.register_dialect(context)
        module = ir.Module.create()
        i32, index = ir.IntegerType.get_signless(32), ir.IndexType.get()
        tile = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], i32)
        with ir.InsertionPoint(module.body):
            kernels = gpu.GPUModuleOp("kernels")
            kernels.regions[0].blocks.append()
            with ir.InsertionPoint(kernels.regions[0].blocks[0]):
                kernel = gpu.GPUFuncOp(ir.FunctionType.get([tile, tile, index], []), "copy",
                                       kernel=True, known_block_size=[128, 1, 1])
                entry = kernel.body.blocks.append(tile, tile, index)
                with ir.InsertionPoint(entry):
                    src, dst, offset = entry.arguments
                    block = coop.this_block(ir.Type.parse("!coop.group<block>"))
                    items = memref.alloca(ir.MemRefType.get([4], i32), [], [])
                    coop.load(block, src, items, offset=offset, algorithm=coop.Algorithm.transpose)
                    coop.store(block, items, dst, offset=offset, algorithm=coop.Algorithm.transpose)
                    gpu.ReturnOp([])
        assert module.operation.verify()
        text = str(module)
        assert "coop.load %0, %arg0[%arg2] into %alloca algorithm = transpose" in text
        assert "coop.store %0, %alloca into %arg1[%arg2] algorithm = transpose" in text


def test_a_verifier_error_names_the_rule():
    bad = """
        func.func @f(%src: memref<?xi32>, %items: memref<4xi32>) {
          %w = coop.this_warp
          coop.load %w, %src into %items algorithm = warp_transpose
              : !coop.group<warp>, memref<?xi32>, memref<4xi32>
          return
        }"""
    with ir.Context() as context:
        coop.register_dialect(context)
        with pytest.raises(ir.MLIRError, match="'warp_transpose' is not valid for a warp group"):
            ir.Module.parse(bad)


def test_pass_manager_parses_and_runs_the_nvvm_pipeline():
    with ir.Context() as context:
        coop.register_dialect(context)
        module = ir.Module.parse(COPY)
        PassManager.parse("builtin.module(coop-lower-to-nvvm)").run(module.operation)
        text = str(module)
        assert "coop." not in text and "llvm.func @copy" in text and "nvvm.barrier0" in text


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_pass_manager_parses_and_runs_the_ptx_pipeline_and_ptxas_accepts_it():
    with ir.Context() as context:
        coop.register_dialect(context)
        module = ir.Module.parse(COPY)
        PassManager.parse("builtin.module(coop-lower-to-ptx{chip=sm_90})").run(module.operation)
        binary = module.body.operations[0]
        ptx = gpu.ObjectAttr(binary.objects[0]).object.decode()
    resources = ck.ptxas_resources(ptx)
    # The block's 512 int32 items in one 2 KiB exchange buffer; no stack.
    assert resources["copy"].shared == 2048 and resources["copy"].stack == 0


# Never imported here: this process has the upstream bindings loaded.
needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba_cuda_mlir") is None,
                                 reason="needs numba-cuda-mlir")


def _run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)],
                          capture_output=True, text=True, timeout=300)


@needs_numba
def test_numba_first_then_cuda_coop_mlir_is_a_clear_import_error():
    # numba-cuda-mlir's libMLIRPythonCAPI.so (MLIR 23) is already loaded; the
    # upstream bindings would run on it, so cuda.coop.mlir refuses to load.
    done = _run("""
        import numba_cuda_mlir
        import cuda.coop.numba_mlir
        try:
            from cuda.coop.mlir import coop
        except ImportError as error:
            print("ImportError:", error)
    """)
    assert done.returncode == 0, done.stderr
    assert "ImportError: cuda.coop.mlir cannot run in a process that has imported numba_cuda_mlir" in done.stdout


@needs_numba
def test_cuda_coop_mlir_first_then_numba_aborts_in_llvm():
    # The upstream bindings' libLLVM.so registers LLVM's command-line options
    # for the whole process; numba-cuda-mlir's LLVM registers them again and
    # LLVM aborts. Nothing in cuda.coop can prevent it: keep the two apart.
    done = _run("""
        from cuda.coop.mlir import coop
        import numba_cuda_mlir
    """)
    assert done.returncode != 0
    assert "LLVM ERROR: Option" in done.stderr and "already exists" in done.stderr
