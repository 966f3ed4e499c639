"""merge sort on the GPU against NumPy's stable sort: blocks of 1..1024 threads,
warps and logical warps, 1..9 keys a thread and scalars, the default order and
a Python compare_op, descending, values moved with their keys, and partial
tiles padded with oob_default."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
# (group width: None for the block, block threads, keys a thread)
CONFIGS = ((None, 128, 4), (None, 1024, 2), (None, 32, 9), (None, 1, 3), (None, 256, 1),
           (32, 128, 4), (16, 64, 3), (4, 32, 5), (1, 32, 2))


def _run(width, threads, ipt, pairs, descending=False, compare=False, valid=None,
         scalar=False):
    from numba_cuda_mlir import cuda

    n = 1 if scalar else ipt
    group = threads if width is None else width
    tile = group * n
    rng = np.random.default_rng(hash((width, threads, ipt, pairs, descending, compare, valid,
                                      scalar)) % 2**32)
    src = rng.integers(-30, 30, GRID * threads * n).astype(np.float32)  # many ties
    vals = np.arange(src.size, dtype=np.int32)
    dst = cuda.to_device(np.zeros_like(src))
    dst2 = cuda.to_device(np.zeros_like(vals))
    fill = np.float32(-1e30 if descending else 1e30)
    kernel = cm.merge_sort_kernel(width, ipt, pairs, descending, compare, valid is not None,
                                  scalar)
    kernel[GRID, threads](cuda.to_device(src), cuda.to_device(vals), dst, dst2,
                          tile if valid is None else valid, fill)
    got, got2 = dst.copy_to_host(), dst2.copy_to_host()
    for start in range(0, src.size, tile):
        keys = src[start:start + tile].copy()
        values = vals[start:start + tile]
        if valid is not None:
            keys[valid:] = fill
        rank = np.abs(keys) if compare else keys
        order = np.argsort(-rank if descending else rank, kind="stable")
        np.testing.assert_array_equal(got[start:start + tile], keys[order])
        if pairs:
            count = tile if valid is None else valid
            np.testing.assert_array_equal(got2[start:start + count], values[order][:count])


@pytest.mark.parametrize("width,threads,ipt", CONFIGS, ids=str)
@pytest.mark.parametrize("pairs", (False, True))
def test_sort(width, threads, ipt, pairs):
    _run(width, threads, ipt, pairs)


@pytest.mark.parametrize("width,threads,ipt", CONFIGS[::2], ids=str)
@pytest.mark.parametrize("descending", (False, True))
def test_compare_op_and_descending(width, threads, ipt, descending):
    _run(width, threads, ipt, True, descending=descending, compare=True)
    _run(width, threads, ipt, False, descending=descending)


@pytest.mark.parametrize("width,threads,ipt", CONFIGS[:6], ids=str)
def test_partial_tiles(width, threads, ipt):
    group = threads if width is None else width
    for valid in (0, 1, group * ipt // 3 + 1, group * ipt - 1):
        _run(width, threads, ipt, True, valid=valid)


@pytest.mark.parametrize("width,threads", ((None, 256), (32, 64), (8, 32)))
def test_scalars(width, threads):
    _run(width, threads, 1, True, scalar=True)
