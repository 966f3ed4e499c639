"""run_length_decode on the GPU: blocks of 32..1024 threads (1-D and 3-D), 1..8
runs a thread, windows of 1..16 items a thread, run values of several dtypes,
lengths of several integer dtypes with zero-length runs anywhere (and blocks
without any, which step one comparison an item), window offsets inside and
past the stream, uint64 offsets, and the whole stream into
an array (also one too short for it); each window, total and array checked
against the NumPy model (np.repeat)."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
# (value dtype, length dtype, block, runs a thread, decoded items a thread, longest run)
CONFIGS = (("int32", "int32", (128, 1, 1), 2, 4, 6), ("float32", "uint8", (32, 1, 1), 8, 16, 4),
           ("int8", "int64", (256, 1, 1), 1, 1, 3), ("float64", "uint16", (1024, 1, 1), 3, 2, 2),
           ("uint16", "int32", (8, 4, 2), 4, 5, 9), ("int64", "uint32", (96, 1, 1), 5, 3, 1))


def _runs(rng, dtype, lengths_dtype, size, longest, shortest=0):
    values = rng.integers(-50, 50, size).astype(dtype) if np.dtype(dtype).kind in "if" \
        else rng.integers(0, 100, size).astype(dtype)
    lengths = rng.integers(shortest, longest + 1, size).astype(lengths_dtype)
    return values, lengths


def _window(dtype, lengths_dtype, block, runs, decoded, longest, offset=None,
            offset_dtype=None, shortest=0, empty_at=None):
    """`shortest`: the shortest run; `empty_at`: the one run of the middle block made empty."""
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    rng = np.random.default_rng(hash((dtype, lengths_dtype, block, runs, decoded, longest,
                                      offset, str(offset_dtype), shortest, empty_at)) % 2**32)
    values, lengths = _runs(rng, dtype, lengths_dtype, GRID * threads * runs, longest, shortest)
    if empty_at is not None:
        lengths[threads * runs + empty_at] = 0
    dst = cuda.device_array(GRID * threads * decoded, values.dtype)
    totals = cuda.device_array(GRID, np.dtype(offset_dtype or np.uint32))
    kernel = cm.run_length_decode_kernel(threads, runs, decoded, "window", offset_dtype,
                                         offset is not None)
    kernel[GRID, block](cuda.to_device(values), cuda.to_device(lengths), dst, totals,
                        offset or 0)
    got = dst.copy_to_host().reshape(GRID, threads, decoded)
    got_totals = totals.copy_to_host()
    for b in range(GRID):
        tile = slice(b * threads * runs, (b + 1) * threads * runs)
        window, total = cm.run_length_decode_model(values[tile], lengths[tile], threads,
                                                   decoded, offset or 0)
        assert got_totals[b] == total, f"block {b}: total {got_totals[b]}, not {total}"
        np.testing.assert_array_equal(got[b], window, err_msg=f"block {b}")


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_first_window(config):
    _window(*config)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_windows_at_offsets(config):
    dtype, lengths_dtype, block, runs, decoded, longest = config
    threads = int(np.prod(block))
    for offset in (1, threads * decoded, threads * runs * longest // 2,
                   threads * runs * longest + 5):
        _window(*config, offset=offset)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_windows_without_empty_runs(config):
    """No zero-length run in a block: each next item's run is this one or the next (one
    comparison, the sentinel offset stopping it at the last run); runs of one item step
    every item. The middle block of the last case has one empty run, where its walk goes."""
    dtype, lengths_dtype, block, runs, decoded, longest = config
    threads = int(np.prod(block))
    for shortest, top, offset, empty_at in ((1, longest, None, None), (1, 1, None, None),
                                            (1, longest, threads * decoded - 1, None),
                                            (1, longest, threads * runs * longest + 5, None),
                                            (1, 1, 3, threads * runs // 2)):
        _window(dtype, lengths_dtype, block, runs, decoded, top, offset=offset,
                shortest=shortest, empty_at=empty_at)


@pytest.mark.parametrize("config", CONFIGS[:3], ids=str)
def test_uint64_offsets(config):
    _window(*config, offset=3, offset_dtype=np.uint64)


def test_every_run_empty():
    _window("int32", "int32", (64, 1, 1), 2, 4, 0)


def _into(dtype, lengths_dtype, block, runs, decoded, longest, capacity, offset=0):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    rng = np.random.default_rng(hash((dtype, lengths_dtype, block, runs, decoded, longest,
                                      capacity, offset)) % 2**32)
    values, lengths = _runs(rng, dtype, lengths_dtype, GRID * threads * runs, longest)
    sentinel = np.full(GRID * capacity, 77, values.dtype)
    dst = cuda.to_device(sentinel)
    totals = cuda.device_array(GRID, np.uint32)
    kernel = cm.run_length_decode_kernel(threads, runs, decoded, "into")
    kernel[GRID, block](cuda.to_device(values), cuda.to_device(lengths), dst, totals, offset)
    got = dst.copy_to_host().reshape(GRID, capacity)
    got_totals = totals.copy_to_host()
    for b in range(GRID):
        tile = slice(b * threads * runs, (b + 1) * threads * runs)
        stream = np.repeat(values[tile], lengths[tile].astype(np.int64))
        assert got_totals[b] == stream.size
        expected = np.full(capacity, 77, values.dtype)
        room = max(capacity - offset, 0)
        written = stream[:room]
        expected[offset:offset + written.size] = written
        np.testing.assert_array_equal(got[b], expected, err_msg=f"block {b}")


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_whole_stream_into_an_array(config):
    dtype, lengths_dtype, block, runs, decoded, longest = config
    threads = int(np.prod(block))
    _into(*config, capacity=threads * runs * longest + 7)
    _into(*config, capacity=threads * runs * longest + 7, offset=5)


@pytest.mark.parametrize("config", CONFIGS[:3], ids=str)
def test_an_array_too_short_takes_what_fits(config):
    dtype, lengths_dtype, block, runs, decoded, longest = config
    threads = int(np.prod(block))
    _into(*config, capacity=threads * runs * longest // 3 + 1, offset=2)


def _scalar_runs(dtype, block, decoded, longest):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    rng = np.random.default_rng(hash((dtype, block, decoded, longest)) % 2**32)
    values, lengths = _runs(rng, dtype, "int32", GRID * threads, longest)
    dst = cuda.device_array(GRID * threads * decoded, values.dtype)
    totals = cuda.device_array(GRID, np.uint32)
    kernel = cm.run_length_decode_kernel(threads, 1, decoded, "scalar")
    kernel[GRID, block](cuda.to_device(values), cuda.to_device(lengths), dst, totals, 0)
    got = dst.copy_to_host().reshape(GRID, threads, decoded)
    for b in range(GRID):
        tile = slice(b * threads, (b + 1) * threads)
        window, total = cm.run_length_decode_model(values[tile], lengths[tile], threads, decoded)
        assert totals.copy_to_host()[b] == total
        np.testing.assert_array_equal(got[b], window, err_msg=f"block {b}")


@pytest.mark.parametrize("dtype,block,decoded,longest",
                         (("float32", (128, 1, 1), 3, 5), ("int16", (64, 2, 1), 1, 2)), ids=str)
def test_one_run_a_thread_as_scalars(dtype, block, decoded, longest):
    _scalar_runs(dtype, block, decoded, longest)
