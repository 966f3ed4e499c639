"""Kernels in the official cuda.coop's forms on the GPU, checked against
NumPy: operator spellings and functions, plain and `block_prefix_callback_op`
prefix functions, `load` returning its payload, groups made at module level,
per-thread shuffle distances and the items up/down shift out."""

import operator

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend
from numba_cuda_mlir import cuda  # noqa: E402

from cuda import coop  # noqa: E402

GRID = 3
BLOCK = coop.this_block()
WARP = coop.this_warp()
LANES_8 = coop.this_warp().group_by(8)


def _blocks(values, threads):
    return values.reshape(GRID, threads, -1)


@pytest.mark.parametrize("threads", (32, 96, 128, 1024))
@pytest.mark.parametrize("with_fill", (False, True))
def test_offset_with_a_distance_per_thread(threads, with_fill):
    @cuda.jit
    def kernel(src, dst, fill):
        t = cuda.threadIdx.x
        g = cuda.blockIdx.x * cuda.blockDim.x + t
        distance = t % 7 - 3 if t % 2 else t % 5
        if with_fill:
            dst[g] = coop.shuffle(BLOCK, src[g], mode="offset", distance=distance, fill=fill)
        else:
            dst[g] = coop.shuffle(BLOCK, src[g], mode="offset", distance=distance)

    values = np.random.default_rng(threads).integers(-99, 99, GRID * threads).astype(np.int32)
    dst = cuda.device_array_like(values)
    kernel[GRID, threads](cuda.to_device(values), dst, np.int32(-7))
    ranks = np.arange(threads)
    distances = np.where(ranks % 2 == 1, ranks % 7 - 3, ranks % 5)
    got = dst.copy_to_host().reshape(GRID, threads)
    for b, block in enumerate(values.reshape(GRID, threads)):
        np.testing.assert_array_equal(
            got[b], cm.shuffle_model("offset", block, distances, -7 if with_fill else None))


@pytest.mark.parametrize("threads", (64, 96, 1024))
def test_rotate_with_a_distance_per_thread(threads):
    @cuda.jit
    def kernel(src, dst):
        t = cuda.threadIdx.x
        g = cuda.blockIdx.x * cuda.blockDim.x + t
        dst[g] = coop.shuffle(BLOCK, src[g], mode="rotate", distance=(t * 3) % cuda.blockDim.x)

    values = np.random.default_rng(1).standard_normal(GRID * threads).astype(np.float32)
    dst = cuda.device_array_like(values)
    kernel[GRID, threads](cuda.to_device(values), dst)
    distances = (np.arange(threads) * 3) % threads
    got = dst.copy_to_host().reshape(GRID, threads)
    for b, block in enumerate(values.reshape(GRID, threads)):
        np.testing.assert_array_equal(got[b], cm.shuffle_model("rotate", block, distances, None))


@pytest.mark.parametrize("mode", ("up", "down"))
@pytest.mark.parametrize("dtype,threads,ipt", (("int32", 32, 1), ("float64", 96, 3),
                                               ("int8", 1024, 2), ("uint64", 128, 4)))
def test_up_and_down_return_the_item_shifted_out(mode, dtype, threads, ipt):
    @cuda.jit
    def kernel(src, dst, edges):
        items = coop.ThreadData(ipt)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(BLOCK, src, items, offset=base)
        if mode == "up":
            out, edge = coop.shuffle(BLOCK, items, mode="up", block_suffix=True)
        else:
            out, edge = coop.shuffle(BLOCK, items, mode="down", block_prefix=True)
        coop.store(BLOCK, dst, out, offset=base)
        edges[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x] = edge

    rng = np.random.default_rng(5)
    values = rng.integers(0, 100, GRID * threads * ipt).astype(dtype)
    dst = cuda.device_array_like(values)
    edges = cuda.device_array(GRID * threads, values.dtype)
    kernel[GRID, threads](cuda.to_device(values), dst, edges)
    got = dst.copy_to_host().reshape(GRID, threads, ipt)
    got_edges = edges.copy_to_host().reshape(GRID, threads)
    for b, block in enumerate(values.reshape(GRID, threads, ipt)):
        defined = cm.shuffle_specified(mode, block.shape, None)
        np.testing.assert_array_equal(got[b][defined],
                                      cm.shuffle_model(mode, block, 1, None)[defined])
        shifted_out = block.reshape(-1)[-1 if mode == "up" else 0]
        np.testing.assert_array_equal(got_edges[b], np.full(threads, shifted_out))


