"""The Numba-CUDA-MLIR backend on the GPU: the spec's executable examples run
unmodified, and a parametrized suite checks every element of load -> store
tile copies for every algorithm, group, dtype, block and items_per_thread,
with full and ragged tiles, offsets and oob_default."""

import functools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import coop_kernels as ck  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
# A read-only device array (not a read-only host array: numba-cuda-mlir 0.6.0 copies every
# host argument back after the launch and fails on a read-only one).
from gpu_timing import ReadOnly, kernel_ptx  # noqa: E402

EXAMPLES = sorted((Path(__file__).parent / "spec_examples").glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_spec_example_runs_unmodified(example):
    result = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                            timeout=600, env=os.environ)
    assert result.returncode == 0, result.stderr[-4000:]


def test_readme_example_prints_what_the_readme_says():
    example = Path(__file__).parents[2] / "docs" / "examples" / "first_kernel.py"
    result = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                            timeout=600, env=os.environ)
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.splitlines()[-2:] == ["[ 0  2  4  6  8 10 12 14] ... [1994 1996 1998]",
                                               "correct: True"]


DTYPES = ("int8", "int16", "int32", "uint64", "float32", "float64")
BLOCKS = ((32, 1, 1), (128, 1, 1), (256, 1, 1), (8, 16, 1))
IPT = (1, 3, 4)
GRID = 3


def _cases():
    for dtype in DTYPES:
        for block in BLOCKS:
            for ipt in IPT:
                for algorithm in ck.BLOCK_ALGORITHMS:
                    yield ck.Case("load", algorithm, dtype, ipt, block, None, True, True)
    for dtype in DTYPES:
        for block in BLOCKS:
            for ipt in IPT:
                for algorithm in ck.WARP_ALGORITHMS:
                    for width in ck.LOGICAL_WIDTHS:
                        yield ck.Case("load", algorithm, dtype, ipt, block, width, True, True)


@functools.cache
def _kernel(algorithm, width, read_only=False, guarded=True):
    """The copy kernel, guarded by valid_items (oob_default fills the rest) or of full tiles
    (where `direct` and `vectorize` use vectors and, from 32 bytes a thread, the register
    transpose).
    Read-only sources get their own dispatcher, since numba-cuda-mlir 0.6.0 launches a
    read-only array through an existing writable overload of the same dispatcher (correct,
    without ld.global.nc)."""
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    group = ("coop.this_block()" if width is None else "coop.this_warp()" if width == 32
             else f"coop.this_warp().group_by({width})")
    parameters, load_guard, store_guard = (
        ("valid, offset, oob", ", valid_items=valid, oob_default=oob", ", valid_items=valid")
        if guarded else ("offset", "", ""))
    source = f"""
def copy(src, dst, seen, {parameters}, items_per_thread):
    group = {group}
    items = coop.ThreadData(items_per_thread)
    threads = cuda.blockDim.x * cuda.blockDim.y
    start = offset + cuda.blockIdx.x * threads * items_per_thread
    coop.load(group, src, items, algorithm="{algorithm}"{load_guard}, offset=start)
    rank = cuda.threadIdx.x + cuda.threadIdx.y * cuda.blockDim.x
    slot = (cuda.blockIdx.x * threads + rank) * items_per_thread
    for i in range(items_per_thread):
        seen[slot + i] = items[i]
    coop.store(group, dst, items, algorithm="{algorithm}"{store_guard}, offset=start)
"""
    namespace = {"coop": coop, "cuda": cuda}
    exec(compile(source, f"<copy {algorithm} {width}>", "exec"), namespace)
    return cuda.jit(namespace["copy"])


def _values(dtype, count):
    rng = np.random.default_rng(7)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(count).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)


def _copy_failures(case, valids, read_only=False):
    """Runs the copy kernel of `case` for offsets 0 and 5 and each of `valids`, and lists the
    loads and stores that differ from the model. `read_only` passes the source as a
    read-only device array, which Numba types `readonly array`."""
    from numba_cuda_mlir import cuda

    kernel = _kernel(case.algorithm, case.width, read_only)
    dtype = case.numpy_dtype
    failures = []
    for offset in (0, 5):
        for valid in valids:
            length = offset + GRID * case.block_items + 3
            src = _values(dtype, length)
            sentinel = np.full(length, 3, dtype=dtype)
            source = cuda.to_device(src)
            if read_only:
                source = ReadOnly(source)
            d_dst = cuda.to_device(sentinel)
            d_seen = cuda.device_array(GRID * case.block_items, dtype=dtype)
            oob = dtype(9)
            kernel[GRID, case.block[:2]](source, d_dst, d_seen, valid, offset, oob, case.ipt)
            seen, dst = d_seen.copy_to_host(), d_dst.copy_to_host()
            want, checked = ck.expected_load(case, src, GRID, offset, valid, oob)
            if not np.array_equal(seen[checked], want[checked]):
                failures.append(f"load offset={offset} valid={valid}")
            expected = ck.expected_load_store(case, src, sentinel, GRID, offset, valid)
            if not np.array_equal(dst, expected):
                failures.append(f"store offset={offset} valid={valid}")
    return failures


