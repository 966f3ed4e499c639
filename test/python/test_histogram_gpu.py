"""histogram on the GPU: blocks of 32..1024 threads (1-D and 3-D), samples of
every integer width (signed ones with negatives, which are not counted), 1..16
samples a thread and scalars, bins 1..4096, each counter dtype, partial tiles,
accumulate, and the shared and global arrays of `out`; every counter checked
against the NumPy model (np.bincount)."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
# (sample dtype, block, samples a thread, bins)
CONFIGS = (("uint8", (128, 1, 1), 4, 256), ("int32", (256, 1, 1), 8, 1000),
           ("int8", (32, 1, 1), 16, 100), ("uint16", (1024, 1, 1), 2, 4096),
           ("int64", (8, 4, 2), 3, 64), ("uint32", (96, 1, 1), 1, 1),
           ("int16", (512, 1, 1), 5, 777))
COUNTERS = (np.int32, np.uint32, np.int64, np.uint64)


def _samples(rng, dtype, size, bins):
    """Samples over the bins and a little past them (and below 0 where signed)."""
    info = np.iinfo(dtype)
    low = max(info.min, -bins // 4 - 1)
    high = min(info.max, bins + bins // 4 + 1)
    return rng.integers(low, high, size, dtype=dtype, endpoint=True)


def _run(dtype, block, ipt, bins, mode, slots=None, counter=None, scalar=False, valid=None,
         algorithm="atomic"):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    n = 1 if scalar else ipt
    rng = np.random.default_rng(hash((dtype, block, ipt, bins, mode, slots, str(counter),
                                      scalar, valid, algorithm)) % 2**32)
    src = _samples(rng, dtype, GRID * threads * n, bins)
    src2 = _samples(rng, dtype, GRID * threads * n, bins)
    stripes = slots or -(-bins // threads)
    counter_dtype = np.dtype(counter or np.int32)
    size = {"fresh": GRID * threads * stripes, "accumulate": GRID * threads * stripes,
            "shared": GRID * bins, "global": bins}[mode]
    dst = cuda.to_device(np.zeros(size, counter_dtype))
    kernel = cm.histogram_kernel(threads, ipt, bins, mode, slots, counter, scalar,
                                 valid is not None, algorithm)
    kernel[GRID, block](cuda.to_device(src), cuda.to_device(src2), dst,
                        valid if valid is not None else threads * n)
    got = dst.copy_to_host()
    tiles = src.reshape(GRID, threads * n)
    tiles2 = src2.reshape(GRID, threads * n)
    if mode == "global":
        expected = sum(cm.histogram_model(tile, bins, threads, valid=valid).T.reshape(-1)[:bins]
                       for tile in tiles)
        np.testing.assert_array_equal(got, expected)
        return
    for b in range(GRID):
        model = cm.histogram_model(tiles[b], bins, threads, stripes, valid, dtype=counter_dtype)
        if mode == "accumulate":
            model = cm.histogram_model(tiles2[b], bins, threads, stripes, valid, model,
                                       counter_dtype)
        if mode == "shared":
            np.testing.assert_array_equal(got.reshape(GRID, bins)[b],
                                          model.T.reshape(-1)[:bins], err_msg=f"block {b}")
        else:
            np.testing.assert_array_equal(got.reshape(GRID, threads, stripes)[b], model,
                                          err_msg=f"block {b}")


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
@pytest.mark.parametrize("scalar", (False, True))
def test_fresh_counters(dtype, block, ipt, bins, scalar):
    _run(dtype, block, ipt, bins, "fresh", scalar=scalar)


@pytest.mark.parametrize("counter", COUNTERS, ids=lambda c: np.dtype(c).name)
@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS[:4], ids=str)
def test_counter_dtypes(dtype, block, ipt, bins, counter):
    _run(dtype, block, ipt, bins, "fresh", counter=counter)


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
def test_more_counters_than_bins_are_zero(dtype, block, ipt, bins):
    threads = int(np.prod(block))
    _run(dtype, block, ipt, bins, "fresh", slots=-(-bins // threads) + 2)


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
def test_partial_tiles(dtype, block, ipt, bins):
    threads = int(np.prod(block))
    for valid in (0, 1, threads * ipt // 3 + 1, threads * ipt - 1):
        _run(dtype, block, ipt, bins, "fresh", valid=valid)


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
@pytest.mark.parametrize("counter", (np.int32, np.uint64), ids=lambda c: np.dtype(c).name)
def test_accumulate(dtype, block, ipt, bins, counter):
    _run(dtype, block, ipt, bins, "accumulate", counter=counter)


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
@pytest.mark.parametrize("counter", (np.int32, np.int64), ids=lambda c: np.dtype(c).name)
def test_shared_out(dtype, block, ipt, bins, counter):
    _run(dtype, block, ipt, bins, "shared", counter=counter)
    _run(dtype, block, ipt, bins, "shared", counter=counter, valid=int(np.prod(block)))


@pytest.mark.parametrize("dtype,block,ipt,bins", CONFIGS, ids=str)
@pytest.mark.parametrize("counter", (np.uint32, np.uint64), ids=lambda c: np.dtype(c).name)
def test_global_out_is_a_whole_array_histogram(dtype, block, ipt, bins, counter):
    _run(dtype, block, ipt, bins, "global", counter=counter)


# The sort algorithm of 1024 threads x 2 uint16 samples takes 37 KiB of scratch (CUB's
# BlockRadixSort for 12-bit keys takes as much): beside a shared array of 4096 counters
# that is past 48 KiB of static shared memory, a compile error (ptxas refuses CUB's).
SORT_CASES = [(*config, mode) for config in CONFIGS
              for mode in ("fresh", "accumulate", "shared", "global")
              if not (mode == "shared" and config == ("uint16", (1024, 1, 1), 2, 4096))]


@pytest.mark.parametrize("dtype,block,ipt,bins,mode", SORT_CASES, ids=str)
def test_sort_algorithm(dtype, block, ipt, bins, mode):
    """CUB's sort algorithm: the same counts as the atomic one in every destination, with
    samples outside the bins, partial tiles and scalars."""
    _run(dtype, block, ipt, bins, mode, counter=np.uint64 if mode == "global" else None,
         algorithm="sort")
    threads = int(np.prod(block))
    _run(dtype, block, ipt, bins, mode, valid=threads * ipt // 3 + 1, algorithm="sort")
    if mode == "fresh":
        _run(dtype, block, ipt, bins, mode, scalar=True, algorithm="sort")
