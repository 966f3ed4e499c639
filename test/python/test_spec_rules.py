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


PLAIN_CACHED_KERNEL = """
import os
import numba_cuda_mlir.tools
numba_cuda_mlir.tools._cached_cc = (9, 0)
from numba_cuda_mlir import cuda, types
if os.environ.get("WITH_COOP") == "1":
    import cuda.coop.numba_mlir as coop  # noqa: F401

@cuda.jit(cache=True)
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]

axpy.compile((types.float32, types.float32[::1], types.float32[::1]))
print(sum(axpy._cache_hits.values()), sum(axpy._cache_misses.values()))
"""


def test_disk_cache_serves_plain_kernels_while_the_backend_is_registered(tmp_path):
    # What docs/configuration.md says: while the backend is registered, its
    # disk cache saves and loads plain kernels too (Numba-CUDA-MLIR's own stops
    # once a planner is registered); the two caches keep separate files.
    script = tmp_path / "plain_kernel.py"
    script.write_text(PLAIN_CACHED_KERNEL)

    def run(with_coop):
        result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                                timeout=600, env={**os.environ, "NUMBA_CACHE_DIR": str(
                                    tmp_path / "cache"), "WITH_COOP": with_coop})
        return _last_line(result)

    assert run("1") == "0 1"  # looked up, compiled, saved
    assert run("1") == "1 0"  # loaded
    assert run("0") == "0 1"  # Numba-CUDA-MLIR's own cache: compiled, saved
    assert run("0") == "1 0"  # loaded
    assert run("1") == "1 0"  # still loaded from the backend's file


# ---------------------------------------------------------------------------
# ThreadData: items_per_thread and the element type
# (compiled in this process; importing the backend registers it)

import numpy as np  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

import cuda.coop.numba_mlir as numba_coop  # noqa: E402,F401 -- activate the backend
from cuda import coop  # noqa: E402

I32 = types.int32[::1]
F32 = types.float32[::1]


