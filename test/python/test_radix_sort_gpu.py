"""radix sort, argsort and radix rank on the GPU against NumPy: every key dtype
(duplicate-heavy integers; floats with NaNs of both signs, infinities, -0.0
and +0.0), blocks of 32..1024 threads (1-D and 3-D), 1..16 keys a thread and
scalars, ascending and descending, bit ranges, partial tiles, blocked and
striped results, values moved with their keys; ranks and digit prefixes of
each digit width."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
from cuda.coop._models import radix_rank_model, radix_sort_order  # noqa: E402

GRID = 3
# (key dtype, block, keys a thread)
CONFIGS = (("int32", (128, 1, 1), 4), ("uint8", (32, 1, 1), 16), ("int8", (256, 1, 1), 3),
           ("uint16", (1024, 1, 1), 2), ("int16", (64, 1, 1), 7), ("uint32", (96, 1, 1), 5),
           ("int64", (8, 4, 2), 4), ("uint64", (512, 1, 1), 1), ("float16", (128, 1, 1), 8),
           ("float32", (256, 1, 1), 9), ("float64", (64, 2, 1), 6), ("bool", (128, 1, 1), 4),
           ("int32", (1024, 1, 1), 16))


def _keys(rng, dtype, size):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        # Duplicate-heavy: half the keys from a handful of values.
        keys = rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
        few = rng.integers(info.min, info.max, 5, dtype=dtype, endpoint=True)
        pick = rng.random(size) < 0.5
        keys[pick] = few[rng.integers(0, 5, pick.sum())]
        return keys
    keys = (rng.standard_normal(size) * 100).astype(dtype)
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0], dtype)
    pick = rng.random(size) < 0.25
    keys[pick] = special[rng.integers(0, special.size, pick.sum())]
    return keys


def _sort(dtype, block, ipt, kind, descending=False, striped=False, bits=None, valid=None,
          scalar=False):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    n = 1 if scalar else ipt
    tile = threads * n
    rng = np.random.default_rng(hash((dtype, block, ipt, kind, descending, striped, bits,
                                      valid, scalar)) % 2**32)
    src = _keys(rng, dtype, GRID * tile)
    vals = rng.standard_normal(GRID * tile)
    if kind == "pairs":
        vals = vals.astype(np.float64)
    dst = cuda.to_device(np.zeros_like(src))
    dst2 = cuda.to_device(np.zeros(GRID * tile, np.float64 if kind == "pairs" else np.int32))
    kernel = cm.radix_sort_kernel(threads, ipt, kind, descending, striped, bits is not None,
                                  valid is not None, scalar)
    begin, end = bits or (0, 0)
    kernel[GRID, block](cuda.to_device(src), cuda.to_device(vals), dst, dst2,
                        tile if valid is None else valid, begin, end)
    got, got2 = dst.copy_to_host(), dst2.copy_to_host()
    width = 8 if src.dtype == np.bool_ else src.dtype.itemsize * 8
    for b in range(GRID):
        keys = src[b * tile:(b + 1) * tile]
        order = radix_sort_order(keys, *(bits or (0, width)), descending=descending,
                                 valid=valid)
        count = order.size
        out = got[b * tile:b * tile + count]
        # Bits compared: NaNs and -0.0 keep their own.
        np.testing.assert_array_equal(out.view(np.uint8), keys[order].view(np.uint8))
        moved = got2[b * tile:b * tile + count]
        if kind == "pairs":
            np.testing.assert_array_equal(moved, vals[b * tile:(b + 1) * tile][order])
        elif kind == "argsort":
            np.testing.assert_array_equal(moved, order)


@pytest.mark.parametrize("dtype,block,ipt", CONFIGS)
@pytest.mark.parametrize("descending", (False, True))
def test_sort_keys(dtype, block, ipt, descending):
    _sort(dtype, block, ipt, "keys", descending)


@pytest.mark.parametrize("dtype,block,ipt", CONFIGS[:8])
def test_sort_pairs_blocked_to_striped(dtype, block, ipt):
    _sort(dtype, block, ipt, "pairs", striped=True)


@pytest.mark.parametrize("dtype,block,ipt", CONFIGS[6:])
@pytest.mark.parametrize("descending", (False, True))
def test_argsort(dtype, block, ipt, descending):
    _sort(dtype, block, ipt, "argsort", descending)


@pytest.mark.parametrize("dtype,bits", (("uint32", (4, 20)), ("int32", (0, 3)),
                                        ("int64", (17, 64)), ("float32", (31, 32)),
                                        ("uint16", (5, 6))))
@pytest.mark.parametrize("kind", ("keys", "pairs"))
def test_bit_ranges(dtype, bits, kind):
    _sort(dtype, (128, 1, 1), 4, kind, bits=bits)


@pytest.mark.parametrize("kind", ("keys", "pairs"))
def test_empty_bit_range_still_stripes(kind):
    """An empty runtime range sorts nothing but, as CUB's one pass, still makes the result
    striped."""
    _sort("uint32", (128, 1, 1), 4, kind, striped=True, bits=(7, 7))


@pytest.mark.parametrize("valid", (0, 1, 100, 511, 512))
@pytest.mark.parametrize("kind", ("keys", "pairs", "argsort"))
def test_partial_tiles(valid, kind):
    _sort("float32", (128, 1, 1), 4, kind, descending=kind == "pairs", valid=valid)


@pytest.mark.parametrize("kind", ("keys", "pairs", "argsort"))
def test_scalars(kind):
    _sort("int16", (256, 1, 1), 1, kind, scalar=True)


def _rank(dtype, threads, ipt, begin_bit, radix_bits, descending, prefix, scalar=False,
          algorithm=None):
    from numba_cuda_mlir import cuda

    n = 1 if scalar else ipt
    tile = threads * n
    slots = max(1, -(-(1 << radix_bits) // threads))
    rng = np.random.default_rng(hash((dtype, threads, ipt, begin_bit, radix_bits, descending,
                                      prefix, scalar)) % 2**32)
    src = _keys(rng, dtype, GRID * tile)
    dst = cuda.to_device(np.zeros(GRID * tile, np.int32))
    dst2 = cuda.to_device(np.zeros(GRID * threads * slots, np.int32))
    kernel = cm.radix_rank_kernel(threads, ipt, begin_bit, radix_bits, descending, prefix,
                                  scalar, algorithm)
    kernel[GRID, threads](cuda.to_device(src), dst, dst2)
    got, got2 = dst.copy_to_host(), dst2.copy_to_host()
    for b in range(GRID):
        ranks, digit_prefix = radix_rank_model(src[b * tile:(b + 1) * tile], begin_bit,
                                               radix_bits, threads, descending)
        np.testing.assert_array_equal(got[b * tile:(b + 1) * tile], ranks)
        if prefix != "none":
            np.testing.assert_array_equal(
                got2[b * threads * slots:(b + 1) * threads * slots],
                digit_prefix.reshape(-1))


@pytest.mark.parametrize("dtype,threads,ipt,begin_bit,radix_bits",
                         (("uint32", 128, 4, 0, 4), ("int32", 256, 3, 27, 5),
                          ("float32", 64, 8, 24, 8), ("uint8", 32, 16, 2, 1),
                          ("int64", 512, 2, 40, 6), ("float16", 96, 5, 10, 3)))
@pytest.mark.parametrize("descending", (False, True))
@pytest.mark.parametrize("prefix", ("none", "returned", "filled"))
def test_rank(dtype, threads, ipt, begin_bit, radix_bits, descending, prefix):
    _rank(dtype, threads, ipt, begin_bit, radix_bits, descending, prefix)


@pytest.mark.parametrize("dtype,threads,ipt,begin_bit,radix_bits",
                         (("uint32", 128, 4, 0, 4), ("int32", 256, 3, 27, 5),
                          ("float32", 64, 8, 24, 8), ("uint8", 32, 16, 2, 1),
                          ("int64", 1024, 2, 40, 5), ("uint16", 512, 1, 8, 6)))
@pytest.mark.parametrize("descending", (False, True))
@pytest.mark.parametrize("algorithm", ("basic", "match"))
def test_rank_algorithms(dtype, threads, ipt, begin_bit, radix_bits, descending, algorithm):
    _rank(dtype, threads, ipt, begin_bit, radix_bits, descending, "returned",
          algorithm=algorithm)


@pytest.mark.parametrize("dtype,threads,ipt,begin_bit,radix_bits",
                         (("int64", 1024, 2, 40, 7), ("uint16", 512, 1, 8, 8),
                          ("uint32", 256, 16, 0, 8), ("float64", 96, 3, 52, 8)))
@pytest.mark.parametrize("descending", (False, True))
def test_match_rank_of_wide_digits(dtype, threads, ipt, begin_bit, radix_bits, descending):
    """Past 4 bits the match rank is the default; the basic rank's counters would not fit."""
    _rank(dtype, threads, ipt, begin_bit, radix_bits, descending, "returned")


