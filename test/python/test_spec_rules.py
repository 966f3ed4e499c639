"""Rules of the spec as a user meets them, compile-only (no GPU needed):
registration in any order, the install hint, and ThreadData's payload rules
(`items_per_thread` everywhere the payload goes, one element type from every
typed source)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_compile as nc  # noqa: E402

HERE = Path(__file__).parent

# A process that compiles coop kernels the way numba_compile does.
PRELUDE = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
import numba_compile as nc
from numba_cuda_mlir.numba_cuda.types import literal
"""

COOP_KERNEL = """
def copy(src, dst, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    coop.load(block, src, items)
    coop.store(block, dst, items)
"""

# Hides numba_cuda_mlir from the process, as if it were not installed.
HIDE_COMPILER = """
import sys

class HideNumbaCudaMlir:
    def find_spec(self, name, path=None, target=None):
        if name == "numba_cuda_mlir" or name.startswith("numba_cuda_mlir."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, HideNumbaCudaMlir())
"""

EXTRAS = ('"cuda-coop[numba-cuda-mlir-cu13]"', '"cuda-coop[numba-cuda-mlir-cu12]"')


def _python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=600)


def _last_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stdout.strip().splitlines()
    assert lines, result.stderr[-4000:]
    return lines[-1]


# ---------------------------------------------------------------------------
# Registration and activation


def test_import_order_a_plain_kernel_compiled_first():
    # A notebook: a plain kernel is compiled before cuda.coop is imported.
    result = _python(PRELUDE + """
from numba_cuda_mlir import cuda, types

@cuda.jit
def plain(x):
    x[0] = 1

plain_ptx = cuda.compile_ptx(plain.py_func, (types.int32[::1],), cc=(9, 0))[0]
import cuda.coop.numba_mlir as coop
""" + COOP_KERNEL + """
cres = nc.compile_for_launch(cuda.jit(copy), [nc.ARRAY, nc.ARRAY, literal(4)], (128,))
ptx = cres.metadata["ptx"]
print(".entry" in plain_ptx, ptx.count("ld.global.u32"), ptx.count("st.global.u32"))
""")
    # Four int32 items per thread, loaded and stored directly.
    assert _last_line(result) == "True 4 4", result.stderr[-4000:]


def test_register_after_a_compile_that_failed_for_lack_of_it():
    result = _python(PRELUDE + """
from numba_cuda_mlir import cuda
from cuda import coop
from cuda.coop import _registration
""" + COOP_KERNEL + """
kernel = cuda.jit(copy)
signature = [nc.ARRAY, nc.ARRAY, literal(4)]
print(sorted(_registration.registered()))
try:
    nc.compile_for_launch(kernel, signature, (128,))
    print("compiled without registration")
except Exception as error:
    print("Unknown attribute 'this_block'" in str(error))
coop.register("numba-cuda-mlir")
cres = nc.compile_for_launch(kernel, signature, (128,))
print(sorted(_registration.registered()), ".entry" in cres.metadata["ptx"])
""", CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION="1")
    assert result.stdout.split("\n")[:3] == [
        "[]", "True", "['numba-cuda-mlir'] True"], result.stdout + result.stderr[-4000:]


def test_importing_the_backend_without_its_compiler_names_both_extras():
    result = _python(HIDE_COMPILER + """
try:
    import cuda.coop.numba_mlir
except ImportError as error:
    print(type(error).__name__, "|", error)
""")
    kind, message = _last_line(result).split(" | ")
    assert kind == "ImportError"
    assert "needs the numba_cuda_mlir package" in message
    assert all(extra in message for extra in EXTRAS), message


def test_register_without_its_compiler_names_both_extras():
    result = _python(HIDE_COMPILER + """
from cuda import coop
try:
    coop.register("numba-cuda-mlir")
except ImportError as error:
    print(type(error).__name__, "|", error)
""")
    kind, message = _last_line(result).split(" | ")
    assert kind == "ImportError"
    assert all(extra in message for extra in EXTRAS), message