def _compile(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(cuda.jit(kernel), argtypes, block)


def _error(kernel, argtypes, block=(128,)):
    with pytest.raises(Exception) as info:
        _compile(kernel, argtypes, block)
    return str(info.value)


def _stores(ptx: str) -> list[str]:
    import re

    return sorted(set(re.findall(r"st\.global\.\w+", ptx)))


def test_items_per_thread_through_an_alias():
    def kernel(dst, items_per_thread):
        block = coop.this_block()
        items = coop.ThreadData(items_per_thread)
        x = items
        for i in range(x.items_per_thread):
            x[i] = np.int32(i)
        coop.store(block, dst, items)

    ptx = _compile(kernel, [I32, literal(3)]).metadata["ptx"]
    # Three items per thread, each stored: the loop ran over the constant count.
    assert ptx.count("st.global.u32") == 3, ptx
    assert ".local" not in ptx


@pytest.mark.parametrize("options", [{}, {"inline": "always"}])
def test_items_per_thread_inside_an_inlined_device_helper(options):
    @cuda.jit(device=True, **options)
    def fill(items, value):
        for i in range(items.items_per_thread):
            items[i] = value + i

    def kernel(dst, items_per_thread):
        block = coop.this_block()
        items = coop.ThreadData(items_per_thread)
        fill(items, np.int32(7))
        coop.store(block, dst, items)

    ptx = _compile(kernel, [I32, literal(4)]).metadata["ptx"]
    assert ptx.count("st.global.u32") == 4, ptx
    assert ".local" not in ptx


def test_typed_assignments_in_an_inlined_helper_type_the_payload():
    @cuda.jit(device=True)
    def fill(items):
        for i in range(items.items_per_thread):
            items[i] = np.float32(cuda.threadIdx.x + i)

    def typed_by_helper(dst, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        fill(items)
        for i in range(items_per_thread):
            dst[cuda.threadIdx.x * items_per_thread + i] = items[i]

    ptx = _compile(typed_by_helper, [types.float64[::1], literal(2)]).metadata["ptx"]
    # float32 items, widened when written into the float64 array.
    assert _stores(ptx) == ["st.global.f64"] and "cvt.f64.f32" in ptx

    def conflicting(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items)
        fill(items)

    message = _error(conflicting, [I32, literal(2)])
    assert "a value of type float32 is assigned to a ThreadData of element type int32" in message


@pytest.mark.parametrize("declared", ["load", "explicit"])
def test_error_typed_value_conflicting_with_the_payload_type(declared):
    def from_load(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items)
        items[0] = np.float32(1.5)

    def explicit(items_per_thread):
        items = coop.ThreadData(items_per_thread, dtype=np.int32)
        items[0] = np.float32(1.5)

    if declared == "load":
        message = _error(from_load, [I32, literal(2)])
        assert "coop.load's array" in message
    else:
        message = _error(explicit, [literal(2)])
        assert "dtype=" in message
    assert "a value of type float32 is assigned to a ThreadData of element type int32" in message


def test_error_typed_kernel_scalar_conflicting_with_a_store():
    def kernel(dst, value, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        for i in range(items_per_thread):
            items[i] = value
        coop.store(coop.this_block(), dst, items)

    message = _error(kernel, [I32, types.float64, literal(2)])
    assert "a value of type float64 is assigned to a ThreadData of element type int32" in message
    assert "coop.store's array" in message


def test_error_conflicting_typed_assignments_name_both_types():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        items[0] = np.float32(1)
        items[1] = src[0]

    message = _error(kernel, [types.int64[::1], literal(2)])
    assert "have different types (float32, int64)" in message


def test_typed_kernel_scalar_establishes_the_type():
    def kernel(dst, value, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        for i in range(items_per_thread):
            items[i] = value
        for i in range(items_per_thread):
            dst[cuda.threadIdx.x * items_per_thread + i] = items[i]

    # A float32 payload, stored into a float64 array: converted on the way out.
    ptx = _compile(kernel, [types.float64[::1], types.float32, literal(2)]).metadata["ptx"]
    assert "cvt.f64.f32" in ptx
    assert _stores(ptx) == ["st.global.f64"]
    # A float64 payload needs no conversion.
    ptx = _compile(kernel, [types.float64[::1], types.float64, literal(2)]).metadata["ptx"]
    assert "cvt.f64.f32" not in ptx


def test_array_element_establishes_the_type():
    def kernel(src, dst, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        base = cuda.threadIdx.x * items_per_thread
        for i in range(items_per_thread):
            items[i] = src[base + i]
        for i in range(items_per_thread):
            dst[base + i] = items[i]

    # The payload is float32 (from src's elements): widened to float64 when
    # written into dst.
    ptx = _compile(kernel, [F32, types.float64[::1], literal(2)]).metadata["ptx"]
    assert "ld.global.f32" in ptx and "cvt.f64.f32" in ptx
    assert _stores(ptx) == ["st.global.f64"]


def test_error_array_element_conflicting_with_a_store():
    def kernel(src, dst, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        for i in range(items_per_thread):
            items[i] = src[i]
        coop.store(coop.this_block(), dst, items)

    message = _error(kernel, [types.int64[::1], F32, literal(2)])
    assert "a value of type int64 is assigned to a ThreadData of element type float32" in message


# ---------------------------------------------------------------------------
# Operand checks of load and store (each names the operand and the fix)


def test_error_runtime_oob_default_of_another_dtype():
    def kernel(src, dst, fill):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, valid_items=100, oob_default=fill)
        coop.store(block, dst, items)

    message = _error(kernel, [I32, I32, types.float32])
    assert "oob_default has type float32 but the payload's items are int32" in message


def test_literal_oob_default_takes_the_payload_dtype_when_exact():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, valid_items=100, oob_default=-1)
        coop.store(block, dst, items)

    _compile(kernel, [I32, I32])


def test_error_literal_oob_default_not_representable():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, valid_items=100, oob_default=1.5)
        coop.store(block, dst, items)

    assert "oob_default = 1.5 is not exactly representable in the payload's item type int32" \
        in _error(kernel, [I32, I32])


def test_error_float_offset_and_valid_items():
    def kernel(src, dst, x):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, offset=x)
        coop.store(block, dst, items, valid_items=x)

    assert "offset must be an integer; got float64" in _error(kernel, [I32, I32, types.float64])


def test_error_negative_literal_offset():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, offset=-4)
        coop.store(block, dst, items)

    assert "offset must not be negative; got -4" in _error(kernel, [I32, I32])


def test_literal_store_scalar_takes_the_destination_dtype():
    def kernel(dst):
        coop.store(coop.this_block(), dst, 5)

    _compile(kernel, [I32])


def test_error_store_into_a_read_only_array():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, src, items)

    readonly = types.Array(types.int32, 1, "C", readonly=True)
    assert "coop.store's destination is a read-only array" in _error(kernel, [readonly, I32])


def test_error_shared_array_as_a_payload():
    def kernel(src, dst):
        block = coop.this_block()
        items = cuda.shared.array(4, np.int32)
        coop.load(block, src, items)
        coop.store(block, dst, items)

    assert "is a shared array, which the whole block shares; payloads are per thread" in \
        _error(kernel, [I32, I32])


def test_float_constant_oob_default_takes_a_float32_payload_dtype():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, valid_items=100, oob_default=0.5)
        coop.store(block, dst, items)

    _compile(kernel, [F32, F32])
