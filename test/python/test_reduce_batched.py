"""reduce_batched through the Numba backend, compile-only: warps and logical
warps exchange B*(W-1)/W values a lane by butterfly shuffles (CUB's
WarpReduceBatched), use no shared memory and no barrier; every misuse is a
compile-time error naming the operand and the fix."""

import re

import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

I32 = types.int32[::1]
F64 = types.float64[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _shuffles(ptx):
    return len(re.findall(r"\bshfl\.sync\.bfly\b", ptx))


@pytest.mark.parametrize("width", (None, 1, 2, 8, 32))
@pytest.mark.parametrize("batches", (1, 8, 32, 40))
@pytest.mark.parametrize("layout", ("striped", "blocked"))
def test_butterfly_shuffles_only(width, batches, layout):
    kernel = cm.reduce_batched_kernel(batches, width, "sum", layout)
    ptx = _ptx(kernel, [I32, I32])
    assert nc.local_memory(nc.ptxas_report(ptx)) == []
    assert ".shared" not in ptx
    assert not re.search(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx)
    assert _shuffles(ptx) == _exchanged(batches, width or 32, layout)


def _exchanged(batches, size, layout):
    """Shuffles of recursive halving: at distance d every pair of partials (owner bits d clear
    and set) whose lower half holds a batch takes one shuffle; a pair of padding partials
    (padded up to a whole number of slots) none."""
    slots = -(-batches // size)

    def first_batch(lane, slot):
        return lane + slot * size if layout == "striped" else lane * slots + slot

    partials = {(lane, slot) for lane in range(size) for slot in range(slots)}
    count, distance = 0, size // 2
    while distance:
        count += sum(1 for lane, slot in partials
                     if lane & distance and first_batch(lane & ~distance, slot) < batches)
        partials = {(lane & ~distance, slot) for lane, slot in partials}
        distance //= 2
    return count


def test_whole_slots_exchange_half_a_lane_each_step():
    """With whole slots a lane hands over half its partial results at each of log2(W) steps;
    with fewer batches than lanes, as few shuffles as reducing each batch by itself or fewer."""
    assert _exchanged(64, 32, "striped") == 2 * 31
    assert _exchanged(8, 32, "striped") == 8 + 8 + 4 + 2 + 1
    assert _exchanged(1, 32, "blocked") == 5
    assert _exchanged(40, 32, "striped") == 31 + (8 + 8 + 4 + 2 + 1)  # slot 1: lanes 0..7


def test_64_bit_items_take_two_shuffles_each():
    ptx = _ptx(cm.reduce_batched_kernel(8, 8, "max", "striped"), [F64, F64])
    assert _shuffles(ptx) == 2 * 7


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_reduce_batched_of_a_block():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        out = coop.reduce_batched(coop.this_block(), items)
        dst[0] = out[0]

    assert "is a warp operation (CUB's WarpReduceBatched): use this_warp() or a logical " \
        "warp" in _error(kernel)


@pytest.mark.parametrize("width", (None, 8))
def test_a_scalar_is_one_batch(width):
    """A scalar is one batch (as the official qualified API takes one item a thread): the
    result is a scalar, the batch's reduction in the group's first lane."""
    kernel = cm.reduce_batched_scalar_kernel(width, "max")
    ptx = _ptx(kernel, [types.float32[::1], types.float32[::1]])
    assert nc.local_memory(nc.ptxas_report(ptx)) == []
    # One batch: a plain butterfly reduction, log2(W) shuffles.
    assert _shuffles(ptx) == (width or 32).bit_length() - 1


def test_error_reduce_batched_of_a_tuple():
    def kernel(src, dst):
        out = coop.reduce_batched(coop.this_warp(), (src[0], src[1]))
        dst[0] = out

    assert "coop.reduce_batched's value must be a coop.ThreadData or a local array (or a " \
        "scalar)" in _error(kernel)


def test_error_unknown_output_layout():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        out = coop.reduce_batched(coop.this_warp(), items, output_layout="diagonal")
        dst[0] = out[0]

    message = _error(kernel)
    assert "output_layout must be one of 'striped', 'blocked'; got 'diagonal'" in message


def test_error_bitwise_operator_on_floats():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        out = coop.reduce_batched(coop.this_warp(), items, binary_op="bit_or")
        dst[0] = out[0]

    assert "operator 'bit_or' needs integer items; got 'f64'" in _error(kernel, (F64, F64))


def test_error_operator_of_one_item():
    def twice(a):
        return a + a

    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        out = coop.reduce_batched(coop.this_warp(), items, binary_op=twice)
        dst[0] = out[0]

    message = _error(kernel)
    assert "coop.reduce_batched's binary_op" in message
    assert "twice(a) must take two items (int32, int32) and return one" in message
