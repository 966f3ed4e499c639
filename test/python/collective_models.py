"""NumPy models of exchange and shuffle, and Numba kernels that run one
collective between a `direct` load and a `direct` store, so a thread's
registers before and after the collective are visible in memory."""

from __future__ import annotations

import functools

import numpy as np

BLOCK_EXCHANGE_MODES = ("striped_to_blocked", "blocked_to_striped", "warp_striped_to_blocked",
                        "blocked_to_warp_striped", "scatter_to_blocked", "scatter_to_striped",
                        "scatter_to_striped_guarded", "scatter_to_striped_flagged")
TIME_SLICED_MODES = ("striped_to_blocked", "blocked_to_striped", "warp_striped_to_blocked",
                     "blocked_to_warp_striped", "scatter_to_blocked", "scatter_to_striped")
WARP_EXCHANGE_MODES = ("striped_to_blocked", "blocked_to_striped", "scatter_to_striped")
SHUFFLE_MODES = ("up", "down", "offset", "rotate")


def _position(layout: str, t: int, i: int, size: int, ipt: int) -> int:
    if layout == "blocked":
        return t * ipt + i
    if layout == "striped":
        return t + i * size
    warp, lane = divmod(t, 32)
    return warp * 32 * ipt + lane + 32 * i


def exchange_model(mode: str, values: np.ndarray, ranks: np.ndarray | None,
                   flags: np.ndarray | None):
    """One group's registers after `mode`: (expected [size, ipt], defined
    mask). `values[t, i]` is thread t's item i; positions that receive no
    item (guarded, flagged) are undefined."""
    size, ipt = values.shape
    source, target = mode.split("_to_")
    tile = np.zeros(size * ipt, values.dtype)
    filled = np.zeros(size * ipt, bool)
    for t in range(size):
        for i in range(ipt):
            if source == "scatter":
                if mode.endswith("guarded") and ranks[t, i] < 0:
                    continue
                if mode.endswith("flagged") and not flags[t, i]:
                    continue
                p = ranks[t, i]
            else:
                p = _position(source, t, i, size, ipt)
            tile[p], filled[p] = values[t, i], True
    target = target.replace("_guarded", "").replace("_flagged", "")
    expected = np.zeros_like(values)
    defined = np.zeros(values.shape, bool)
    for t in range(size):
        for i in range(ipt):
            p = _position(target, t, i, size, ipt)
            expected[t, i], defined[t, i] = tile[p], filled[p]
    return expected, defined


def shuffle_model(mode: str, values: np.ndarray, distance: int, fill):
    """The block's registers after `mode` ([size, ipt] payloads for up/down,
    [size] scalars for offset/rotate)."""
    if mode in ("up", "down"):
        flat = values.reshape(-1)
        shifted = np.empty_like(flat)
        if mode == "up":
            shifted[1:], shifted[0] = flat[:-1], fill
        else:
            shifted[:-1], shifted[-1] = flat[1:], fill
        return shifted.reshape(values.shape)
    size = values.shape[0]
    source = np.arange(size) + distance
    if mode == "rotate":
        return values[source % size]
    inside = (source >= 0) & (source < size)
    return np.where(inside, values[np.clip(source, 0, size - 1)],
                    values if fill is None else fill)


@functools.cache
def exchange_kernel(mode: str, ipt: int, width: int | None, sliced: bool):
    """dst gets each thread's registers after the exchange, in blocked
    order per group (thread t's item i at t*ipt + i)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    scatter = mode.startswith("scatter")
    flagged = mode.endswith("flagged")

    def group():
        return coop.this_block()

    if width is not None:
        def group():  # noqa: F811 -- the logical warp variant
            return coop.this_warp().group_by(width)
    group = cuda.jit(device=True, inline="always")(group)

    if flagged:
        @cuda.jit
        def kernel(src, ranks_src, flags_src, dst):
            g = group()
            items = coop.ThreadData(ipt)
            coop.load(g, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            ranks = coop.ThreadData(ipt)
            coop.load(g, ranks_src, ranks, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            flags = coop.ThreadData(ipt)
            coop.load(g, flags_src, flags, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            out = coop.exchange(g, items, mode=mode, ranks=ranks, valid_flags=flags)
            coop.store(g, dst, out, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
    elif scatter:
        @cuda.jit
        def kernel(src, ranks_src, flags_src, dst):
            g = group()
            items = coop.ThreadData(ipt)
            coop.load(g, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            ranks = coop.ThreadData(ipt)
            coop.load(g, ranks_src, ranks, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            out = coop.exchange(g, items, mode=mode, ranks=ranks, warp_time_slicing=sliced)
            coop.store(g, dst, out, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
    else:
        @cuda.jit
        def kernel(src, ranks_src, flags_src, dst):
            g = group()
            items = coop.ThreadData(ipt)
            coop.load(g, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            out = coop.exchange(g, items, mode=mode, warp_time_slicing=sliced)
            coop.store(g, dst, out, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
    return kernel


@functools.cache
def shuffle_kernel(mode: str, ipt: int, with_fill: bool):
    from numba_cuda_mlir import cuda

    from cuda import coop

    if mode in ("up", "down"):
        if with_fill:
            @cuda.jit
            def kernel(src, dst, distance, fill):
                block = coop.this_block()
                items = coop.ThreadData(ipt)
                coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
                out = coop.shuffle(block, items, mode=mode, fill=fill)
                coop.store(block, dst, out, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
        else:
            @cuda.jit
            def kernel(src, dst, distance, fill):
                block = coop.this_block()
                items = coop.ThreadData(ipt)
                coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
                out = coop.shuffle(block, items, mode=mode)
                coop.store(block, dst, out, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
        return kernel
    if with_fill:
        @cuda.jit
        def kernel(src, dst, distance, fill):
            block = coop.this_block()
            items = coop.ThreadData(1)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            moved = coop.shuffle(block, items[0], mode=mode, distance=distance, fill=fill)
            coop.store(block, dst, moved, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
    else:
        @cuda.jit
        def kernel(src, dst, distance, fill):
            block = coop.this_block()
            items = coop.ThreadData(1)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            moved = coop.shuffle(block, items[0], mode=mode, distance=distance)
            coop.store(block, dst, moved, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
    return kernel
