"""exchange and shuffle through the Numba backend, compile-only: every mode
compiles without local memory, with CUB's scratch size and the barriers
CUB's algorithm needs; the kernel plan shares slices with load/store; every
misuse is a compile-time error naming the operand."""

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
F64 = types.float64[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _block_barriers(ptx):
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


def _cub_exchange_bytes(threads, ipt, element, sliced):
    """sizeof(cub::BlockExchange<T, threads, ipt, sliced>::TempStorage)."""
    items = (min(threads, 32) if sliced else threads) * ipt
    padding = items >> 5 if ipt > 4 and ipt & (ipt - 1) == 0 else 0
    return -(-(items + padding) * element // 16) * 16


def _cub_warp_exchange_bytes(width, ipt, threads=128):
    """The block's cub::WarpExchange<int, ipt, width>::TempStorage, one a logical warp:
    width * ipt + 1 items, plus one per 32 of them at a power of two ipt above 4."""
    items = width * ipt + 1
    padding = items >> 5 if ipt > 4 and ipt & (ipt - 1) == 0 else 0
    return -(-(threads // width) * (items + padding) * 4 // 16) * 16


def _assert_scratch_within_cubs(ptx, mode, cub_bytes, tile_bytes):
    """Scatters take CUB's layout; exchanges between static maps take the bank model's
    (plan-scratch.mlir tests which), never more than CUB's TempStorage nor less than the
    tile."""
    if "scatter" in mode:
        assert _shared_bytes(ptx) == cub_bytes
    else:
        assert tile_bytes <= _shared_bytes(ptx) <= cub_bytes


@pytest.mark.parametrize("mode,sliced", [(m, False) for m in cm.BLOCK_EXCHANGE_MODES]
                         + [(m, True) for m in cm.TIME_SLICED_MODES])
def test_block_exchange_compiles_like_cub(mode, sliced):
    ipt = 8
    kernel = cm.exchange_kernel(mode, ipt, None, sliced)
    ptx = _ptx(kernel, [F64, I32, I32, F64])
    _no_local_memory(ptx)
    cub = _cub_exchange_bytes(128, ipt, 8, sliced)
    if sliced:
        assert _shared_bytes(ptx) == cub
    else:
        _assert_scratch_within_cubs(ptx, mode, cub, 128 * ipt * 8)
    warps = 4
    internal = (2 * warps - 1 if not mode.startswith("warp") and "warp_striped" not in mode
                else warps - 1) if sliced else (0 if "warp_striped" in mode else 1)
    assert _block_barriers(ptx) == internal


@pytest.mark.parametrize("mode", cm.TIME_SLICED_MODES)
def test_time_sliced_turns_are_warp_votes(mode):
    """A warp's turn in a block-layout exchange is a vote over the warp, one a turn (4
    warps), so that ptxas branches around the turn's scratch accesses instead of predicating
    them in every warp (0.44 of CUB on the H200 at 256x8 with a plain compare, 1.06 with the
    vote). scatter_to_striped has no warp turn (its scatter and gather are guarded item by
    item); the warp-striped modes' turns hold a warp barrier and keep a plain compare, which
    ptxas branches around already."""
    ptx = _ptx(cm.exchange_kernel(mode, 8, None, True), [F64, I32, I32, F64])
    votes = len(re.findall(r"\bvote\.sync\.any\.pred\b", ptx))
    turns = mode in ("striped_to_blocked", "blocked_to_striped", "scatter_to_blocked")
    assert votes == (4 if turns else 0), votes


@pytest.mark.parametrize("mode", cm.WARP_EXCHANGE_MODES)
@pytest.mark.parametrize("width", (1, 8, 32))
def test_warp_exchange_uses_warp_barriers_only(mode, width):
    ptx = _ptx(cm.exchange_kernel(mode, 4, width, False), [I32, I32, I32, I32])
    _no_local_memory(ptx)
    assert _block_barriers(ptx) == 0
    _assert_scratch_within_cubs(ptx, mode, _cub_warp_exchange_bytes(width, 4), 128 * 4 * 4)


@pytest.mark.parametrize("mode", cm.WARP_EXCHANGE_MODES)
@pytest.mark.parametrize("width", (8, 32))
def test_warp_exchange_scratch_is_cubs_at_8_items(mode, width):
    """cub::WarpExchange's TempStorage at 8 items a thread: width * 8 + 1 items a logical
    warp, plus one slot per 32 of them, which ScatterToStriped uses as CUB's does (its
    ranks and striped slots are padded; without it 8-lane scatters conflict on banks) and
    the static modes' swizzles may use."""
    ptx = _ptx(cm.exchange_kernel(mode, 8, width, False), [I32, I32, I32, I32])
    _no_local_memory(ptx)
    _assert_scratch_within_cubs(ptx, mode, _cub_warp_exchange_bytes(width, 8), 128 * 8 * 4)
    assert _block_barriers(ptx) == 0


@pytest.mark.parametrize("mode", cm.SHUFFLE_MODES)
def test_shuffle_compiles_with_one_barrier(mode):
    ipt = 1 if mode in ("offset", "rotate") else 4
    ptx = _ptx(cm.shuffle_kernel(mode, ipt, mode != "rotate"),
               [I32, I32, types.int64, types.int32])
    _no_local_memory(ptx)
    assert _block_barriers(ptx) == 1
    assert _shared_bytes(ptx) == 128 * 4


def test_exchange_shares_the_load_slice_without_a_barrier():
    """A transpose load gathers blocked; blocked_to_striped then rewrites
    each slot from the thread that read it: one slice (CUB's union), and
    only the load's own barrier."""
    @cuda.jit
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="transpose")
        striped = coop.exchange(block, items, mode="blocked_to_striped")
        coop.store(block, dst, striped, algorithm="striped")

    ptx = _ptx(kernel, [I32, I32])
    assert _shared_bytes(ptx) == 128 * 4 * 4
    assert _block_barriers(ptx) == 2


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_unknown_exchange_mode():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.exchange(block, items, mode="blocked_to_diagonal"))

    message = _error(kernel)
    assert "mode must be one of" in message and "'blocked_to_diagonal'" in message


def test_error_scatter_without_ranks():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.exchange(block, items, mode="scatter_to_blocked"))

    assert "needs ranks (the tile position of each item)" in _error(kernel)


def test_error_ranks_of_another_size():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        ranks = coop.ThreadData(2, dtype=np.int32)
        coop.load(block, dst, ranks)
        coop.store(block, dst, coop.exchange(block, items, mode="scatter_to_striped",
                                             ranks=ranks))

    assert "ranks must have one item per value item (4); got 2" in _error(kernel)


def test_error_warp_exchange_mode():
    def kernel(src, dst):
        warp = coop.this_warp()
        items = coop.ThreadData(4)
        coop.load(warp, src, items)
        coop.store(warp, dst, coop.exchange(warp, items, mode="warp_striped_to_blocked"))

    assert "is not valid for a warp group; warps accept striped_to_blocked" in _error(kernel)


def test_error_exchange_temp_storage_that_is_not_one():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.exchange(block, items, temp_storage=5))

    assert "temp_storage must be a coop.TempStorage(...)" in _error(kernel)


def test_error_shuffle_of_a_scalar_up():
    def kernel(src, dst):
        block = coop.this_block()
        coop.store(block, dst, coop.shuffle(block, src[0], mode="up"))

    assert "takes a payload" in _error(kernel)


def test_error_shuffle_up_distance():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.shuffle(block, items, mode="up", distance=2))

    assert "distance must be 1" in _error(kernel)


def test_error_shuffle_of_a_warp():
    def kernel(src, dst):
        warp = coop.this_warp()
        coop.store(warp, dst, coop.shuffle(warp, src[0], mode="offset"))

    assert "is a block operation (CUB's BlockShuffle); use this_block()" in _error(kernel)


def test_error_exchange_value_that_is_no_payload():
    def kernel(src, dst):
        block = coop.this_block()
        coop.exchange(block, src[0])

    assert "coop.exchange's value must be a coop.ThreadData or a local array" in _error(kernel)
