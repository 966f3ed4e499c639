"""select through the Numba backend, compile-only: flags and predicates on
blocks, warps and logical warps compile without local memory, with the
scratch and barriers of CUB's composed select (one block scan of the counts,
a scatter and a blocked read back); every misuse is a compile-time error
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

I8 = types.int8[::1]
I32 = types.int32[::1]
F64 = types.float64[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _block_barriers(ptx):
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx))


def _warp_barriers(ptx):
    return len(re.findall(r"\bbar\.warp\.sync\b", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


@pytest.mark.parametrize("by_predicate", (False, True))
@pytest.mark.parametrize("threads,ipt", ((128, 4), (32, 16), (1024, 2), (96, 3)))
def test_block_select_compiles_with_two_barriers(by_predicate, threads, ipt):
    """The tile (BlockExchange's layout: padded at a power-of-two ipt above 4), then the
    warps' counts; a block of one warp scans its counts by shuffles and needs only the
    scatter's barrier."""
    kernel = cm.select_kernel(ipt, None, by_predicate, False, True)
    ptx = _ptx(kernel, [F64, I8, F64, I32, types.int32], (threads,))
    _no_local_memory(ptx)
    warps = -(-threads // 32)
    items = threads * ipt
    padding = items >> 5 if ipt > 4 and ipt & (ipt - 1) == 0 else 0
    counts = 4 * warps if warps > 1 else 0
    assert _shared_bytes(ptx) == -(-((items + padding) * 8 + counts) // 16) * 16
    assert _block_barriers(ptx) == (2 if warps > 1 else 1)


@pytest.mark.parametrize("width", (1, 8, 32))
@pytest.mark.parametrize("scalar", (False, True))
def test_warp_select_uses_warp_barriers_only(width, scalar):
    kernel = cm.select_kernel(4, width, False, scalar, False)
    ptx = _ptx(kernel, [I32, I8, I32, I32, types.int32])
    _no_local_memory(ptx)
    assert _block_barriers(ptx) == 0
    assert _warp_barriers(ptx) == 1
    n = 1 if scalar else 4
    # Each logical warp's tile; WarpExchange's extra item but for whole warps.
    extra = 0 if width == 32 else 1
    assert _shared_bytes(ptx) == -(-(128 // width) * (width * n + extra) * 4 // 16) * 16


def test_back_to_back_selects_need_no_reuse_barrier():
    """The second select writes only the warps' counts before its first barrier; the first
    reads only the tile after its last."""
    def kernel(src, keep_src, dst, counts):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        keep = coop.ThreadData(4)
        coop.load(block, keep_src, keep)
        first, n = coop.select(block, items, flags=keep)
        second, m = coop.select(block, first, flags=keep)
        coop.store(block, dst, second)
        counts[cuda.threadIdx.x] = n + m

    ptx = _ptx(cuda.jit(kernel), [I32, I8, I32, I32])
    assert _block_barriers(ptx) == 4


def test_flags_may_be_a_local_array_of_bools():
    def kernel(src, dst, counts):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        keep = cuda.local.array(4, np.bool_)
        for i in range(4):
            keep[i] = items[i] % 3 == 0
        out, n = coop.select(block, items, flags=keep)
        coop.store(block, dst, out)
        counts[cuda.threadIdx.x] = n

    _no_local_memory(_ptx(cuda.jit(kernel), [I32, I32, I32]))


def test_predicate_may_return_an_integer():
    def odd(x):
        return x & 1

    def kernel(src, dst, counts):
        block = coop.this_block()
        out, n = coop.select(block, src[cuda.threadIdx.x], predicate=odd)
        dst[cuda.threadIdx.x] = out
        counts[cuda.threadIdx.x] = n

    _no_local_memory(_ptx(cuda.jit(kernel), [I32, I32, I32]))


def test_predicate_takes_float16_items():
    """Numba keeps float16 payloads as i16 words; the predicate gets the items as float16."""
    kernel = cm.select_kernel(4, None, True, False, False)
    _no_local_memory(_ptx(kernel, [types.float16[::1], I8, types.float16[::1], I32,
                                   types.int32]))


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_select_without_flags_or_predicate():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        out, n = coop.select(block, items)
        coop.store(block, dst, out)

    assert "coop.select needs exactly one of flags (one per item) and predicate" \
        in _error(kernel)


def test_error_select_with_flags_and_predicate():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        out, n = coop.select(block, items, flags=items, predicate=cm.positive)
        coop.store(block, dst, out)

    assert "coop.select needs exactly one of flags (one per item) and predicate" \
        in _error(kernel)


def test_error_flags_of_another_size():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        keep = coop.ThreadData(2)
        coop.load(block, src, keep)
        out, n = coop.select(block, items, flags=keep)
        coop.store(block, dst, out)

    assert "flags must have one item per value item (4); got 2" in _error(kernel)


def test_error_flags_of_floats():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        keep = cuda.local.array(4, np.float32)
        out, n = coop.select(block, items, flags=keep)
        coop.store(block, dst, out)

    assert "coop.select's flags must be a payload of integers or bools with one entry per " \
        "item" in _error(kernel)


def test_error_payload_flags_of_a_scalar():
    def kernel(src, dst):
        block = coop.this_block()
        keep = coop.ThreadData(1)
        coop.load(block, src, keep)
        out, n = coop.select(block, src[0], flags=keep)
        dst[0] = out

    assert "coop.select's flags of a scalar value must be one integer or bool" \
        in _error(kernel)


def test_error_predicate_of_two_items():
    def both(a, b):
        return a > b

    def kernel(src, dst):
        block = coop.this_block()
        out, n = coop.select(block, src[0], predicate=both)
        dst[0] = out

    message = _error(kernel)
    assert "coop.select's predicate" in message
    assert "both(a, b) must take one item (int32) and return a bool" in message


def test_error_predicate_returning_a_float():
    def half(x):
        return x * 0.5

    def kernel(src, dst):
        block = coop.this_block()
        out, n = coop.select(block, src[0], predicate=half)
        dst[0] = out

    message = _error(kernel)
    assert "coop.select's predicate" in message
    assert "half must return a bool for (int32); it returns float64" in message


def test_error_predicate_that_is_no_function():
    def kernel(src, dst):
        block = coop.this_block()
        out, n = coop.select(block, src[0], predicate=3)
        dst[0] = out

    assert "coop.select's predicate must be a function of one item returning a bool" \
        in _error(kernel)


def test_error_select_of_a_thread():
    def kernel(src, dst):
        out, n = coop.select(coop.this_thread(), src[0], predicate=cm.positive)
        dst[0] = out

    assert "needs a block, a warp or a logical warp" in _error(kernel)