@pytest.mark.parametrize("case", list(_cases()), ids=lambda c: c.name)
def test_tile_copy_every_element(case):
    failures = _copy_failures(case, (case.tile, case.tile // 2 + 1, 0))
    assert not failures, failures


def _read_only_cases():
    for dtype in ("int8", "int32", "float32", "uint64", "float64"):
        for ipt in (1, 4):
            for algorithm in ck.BLOCK_ALGORITHMS:
                yield ck.Case("load", algorithm, dtype, ipt, (128, 1, 1), None, True, True)
            for algorithm in ck.WARP_ALGORITHMS:
                for width in (8, 32):
                    yield ck.Case("load", algorithm, dtype, ipt, (128, 1, 1), width, True, True)


@pytest.mark.parametrize("case", list(_read_only_cases()), ids=lambda c: c.name)
def test_tile_copy_from_a_read_only_source(case):
    """A read-only source is read through ld.global.nc (32- and 64-bit items): every
    element, for full tiles, a partial one and an offset."""
    failures = _copy_failures(case, (case.tile, case.tile // 2 + 1), read_only=True)
    dtype = np.dtype(case.numpy_dtype)
    kernel = _kernel(case.algorithm, case.width, True)
    read_only = [kernel_ptx(overload) for (argtypes, _), overload in
                 kernel._launch_config_overloads.items()
                 if not argtypes[0].mutable and argtypes[0].dtype.name == dtype.name]
    assert read_only and all((".nc." in ptx) == (dtype.itemsize >= 4) for ptx in read_only), \
        "ld.global.nc for 32- and 64-bit items only"
    assert not failures, failures


def _unguarded_cases():
    """Blocked full tiles of 4 to 256 bytes a thread: vectors (from 8 bytes for
    `vectorize`, 32 for `direct`), the register transpose from 32 (16-byte vectors, a power
    of two of them, at most one a lane of the segment, whole warps); 48-thread blocks,
    3 vectors a thread and 4-lane warps with 8 vectors a thread keep plain vectors."""
    shapes = (("int8", 16), ("int32", 1), ("int32", 4), ("int32", 8), ("int32", 16),
              ("float32", 32), ("int32", 12), ("float64", 4), ("float64", 8),
              ("uint64", 16), ("float64", 32))
    for algorithm in ("direct", "vectorize"):
        for dtype, ipt in shapes:
            for block in ((32, 1, 1), (48, 1, 1), (128, 1, 1), (32, 3, 1)):
                yield ck.Case("copy", algorithm, dtype, ipt, block)
            for width in (32, 16, 8, 4):
                yield ck.Case("copy", algorithm, dtype, ipt, (64, 2, 1), width)


@pytest.mark.parametrize("read_only", (False, True), ids=("writable", "read_only"))
@pytest.mark.parametrize("case", list(_unguarded_cases()), ids=lambda c: c.name)
def test_full_tile_copy_every_element(case, read_only):
    """Every element of a full-tile copy lands in blocked order, for an aligned tile
    (vector accesses) and a misaligned one (item by item)."""
    from numba_cuda_mlir import cuda

    kernel = _kernel(case.algorithm, case.width, read_only, guarded=False)
    dtype = case.numpy_dtype
    items = GRID * case.block_size * case.ipt
    for offset in (0, 1):
        src = _values(dtype, offset + items + 3)
        sentinel = np.full(src.size, 3, dtype=dtype)
        source = cuda.to_device(src)
        if read_only:
            source = ReadOnly(source)
        d_dst = cuda.to_device(sentinel)
        d_seen = cuda.device_array(items, dtype=dtype)
        kernel[GRID, case.block[:2]](source, d_dst, d_seen, offset, case.ipt)
        want = src[offset:offset + items]
        np.testing.assert_array_equal(d_seen.copy_to_host(), want, f"load, offset {offset}")
        expected = sentinel.copy()
        expected[offset:offset + items] = want
        np.testing.assert_array_equal(d_dst.copy_to_host(), expected, f"store, offset {offset}")
