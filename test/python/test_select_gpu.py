"""select on the GPU: blocks of 32..1024 threads (1-D and 3-D), warps and
logical warps of 1..32 lanes, items per thread 1..16, integer and floating
items, flags and a predicate, partial tiles, and flags that keep nothing,
some or everything; each thread's items and count checked against the NumPy
model (np.flatnonzero of the mask)."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
BLOCK_CONFIGS = (("int32", (128, 1, 1), 4), ("float32", (32, 1, 1), 16), ("int8", (96, 1, 1), 3),
                 ("float64", (1024, 1, 1), 2), ("uint16", (256, 1, 1), 8),
                 ("int64", (8, 4, 2), 1), ("uint32", (512, 1, 1), 5),
                 ("float16", (64, 1, 1), 4))
WARP_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (64, 1, 1), 3), ("int8", (96, 1, 1), 8),
                ("float32", (32, 1, 1), 1))
DENSITIES = (0.0, 0.3, 1.0)


def _values(rng, dtype, shape):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), shape, dtype=dtype,
                        endpoint=True)


def _run(dtype, block, ipt, width, by_predicate, scalar, density, valid):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    n = 1 if scalar else ipt
    size = width or threads
    groups = GRID * threads // size
    rng = np.random.default_rng(hash((dtype, block, ipt, width, by_predicate, scalar, density,
                                      valid)) % 2**32)
    values = _values(rng, dtype, (groups, size, n))
    keep = (rng.random(values.shape) < density).astype(np.int8)
    dst = cuda.device_array(values.size, values.dtype)
    counts = cuda.device_array(GRID * threads, np.int32)
    kernel = cm.select_kernel(n, width, by_predicate, scalar, valid is not None)
    kernel[GRID, block](cuda.to_device(values.reshape(-1)), cuda.to_device(keep.reshape(-1)),
                        dst, counts, valid if valid is not None else size * n)
    got = dst.copy_to_host().reshape(values.shape)
    got_counts = counts.copy_to_host().reshape(groups, size)
    for g in range(groups):
        mask = values[g] > 0 if by_predicate else keep[g]
        expected, count = cm.select_model(values[g], mask, valid)
        assert (got_counts[g] == count).all(), f"group {g}: counts {got_counts[g]}, not {count}"
        defined = cm.select_specified(count, values[g].shape)
        np.testing.assert_array_equal(got[g][defined], expected[defined], err_msg=f"group {g}")


@pytest.mark.parametrize("dtype,block,ipt", BLOCK_CONFIGS, ids=str)
@pytest.mark.parametrize("density", DENSITIES)
def test_block_select_by_flags(dtype, block, ipt, density):
    _run(dtype, block, ipt, None, False, False, density, None)


@pytest.mark.parametrize("dtype,block,ipt", BLOCK_CONFIGS, ids=str)
@pytest.mark.parametrize("scalar", (False, True))
def test_block_select_by_predicate(dtype, block, ipt, scalar):
    _run(dtype, block, ipt, None, True, scalar, 0.5, None)


@pytest.mark.parametrize("dtype,block,ipt", BLOCK_CONFIGS, ids=str)
@pytest.mark.parametrize("by_predicate", (False, True))
def test_block_select_of_a_partial_tile(dtype, block, ipt, by_predicate):
    threads = int(np.prod(block))
    for valid in (1, threads * ipt // 3 + 1, threads * ipt - 1):
        _run(dtype, block, ipt, None, by_predicate, False, 0.6, valid)


@pytest.mark.parametrize("width", (1, 2, 4, 8, 16, 32))
@pytest.mark.parametrize("dtype,block,ipt", WARP_CONFIGS, ids=str)
@pytest.mark.parametrize("scalar", (False, True))
def test_warp_select(width, dtype, block, ipt, scalar):
    _run(dtype, block, ipt, width, False, scalar, 0.5, None)
    _run(dtype, block, ipt, width, True, scalar, 0.5, None)
    n = 1 if scalar else ipt
    _run(dtype, block, ipt, width, False, scalar, 0.5, max(1, width * n // 2))
