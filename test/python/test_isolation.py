"""Our MLIR shares a process with numba-cuda-mlir's, in either import order.

numba-cuda-mlir preloads its own MLIR/LLVM (a different version) and exports
its symbols; a second visible MLIR in the process would abort on duplicate
command-line options. Each order runs in a fresh interpreter.
"""

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("numba_cuda_mlir")

USE_NUMBA = """
import numba_cuda_mlir
import numba_cuda_mlir.tools
from numba_cuda_mlir import cuda

numba_cuda_mlir.tools._cached_cc = (9, 0)

def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1

ptx, _ = cuda.compile_ptx(add_one, "void(float32[::1])", cc=(9, 0))
assert ".entry" in ptx, ptx
"""

USE_COOP = """
from cuda.coop import _compiler

out = _compiler.run_pipeline(
    "func.func @f() {\\n %b = coop.this_block\\n return\\n}", "canonicalize"
)
assert "coop.this_block" not in out, out
"""


@pytest.mark.parametrize("order", ["numba-first", "coop-first"])
def test_both_mlirs_work_in_one_process(order):
    steps = [USE_NUMBA, USE_COOP] if order == "numba-first" else [USE_COOP, USE_NUMBA]
    # Use both again after the other loaded, to catch late symbol clashes.
    script = "\n".join(textwrap.dedent(s) for s in steps + steps)
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-4000:]
