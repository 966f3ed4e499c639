"""merge_sort_keys and merge_sort_pairs through the Numba backend,
compile-only: blocks, warps and logical warps, the default order and a
Python compare_op, values, partial tiles and scalars compile with the
payloads in registers and CUB's shared memory (the group's keys and one
more, in a union with its values); every misuse is a compile-time error
naming the operand and the fix."""

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
F64 = types.float64[::1]
ARGS = [types.int32, types.float32]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _barriers(ptx):
    return (len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx)),
            len(re.findall(r"\bbar\.warp\.sync\b", ptx)))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


@pytest.mark.parametrize("pairs", (False, True))
def test_block_sort_takes_cubs_shared_memory_and_barriers(pairs):
    """128 threads x 4 float32 keys (and float64 values): a loop of log2(128) = 7 merge
    rounds (as CUB's, not unrolled: compile time), each a barrier after the keys' stores
    and one before the next round's, and two more for the values; the union of 513 keys
    and 513 values: CUB's sizeof(TempStorage), to the byte."""
    kernel = cm.merge_sort_kernel(None, 4, pairs)
    ptx = _ptx(kernel, [F32, F64, F32, F64] + ARGS)
    _no_local_memory(ptx)
    assert _barriers(ptx) == (2 + (2 if pairs else 0), 0)
    items = 128 * 4 + 1
    assert _shared_bytes(ptx) == items * (8 if pairs else 4)


@pytest.mark.parametrize("width", (32, 8, 2))
def test_warp_sorts_synchronize_their_warp_only(width):
    kernel = cm.merge_sort_kernel(width, 3, True, compare=True)
    ptx = _ptx(kernel, [F32, I32, F32, I32] + ARGS)
    _no_local_memory(ptx)
    block_barriers, warp_barriers = _barriers(ptx)
    assert block_barriers == 0 and warp_barriers > 0


@pytest.mark.parametrize("scalar", (False, True))
def test_variants_compile_without_local_memory(scalar):
    for options in ({"descending": True}, {"compare": True}, {"with_valid": True}):
        for pairs in (False, True):
            kernel = cm.merge_sort_kernel(None, 5, pairs, scalar=scalar, **options)
            _no_local_memory(_ptx(kernel, [F32, I32, F32, I32] + ARGS, block=(64,)))


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_block_not_a_power_of_two():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.merge_sort_keys(coop.this_block(), items)
        dst[0] = out[0]

    assert "sorts blocks of a power-of-two thread count (CUB's BlockMergeSort); a block of " \
        "96 threads is not: use radix_sort, or pad the block to 128 threads" in \
        _error(kernel, block=(96,))


def test_error_valid_items_without_oob_default():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.merge_sort_keys(coop.this_block(), items, valid_items=10)
        dst[0] = out[0]

    assert "coop.merge_sort_keys's valid_items needs oob_default, a key that orders last" in \
        _error(kernel)


def test_error_compare_op_of_one_item():
    def first(a):
        return a > 0

    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.merge_sort_keys(coop.this_block(), items, compare_op=first)
        dst[0] = out[0]

    assert "coop.merge_sort_keys's compare_op" in _error(kernel) and \
        "must take two items (int32, int32) and return a bool" in _error(kernel)


def test_error_compare_op_returning_a_float():
    def difference(a, b):
        return a - b * 0.5

    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.merge_sort_keys(coop.this_block(), items, compare_op=difference)
        dst[0] = out[0]

    assert "must return a bool for (int32, int32); it returns float64" in _error(kernel)


def test_error_merge_sort_of_the_grid():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.merge_sort_keys(coop.this_grid(), items)
        dst[0] = out[0]

    assert "needs a block, a warp or a logical warp" in _error(kernel)


def test_unsigned_keys_sort_unsigned():
    kernel = cm.merge_sort_kernel(None, 2, False)
    ptx = _ptx(kernel, [types.uint32[::1], I32, types.uint32[::1], I32, types.int32,
                        types.uint32])
    # The keys compare unsigned (the merge path's indices compare signed).
    assert re.search(r"setp\.(lt|gt)\.u32", ptx)