def test_rank_of_scalars():
    _rank("int32", 128, 1, 0, 4, False, "returned", scalar=True)


@pytest.mark.parametrize("largest", (True, False))
@pytest.mark.parametrize("pairs", (False, True))
@pytest.mark.parametrize("k,valid", ((1, 512), (10, 512), (10, 7), (0, 512), (600, 300)))
def test_topk(largest, pairs, k, valid):
    """The first min(k, valid) positions hold the k largest (smallest) of the first `valid`
    keys; sorted=True orders them with equal keys in input order (the earlier chosen
    first), as a stable sort's first k."""
    from numba_cuda_mlir import cuda

    threads, ipt = 128, 4
    tile = threads * ipt
    rng = np.random.default_rng(hash((largest, pairs, k, valid)) % 2**32)
    src = rng.integers(-20, 20, GRID * tile).astype(np.float32)  # many ties
    vals = np.arange(GRID * tile, dtype=np.int32)
    for sort in (False, True):
        dst = cuda.to_device(np.zeros_like(src))
        dst2 = cuda.to_device(np.zeros_like(vals))
        kernel = cm.topk_kernel(threads, ipt, largest, pairs, sort)
        kernel[GRID, threads](cuda.to_device(src), cuda.to_device(vals), dst, dst2, k, valid)
        got, got2 = dst.copy_to_host(), dst2.copy_to_host()
        count = min(k, valid)
        for b in range(GRID):
            keys = src[b * tile:(b + 1) * tile]
            order = radix_sort_order(keys, descending=largest, valid=valid)[:count]
            out = got[b * tile:b * tile + count]
            if sort:
                np.testing.assert_array_equal(out, keys[order])
                if pairs:
                    np.testing.assert_array_equal(got2[b * tile:b * tile + count],
                                                  vals[b * tile:(b + 1) * tile][order])
            else:
                np.testing.assert_array_equal(np.sort(out), np.sort(keys[order]))
