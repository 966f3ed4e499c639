"""radix_rank_keys, radix_sort_keys, radix_sort_pairs and argsort through the
Numba backend, compile-only: every key dtype, values, bit ranges, partial
tiles, striped results and scalars compile with the payloads in registers and
CUB's shared memory (the union of the rank's counters and the exchanges);
every misuse is a compile-time error naming the operand and the fix."""

import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

I32 = types.int32[::1]
F32 = types.float32[::1]
SORT_ARGS = [types.int32, types.int32, types.int32]


def _array(dtype):
    return types.Array(dtype, 1, "C")


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


def _cub_shared_bytes(threads, ipt, key_bytes, value_bytes=0, radix_bits=4):
    """CUB's BlockRadixSort TempStorage: the union of BlockRadixRank's counters
    (with its BlockScan's warp totals) and BlockExchange of the keys and the values,
    16-byte aligned."""
    lanes = max(1, 1 << (radix_bits - 1))
    warps = -(-threads // 32)
    rank = ((lanes + 1) * threads + (warps if warps > 1 else 0)) * 4
    items = threads * ipt
    padded = items + (items >> 5 if ipt > 4 and ipt & (ipt - 1) == 0 else 0)
    return -(-max(rank, padded * key_bytes, padded * value_bytes) // 16) * 16


@pytest.mark.parametrize("dtype", (types.uint8, types.int8, types.uint16, types.int16,
                                   types.uint32, types.int32, types.uint64, types.int64,
                                   types.float16, types.float32, types.float64))
def test_sort_keys_of_every_dtype_keeps_keys_in_registers(dtype):
    kernel = cm.radix_sort_kernel(128, 4, "keys")
    ptx = _ptx(kernel, [_array(dtype)] * 4 + SORT_ARGS)
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) <= _cub_shared_bytes(128, 4, dtype.bitwidth // 8)


@pytest.mark.parametrize("threads,ipt", ((32, 1), (64, 3), (128, 8), (256, 4), (1024, 2)))
def test_pairs_take_at_most_cubs_shared_memory(threads, ipt):
    kernel = cm.radix_sort_kernel(threads, ipt, "pairs")
    ptx = _ptx(kernel, [_array(types.uint32), _array(types.float64), _array(types.uint32),
                        _array(types.float64)] + SORT_ARGS, block=(threads,))
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) <= _cub_shared_bytes(threads, ipt, 4, 8)


def test_pairs_exchange_keys_and_values_side_by_side_where_the_union_has_room():
    """256 threads x 4 int32 keys and values: 2 x 4 KiB of exchange beside each other fit in
    the rank's 9.2 KiB, so a pass takes one exchange barrier, not CUB's three."""
    keys_only = _ptx(cm.radix_sort_kernel(256, 4, "keys"), [I32] * 4 + SORT_ARGS, (256,))
    pairs = _ptx(cm.radix_sort_kernel(256, 4, "pairs"), [I32] * 4 + SORT_ARGS, (256,))
    count = lambda ptx: len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx))  # noqa: E731
    assert count(pairs) == count(keys_only)
    assert _shared_bytes(pairs) == _cub_shared_bytes(256, 4, 4, 4)


@pytest.mark.parametrize("kind", ("keys", "pairs", "argsort"))
@pytest.mark.parametrize("scalar", (False, True))
def test_variants_compile_without_local_memory(kind, scalar):
    for options in ({"descending": True}, {"striped": kind != "argsort"},
                    {"with_valid": True}, {"bits": kind != "argsort"}):
        kernel = cm.radix_sort_kernel(96, 5, kind, scalar=scalar, **options)
        _no_local_memory(_ptx(kernel, [F32, I32, F32, I32] + SORT_ARGS, block=(96,)))


@pytest.mark.parametrize("prefix", ("none", "returned", "filled"))
@pytest.mark.parametrize("algorithm", ("basic", "match"))
def test_rank_compiles_with_each_digit_prefix_form(prefix, algorithm):
    kernel = cm.radix_rank_kernel(64, 4, 3, 5, descending=True, prefix=prefix,
                                  algorithm=algorithm)
    ptx = _ptx(kernel, [_array(types.uint16), I32, I32], block=(64,))
    _no_local_memory(ptx)


