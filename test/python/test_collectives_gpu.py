"""exchange and shuffle on the GPU: every block and warp mode, time slicing,
logical warps of 1..32 lanes, 1-D and 2-D blocks, items per thread 1..8 and
integer and floating dtypes, each register checked against a NumPy model."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
# (dtype, block, ipt): every dtype, block shape and ipt appears for every mode.
BLOCK_CONFIGS = (("int8", (32, 1, 1), 3), ("int16", (96, 1, 1), 4), ("int32", (128, 1, 1), 8),
                 ("uint64", (256, 1, 1), 1), ("float32", (8, 16, 1), 4),
                 ("float64", (1024, 1, 1), 2), ("int32", (64, 2, 2), 3),
                 ("uint32", (128, 1, 1), 4))
WARP_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (64, 1, 1), 3), ("int8", (96, 1, 1), 8),
                ("int32", (64, 1, 1), 8))


def _block_cases():
    for mode in cm.BLOCK_EXCHANGE_MODES:
        for config in BLOCK_CONFIGS:
            yield (mode, False, *config)
    for mode in cm.TIME_SLICED_MODES:
        for config in BLOCK_CONFIGS:
            yield (mode, True, *config)


def _random(rng, dtype, shape):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def _run_exchange(mode, sliced, dtype, block, ipt, width):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    size = width or threads
    groups = GRID * threads // size
    rng = np.random.default_rng(hash((mode, sliced, dtype, block, ipt, width)) % 2**32)
    values = _random(rng, dtype, (groups, size, ipt))
    ranks = np.stack([rng.permutation(size * ipt).reshape(size, ipt) for _ in range(groups)])
    if mode.endswith("guarded"):
        ranks = np.where(rng.random(ranks.shape) < 0.3, -1, ranks)
    flags = (rng.random(ranks.shape) < 0.7).astype(np.int32)
    dst = cuda.device_array(values.size, values.dtype)
    kernel = cm.exchange_kernel(mode, ipt, width, sliced)
    kernel[GRID, block](cuda.to_device(values.reshape(-1)),
                        cuda.to_device(ranks.astype(np.int32).reshape(-1)),
                        cuda.to_device(flags.reshape(-1)), dst)
    got = dst.copy_to_host().reshape(values.shape)
    for g in range(groups):
        expected, defined = cm.exchange_model(mode, values[g], ranks[g], flags[g])
        np.testing.assert_array_equal(got[g][defined], expected[defined],
                                      err_msg=f"group {g}")


@pytest.mark.parametrize("mode,sliced,dtype,block,ipt", list(_block_cases()),
                         ids=lambda v: str(v))
def test_block_exchange(mode, sliced, dtype, block, ipt):
    _run_exchange(mode, sliced, dtype, block, ipt, None)


@pytest.mark.parametrize("mode", cm.WARP_EXCHANGE_MODES)
@pytest.mark.parametrize("width", (1, 2, 4, 8, 16, 32))
@pytest.mark.parametrize("dtype,block,ipt", WARP_CONFIGS, ids=str)
def test_warp_exchange(mode, width, dtype, block, ipt):
    _run_exchange(mode, False, dtype, block, ipt, width)


SHUFFLE_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (96, 1, 1), 3),
                   ("int8", (8, 16, 1), 1), ("uint64", (1024, 1, 1), 2),
                   ("float32", (32, 1, 1), 8))


@pytest.mark.parametrize("mode", cm.SHUFFLE_MODES)
@pytest.mark.parametrize("dtype,block,ipt", SHUFFLE_CONFIGS, ids=str)
@pytest.mark.parametrize("with_fill", (False, True))
def test_shuffle(mode, dtype, block, ipt, with_fill):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    scalar = mode in ("offset", "rotate")
    per_thread = 1 if scalar else ipt
    rng = np.random.default_rng(7)
    values = _random(rng, dtype, (GRID, threads, per_thread))
    fill = np.dtype(dtype).type(5)
    for distance in ((1, -3, threads + 2, 0) if scalar else (1,)):
        if mode == "rotate" and with_fill:
            continue
        dst = cuda.device_array(values.size, values.dtype)
        kernel = cm.shuffle_kernel(mode, per_thread, with_fill)
        kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst, distance, fill)
        got = dst.copy_to_host().reshape(values.shape)
        for b in range(GRID):
            if scalar:
                expected = cm.shuffle_model(mode, values[b, :, 0], distance,
                                            fill if with_fill else None)
                np.testing.assert_array_equal(got[b, :, 0], expected)
                continue
            expected = cm.shuffle_model(mode, values[b], 1, fill)
            defined = cm.shuffle_specified(mode, values[b].shape, fill if with_fill else None)
            np.testing.assert_array_equal(got[b][defined], expected[defined])


@pytest.mark.parametrize("mode", ("offset", "rotate"))
@pytest.mark.parametrize("distance_type", ("int32", "int16", "uint32"))
def test_shuffle_takes_a_runtime_distance_of_any_integer_type(mode, distance_type):
    # Index operands are extended by their Numba type: a negative int32
    # distance passed at run time reaches lower ranks.
    from numba_cuda_mlir import cuda

    threads = 128
    values = np.arange(GRID * threads, dtype=np.int32).reshape(GRID, threads, 1)
    kernel = cm.shuffle_kernel(mode, 1, False)
    # rotate takes distances in [0, block size).
    unsigned = distance_type == "uint32" or mode == "rotate"
    distances = (1, 5, threads - 1) if unsigned else (-1, -4, 3)
    for distance in map(np.dtype(distance_type).type, distances):
        dst = cuda.device_array(values.size, values.dtype)
        kernel[GRID, threads](cuda.to_device(values.reshape(-1)), dst, distance, np.int32(0))
        got = dst.copy_to_host().reshape(values.shape)
        for b in range(GRID):
            np.testing.assert_array_equal(
                got[b, :, 0], cm.shuffle_model(mode, values[b, :, 0], int(distance), None))