_OPERATORS = ((operator.add, np.add), (np.add, np.add), (max, np.maximum),
              (np.maximum, np.maximum), (min, np.minimum), (np.minimum, np.minimum),
              (operator.xor, np.bitwise_xor), ("plus", np.add), ("*", np.multiply),
              ("Bitwise-Or", np.bitwise_or))


@pytest.mark.parametrize("group", ("block", "warp", "lanes_8"))
@pytest.mark.parametrize("function,ufunc", _OPERATORS,
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_official_operators_reduce_and_scan(group, function, ufunc):
    chosen = {"block": BLOCK, "warp": WARP, "lanes_8": LANES_8}[group]

    @cuda.jit
    def kernel(src, totals, scanned):
        items = coop.ThreadData(2)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        loaded = coop.load(BLOCK, src, items, offset=base)
        g = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        totals[g] = coop.reduce(chosen, loaded, function)
        coop.store(BLOCK, scanned, coop.inclusive_scan(chosen, loaded, function), offset=base)

    threads, ipt = 128, 2
    values = np.random.default_rng(3).integers(1, 3, GRID * threads * ipt).astype(np.int32)
    totals = cuda.device_array(GRID * threads, np.int32)
    scanned = cuda.device_array_like(values)
    kernel[GRID, threads](cuda.to_device(values), totals, scanned)
    size = {"block": threads, "warp": 32, "lanes_8": 8}[group]
    got_totals = totals.copy_to_host().reshape(-1, size)
    got_scanned = scanned.copy_to_host().reshape(-1, size * ipt)
    # In int32, as the kernel computes (products wrap the same way).
    for t, tile in enumerate(values.reshape(-1, size * ipt)):
        np.testing.assert_array_equal(got_totals[t],
                                      np.full(size, ufunc.reduce(tile, dtype=np.int32)))
        np.testing.assert_array_equal(got_scanned[t], ufunc.accumulate(tile, dtype=np.int32))


def _doubled(aggregate):
    return aggregate * 2


@pytest.mark.parametrize("algorithm", ("raking", "raking_memoize", "warp_scans"))
@pytest.mark.parametrize("mode", ("inclusive", "exclusive"))
@pytest.mark.parametrize("threads", (64, 256))
def test_a_plain_prefix_function_seeds_the_block_scan(algorithm, mode, threads):
    @cuda.jit
    def kernel(src, dst):
        items = coop.ThreadData(3)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(BLOCK, src, items, offset=base)
        out = coop.scan(BLOCK, items, mode=mode, scan_op="+", prefix_op=_doubled,
                        algorithm=algorithm)
        coop.store(BLOCK, dst, out, offset=base)

    values = np.random.default_rng(9).integers(-50, 50, GRID * threads * 3).astype(np.int64)
    dst = cuda.device_array_like(values)
    kernel[GRID, threads](cuda.to_device(values), dst)
    got = dst.copy_to_host().reshape(GRID, -1)
    for b, tile in enumerate(values.reshape(GRID, -1)):
        prefix = 2 * tile.sum()
        inclusive = np.cumsum(tile) + prefix
        expected = inclusive if mode == "inclusive" else inclusive - tile
        np.testing.assert_array_equal(got[b], expected)


def _running_total(state, aggregate):
    old = state[0]
    state[0] = old + aggregate
    return old


def test_block_prefix_callback_op_carries_a_total_across_tiles():
    threads, ipt, tiles = 128, 4, 5

    @cuda.jit
    def kernel(src, dst):
        state = cuda.local.array(1, np.int32)
        state[0] = 0
        for tile in range(tiles):
            items = coop.ThreadData(ipt)
            loaded = coop.load(BLOCK, src, items, offset=tile * threads * ipt)
            out = coop.exclusive_sum(
                BLOCK, loaded,
                block_prefix_callback_op=coop.StatefulFunction(_running_total, state))
            coop.store(BLOCK, dst, out, offset=tile * threads * ipt)

    values = np.random.default_rng(4).integers(0, 9, threads * ipt * tiles).astype(np.int32)
    dst = cuda.device_array_like(values)
    kernel[1, threads](cuda.to_device(values), dst)
    np.testing.assert_array_equal(dst.copy_to_host(), np.cumsum(values) - values)


@pytest.mark.parametrize("algorithm", ("direct", "striped", "transpose"))
def test_a_negative_valid_items_makes_no_item_valid(algorithm):
    # CUB's counts are signed ints: no item is below a negative count.
    @cuda.jit
    def kernel(src, dst, valid):
        items = coop.ThreadData(4)
        coop.load(BLOCK, src, items, algorithm=algorithm, valid_items=valid, oob_default=-1)
        coop.store(BLOCK, dst, items, algorithm=algorithm)
        coop.store(BLOCK, src, items, algorithm=algorithm, valid_items=valid)

    values = np.arange(128 * 4, dtype=np.int32)
    src = cuda.to_device(values)
    dst = cuda.device_array_like(values)
    kernel[1, 128](src, dst, np.int32(-3))
    np.testing.assert_array_equal(dst.copy_to_host(), np.full_like(values, -1))
    np.testing.assert_array_equal(src.copy_to_host(), values)


@pytest.mark.parametrize("width", (8, 32))
def test_warp_operations_in_a_temp_storage(width):
    group = LANES_8 if width == 8 else WARP

    @cuda.jit
    def kernel(src, dst, totals):
        scratch = coop.TempStorage(auto_sync=True)
        items = coop.ThreadData(4)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(group, src, items, algorithm="transpose", offset=base, temp_storage=scratch)
        striped = coop.exchange(group, items, mode="blocked_to_striped", temp_storage=scratch)
        blocked = coop.exchange(group, striped, temp_storage=scratch)
        totals[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x] = coop.sum(
            group, blocked, temp_storage=scratch)
        coop.store(group, dst, blocked, algorithm="transpose", offset=base,
                   temp_storage=scratch)

    threads = 128
    values = np.random.default_rng(width).integers(-9, 9, GRID * threads * 4).astype(np.int32)
    dst = cuda.device_array_like(values)
    totals = cuda.device_array(GRID * threads, np.int32)
    kernel[GRID, threads](cuda.to_device(values), dst, totals)
    np.testing.assert_array_equal(dst.copy_to_host(), values)
    expected = np.repeat(values.reshape(-1, width * 4).sum(axis=1), width)
    np.testing.assert_array_equal(totals.copy_to_host(), expected)


def _larger(a, b):
    return a if a > b else b


@pytest.mark.parametrize("width,ipt", ((8, 1), (8, 3), (32, 2), (32, 1)))
@pytest.mark.parametrize("mode", ("inclusive", "exclusive"))
@pytest.mark.parametrize("operator_", ("sum", "function"))
def test_warp_scans_of_a_partial_tile(width, ipt, mode, operator_):
    # CUB's partial warp scans: the valid items' results and aggregate; a
    # count below 1 counts as 1, past the tile as the tile.
    group = LANES_8 if width == 8 else WARP
    function = _larger if operator_ == "function" else "sum"

    @cuda.jit
    def kernel(src, dst, totals, valid):
        items = coop.ThreadData(ipt)
        coop.load(BLOCK, src, items)
        out, total = coop.scan(group, items, mode=mode, scan_op=function, initial_value=0,
                               valid_items=valid, block_aggregate=True)
        coop.store(BLOCK, dst, out)
        totals[cuda.threadIdx.x] = total

    threads, tile = 64, width * ipt
    values = np.random.default_rng(width * ipt).integers(-20, 20, threads * ipt)
    values = values.astype(np.int32)
    for valid in (1, 5, tile - 1, tile, 0, tile + 7):
        dst = cuda.device_array_like(values)
        totals = cuda.device_array(threads, np.int32)
        kernel[1, threads](cuda.to_device(values), dst, totals, np.int32(valid))
        used = min(max(valid, 1), tile)
        got = dst.copy_to_host().reshape(-1, tile)
        got_totals = totals.copy_to_host().reshape(-1, width)
        ufunc = np.add if operator_ == "sum" else np.maximum
        for t, items in enumerate(values.reshape(-1, tile)):
            seeded = ufunc.accumulate(np.concatenate(([0], items[:used])))
            expected = seeded[1:] if mode == "inclusive" else seeded[:-1]
            np.testing.assert_array_equal(got[t, :used], expected, err_msg=f"valid {valid}")
            np.testing.assert_array_equal(got_totals[t], ufunc.reduce(items[:used]),
                                          err_msg=f"valid {valid}")


def test_a_reserved_array_survives_the_coop_calls_on_its_storage():
    # A histogram in an array carved out of the storage that the transpose
    # load, the exchange and the store reuse.
    @cuda.jit
    def kernel(src, dst, histogram):
        scratch = coop.TempStorage(auto_sync=True)
        counts = scratch.reserve(16, np.int32)
        t = cuda.threadIdx.x
        if t < 16:
            counts[t] = 0
        cuda.syncthreads()
        items = coop.ThreadData(4)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(BLOCK, src, items, algorithm="transpose", offset=base, temp_storage=scratch)
        for i in range(4):
            cuda.atomic.add(counts, items[i] % 16, 1)
        striped = coop.exchange(BLOCK, items, mode="blocked_to_striped", temp_storage=scratch)
        coop.store(BLOCK, dst, striped, algorithm="striped", offset=base)
        cuda.syncthreads()
        if t < 16:
            histogram[cuda.blockIdx.x * 16 + t] = counts[t]

    threads = 128
    values = np.random.default_rng(8).integers(0, 1000, GRID * threads * 4).astype(np.int32)
    dst = cuda.device_array_like(values)
    histogram = cuda.device_array(GRID * 16, np.int32)
    kernel[GRID, threads](cuda.to_device(values), dst, histogram)
    np.testing.assert_array_equal(dst.copy_to_host(), values)
    expected = np.stack([np.bincount(block % 16, minlength=16)
                         for block in values.reshape(GRID, -1)])
    np.testing.assert_array_equal(histogram.copy_to_host().reshape(GRID, 16), expected)


def test_a_reserved_array_past_48_kib_is_dynamic_shared_memory():
    count = 13 * 1024  # 52 KiB of int32, with the transpose's scratch after it

    @cuda.jit
    def kernel(src, dst):
        scratch = coop.TempStorage()
        big = scratch.reserve(count, np.int32)
        t = cuda.threadIdx.x
        for i in range(t, count, cuda.blockDim.x):
            big[i] = i
        cuda.syncthreads()
        items = coop.ThreadData(4)
        coop.load(BLOCK, src, items, algorithm="transpose", temp_storage=scratch)
        coop.store(BLOCK, dst, items, algorithm="transpose", temp_storage=scratch)
        cuda.syncthreads()
        dst[src.size + t] = big[count - 1 - t]

    threads = 256
    values = np.arange(threads * 4, dtype=np.int32) * 3
    dst = cuda.device_array(values.size + threads, np.int32)
    kernel[1, threads](cuda.to_device(values), dst)
    got = dst.copy_to_host()
    np.testing.assert_array_equal(got[:values.size], values)
    np.testing.assert_array_equal(got[values.size:], count - 1 - np.arange(threads))