@pytest.mark.parametrize("prefix", ("none", "returned", "filled"))
def test_rank_of_scalars(prefix):
    # Scalar keys give a scalar rank; a returned digit prefix stays a payload.
    kernel = cm.radix_rank_kernel(128, 1, 0, 4, scalar=True, prefix=prefix)
    _no_local_memory(_ptx(kernel, [I32, I32, I32]))


def test_float16_keys_rank_and_argsort_with_int32_outputs():
    """Numba keeps float16 payloads as int16 words: the keys are the op's
    float16 items, the ranks and positions stay int32."""
    rank = cm.radix_rank_kernel(96, 5, 10, 3, prefix="returned")
    _no_local_memory(_ptx(rank, [_array(types.float16), I32, I32], block=(96,)))
    argsort = cm.radix_sort_kernel(64, 8, "argsort")
    _no_local_memory(_ptx(argsort, [_array(types.float16), I32, _array(types.float16), I32]
                          + SORT_ARGS, block=(64,)))


def test_bool_keys_sort():
    kernel = cm.radix_sort_kernel(64, 2, "argsort")
    _no_local_memory(_ptx(kernel, [_array(types.boolean), I32, _array(types.boolean), I32]
                          + SORT_ARGS, block=(64,)))


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_tile_past_cubs_counters():
    def kernel(src, dst):
        items = coop.ThreadData(64)
        coop.load(coop.this_block(), src, items)
        out = coop.radix_sort_keys(coop.this_block(), items)
        dst[0] = out[0]

    assert "coop.radix_sort_keys ranks a tile of 65536 keys (1024 threads x 64); CUB's " \
        "16-bit digit counters allow at most 65535: use fewer items per thread" in \
        _error(kernel, block=(1024,))


def test_error_bit_range_outside_the_key():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.radix_sort_keys(coop.this_block(), items, begin_bit=4, end_bit=40)
        dst[0] = out[0]

    assert "coop.radix_sort_keys sorts by bits [begin_bit, end_bit) = [4, 40) of 32-bit " \
        "keys (int32); the range must be non-empty and inside [0, 32]" in _error(kernel)


def test_error_keys_not_numbers():
    def kernel(src, dst):
        out = coop.radix_sort_keys(coop.this_block(), src[0] > 0)
        dst[0] = out

    assert "coop.radix_sort_keys's value must be a coop.ThreadData or a local array (or a " \
        "scalar)" in _error(kernel)


def test_error_sort_of_a_warp():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        out = coop.radix_sort_keys(coop.this_warp(), items)
        dst[0] = out[0]

    assert "is a block operation (CUB's BlockRadixSort); use this_block()" in _error(kernel)


def test_error_values_not_one_per_key():
    def kernel(src, dst):
        keys = coop.ThreadData(4)
        coop.load(coop.this_block(), src, keys)
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        out, moved = coop.radix_sort_pairs(coop.this_block(), keys, values)
        dst[0] = out[0]

    assert "values must be one per key (4 a thread)" in _error(kernel)


def test_error_rank_digit_too_wide():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, begin_bit=0, end_bit=12)
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys ranks by a digit of 1 to 8 bits; got [begin_bit, end_bit) " \
        "= [0, 12)" in _error(kernel)


def test_error_rank_bits_given_twice_differently():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, end_bit=4, radix_bits=5)
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys's radix_bits=5 differs from end_bit - begin_bit = 4; give " \
        "one of them" in _error(kernel)


def test_error_rank_digit_outside_the_key():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, begin_bit=6, radix_bits=4)
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys's digit bits [6, 10) lie outside the keys' 8 bits" in \
        _error(kernel, (types.uint8[::1], I32))


def test_error_rank_bits_known_only_at_run_time():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, begin_bit=dst[1])
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys's begin_bit must be a compile-time int" in _error(kernel)


def test_error_digit_prefix_too_small():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        prefix = cuda.local.array(1, np.int32)
        ranks = coop.radix_rank_keys(coop.this_block(), items, radix_bits=8,
                                     exclusive_digit_prefix=prefix)
        dst[0] = ranks[0] + prefix[0]

    assert "coop.radix_rank_keys's exclusive_digit_prefix holds 1 slots a thread; 256 bins " \
        "over 64 threads need 4" in _error(kernel, block=(64,))


def test_error_digit_prefix_of_floats():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        prefix = cuda.local.array(1, np.float32)
        ranks = coop.radix_rank_keys(coop.this_block(), items, exclusive_digit_prefix=prefix)
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys's exclusive_digit_prefix must hold int32 counts; got a " \
        "payload of float32" in _error(kernel)


def test_error_unknown_rank_algorithm():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, algorithm="counting")
        dst[0] = ranks[0]

    assert "algorithm must be one of 'basic', 'memoize', 'match'; got 'counting'" in \
        _error(kernel)


def test_error_match_rank_of_a_partial_warp():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        ranks = coop.radix_rank_keys(coop.this_block(), items, algorithm="match")
        dst[0] = ranks[0]

    assert "coop.radix_rank_keys's algorithm 'match' ranks by warp-wide ballots and needs " \
        "whole warps; a block of 80 threads is not: use 'basic'" in _error(kernel, block=(80,))


def test_wide_digits_rank_by_match_in_little_shared_memory():
    """8-bit digits over 256 threads: the basic rank's counters would take 132 KiB; the
    match rank (the default past 4 bits) takes 9 warps' counters of 256 digits, the scan's
    totals and the warps' regions for the keys' digits (8 x (128 + 4) words)."""
    kernel = cm.radix_rank_kernel(256, 4, 0, 8, prefix="returned")
    ptx = _ptx(kernel, [_array(types.uint32), I32, I32], block=(256,))
    _no_local_memory(ptx)
    grid = 256 * 9
    assert _shared_bytes(ptx) == -(-(grid + 8 + 8 * (128 + 4)) * 4 // 16) * 16
    assert "vote.sync.ballot.b32" in ptx or "vote.ballot.sync.b32" in ptx


def test_error_complex_keys():
    def kernel(src, dst):
        keys = cuda.local.array(2, np.complex64)
        keys[0] = src[0]
        keys[1] = src[1]
        out = coop.radix_sort_keys(coop.this_block(), keys)
        dst[0] = out[0].real

    assert "coop.radix_sort_keys's keys must be integers, bools or float16/32/64 (radix " \
        "operations order their bits); got complex64" in _error(kernel, (F32, F32))


@pytest.mark.parametrize("largest", (True, False))
@pytest.mark.parametrize("pairs", (False, True))
def test_topk_compiles_to_one_sort(largest, pairs):
    """top-k is a stable sort's first k positions: the sort's barriers and shared memory."""
    kernel = cm.topk_kernel(128, 4, largest, pairs, sort=True)
    ptx = _ptx(kernel, [F32, I32, F32, I32, types.int32, types.int32])
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) <= _cub_shared_bytes(128, 4, 4, 4 if pairs else 0)


def test_error_topk_needs_k():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.topk_max_keys(coop.this_block(), items)
        dst[0] = out[0]

    assert "coop.topk_max_keys needs k=, how many keys to select (an int, the same in every " \
        "thread)" in _error(kernel)


def test_error_topk_of_float_k():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.topk_min_keys(coop.this_block(), items, k=src[0] * 0.5)
        dst[0] = out[0]

    assert "coop.topk_min_keys's k must be an integer; got float" in _error(kernel)


def test_error_topk_of_a_warp():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        out = coop.topk_max_keys(coop.this_warp(), items, k=3)
        dst[0] = out[0]

    assert "is a block operation (CUB's BlockRadixSort); use this_block()" in _error(kernel)
