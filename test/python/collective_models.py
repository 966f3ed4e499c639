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


BINARY_OPS = ("sum", "min", "max", "multiplies", "bit_and", "bit_or", "bit_xor")
REDUCE_ALGORITHMS = ("warp_reductions", "raking", "raking_commutative_only")
SCAN_ALGORITHMS = ("raking", "raking_memoize", "warp_scans")


def combine(op: str, a, b):
    """One application of a named operator, wrapping like the GPU's integers."""
    with np.errstate(over="ignore"):
        if op == "sum":
            return a + b
        if op == "multiplies":
            return a * b
        if op == "min":
            return a if a < b else b
        if op == "max":
            return b if a < b else a
        return {"bit_and": np.bitwise_and, "bit_or": np.bitwise_or,
                "bit_xor": np.bitwise_xor}[op](a, b)


def reduce_model(op, values: np.ndarray, valid: int | None = None):
    """The reduction of one group's tile ([size, ipt], blocked order) over
    its first `valid` items, combined in tile order."""
    flat = values.reshape(-1)[:valid]
    total = flat[0]
    for x in flat[1:]:
        total = combine(op, total, x) if isinstance(op, str) else op(total, x)
    return total


def scan_model(op, values: np.ndarray, inclusive: bool, initial=None):
    """One group's tile scanned in blocked order (shape of `values`).
    Exclusive scans without an initial value start at the operator's
    identity in item 0 only when the caller compares it (it is unspecified
    for functions)."""
    flat = values.reshape(-1)
    out = np.empty_like(flat)
    running = initial
    for k, x in enumerate(flat):
        if not inclusive:
            out[k] = running if running is not None else x
        step = x if running is None else (
            combine(op, running, x) if isinstance(op, str) else op(running, x))
        running = step
        if inclusive:
            out[k] = running
    return out.reshape(values.shape), running


def identity(op: str, dtype):
    dtype = np.dtype(dtype)
    if op in ("sum", "bit_or", "bit_xor"):
        return dtype.type(0)
    if op == "multiplies":
        return dtype.type(1)
    if op == "bit_and":
        return dtype.type(-1) if dtype.kind == "i" else np.iinfo(dtype).max
    big = np.inf if dtype.kind == "f" else (np.iinfo(dtype).max if op == "min"
                                             else np.iinfo(dtype).min)
    if dtype.kind == "f" and op == "max":
        big = -np.inf
    return dtype.type(big)


def _combining_group(width):
    """The group of a combining kernel: the block (None), a logical warp of
    `width` lanes, or the thread itself (0)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    if width is None:
        def group():
            return coop.this_block()
    elif width == 0:
        def group():  # noqa: F811 -- the thread variant
            return coop.this_thread()
    else:
        def group():  # noqa: F811 -- the logical warp variant
            return coop.this_warp().group_by(width)
    return cuda.jit(device=True, inline="always")(group)


def _linear_tid():
    from numba_cuda_mlir import cuda

    @cuda.jit(device=True, inline="always")
    def linear_tid():
        return cuda.threadIdx.x + cuda.blockDim.x * (
            cuda.threadIdx.y + cuda.blockDim.y * cuda.threadIdx.z)

    return linear_tid


@functools.cache
def reduce_kernel(ipt: int, width, binary_op, algorithm, broadcast: bool, scalar: bool,
                  with_valid: bool):
    """dst[t] gets thread t's result of reducing its group's tile (loaded
    blocked by the whole block) with `valid` items when `with_valid`."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    group, linear_tid = _combining_group(width), _linear_tid()

    if scalar and with_valid:
        @cuda.jit
        def kernel(src, dst, valid):
            block = coop.this_block()
            items = coop.ThreadData(1)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            r = coop.reduce(group(), items[0], binary_op, valid_items=valid, broadcast=broadcast,
                            algorithm=algorithm)
            dst[cuda.blockIdx.x * (src.size // cuda.gridDim.x) + linear_tid()] = r
    elif scalar:
        @cuda.jit
        def kernel(src, dst, valid):
            block = coop.this_block()
            items = coop.ThreadData(1)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            r = coop.reduce(group(), items[0], binary_op, broadcast=broadcast, algorithm=algorithm)
            dst[cuda.blockIdx.x * (src.size // cuda.gridDim.x) + linear_tid()] = r
    elif with_valid:
        @cuda.jit
        def kernel(src, dst, valid):
            block = coop.this_block()
            items = coop.ThreadData(ipt)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            r = coop.reduce(group(), items, binary_op, valid_items=valid, broadcast=broadcast,
                            algorithm=algorithm)
            dst[cuda.blockIdx.x * (src.size // cuda.gridDim.x) // ipt + linear_tid()] = r
    else:
        @cuda.jit
        def kernel(src, dst, valid):
            block = coop.this_block()
            items = coop.ThreadData(ipt)
            coop.load(block, src, items, offset=cuda.blockIdx.x * (src.size // cuda.gridDim.x))
            r = coop.reduce(group(), items, binary_op, broadcast=broadcast, algorithm=algorithm)
            dst[cuda.blockIdx.x * (src.size // cuda.gridDim.x) // ipt + linear_tid()] = r
    return kernel


@functools.cache
def scan_kernel(ipt: int, width, mode: str, scan_op, algorithm, scalar: bool,
                with_initial: bool):
    """dst gets every thread's scanned items (blocked, like src); agg[t]
    thread t's aggregate of its group's tile."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    group, linear_tid = _combining_group(width), _linear_tid()

    if scalar and with_initial:
        @cuda.jit
        def kernel(src, dst, agg, initial):
            block = coop.this_block()
            items = coop.ThreadData(1)
            base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
            coop.load(block, src, items, offset=base)
            r, a = coop.scan(group(), items[0], mode=mode, scan_op=scan_op,
                             initial_value=initial, block_aggregate=True, algorithm=algorithm)
            dst[base + linear_tid()] = r
            agg[base + linear_tid()] = a
    elif scalar:
        @cuda.jit
        def kernel(src, dst, agg, initial):
            block = coop.this_block()
            items = coop.ThreadData(1)
            base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
            coop.load(block, src, items, offset=base)
            r, a = coop.scan(group(), items[0], mode=mode, scan_op=scan_op,
                             block_aggregate=True, algorithm=algorithm)
            dst[base + linear_tid()] = r
            agg[base + linear_tid()] = a
    elif with_initial:
        @cuda.jit
        def kernel(src, dst, agg, initial):
            block = coop.this_block()
            items = coop.ThreadData(ipt)
            base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
            coop.load(block, src, items, offset=base)
            out, a = coop.scan(group(), items, mode=mode, scan_op=scan_op, initial_value=initial,
                               block_aggregate=True, algorithm=algorithm)
            coop.store(block, dst, out, offset=base)
            agg[base // ipt + linear_tid()] = a
    else:
        @cuda.jit
        def kernel(src, dst, agg, initial):
            block = coop.this_block()
            items = coop.ThreadData(ipt)
            base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
            coop.load(block, src, items, offset=base)
            out, a = coop.scan(group(), items, mode=mode, scan_op=scan_op,
                               block_aggregate=True, algorithm=algorithm)
            coop.store(block, dst, out, offset=base)
            agg[base // ipt + linear_tid()] = a
    return kernel


def running_total_function(scan_op: str):
    """A prefix function carrying the running `scan_op` of the tiles so far:
    returns it and folds in the tile's aggregate (CUB's
    BlockPrefixCallbackOp)."""
    if scan_op == "sum":
        def running_total(state, aggregate):
            prefix = state[0]
            state[0] = prefix + aggregate
            return prefix
    elif scan_op == "max":
        def running_total(state, aggregate):  # noqa: F811 -- the max variant
            prefix = state[0]
            state[0] = max(prefix, aggregate)
            return prefix
    else:
        raise ValueError(f"no running-total function for {scan_op!r}")
    return running_total


@functools.cache
def prefix_scan_kernel(ipt: int, mode: str, scan_op: str, algorithm, dtype: str,
                       shared_state: bool):
    """Each block scans `tiles` consecutive tiles of src in a loop, seeding
    each with the running total of the tiles before (a StatefulFunction
    whose state is a local or shared array); dst gets the scanned tiles,
    totals[b] block b's final running total."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    element = np.dtype(dtype).type
    start = identity(scan_op, dtype)
    running_total, linear_tid = running_total_function(scan_op), _linear_tid()

    if shared_state:
        @cuda.jit
        def kernel(src, dst, totals, tiles):
            block = coop.this_block()
            state = cuda.shared.array(1, element)
            if linear_tid() == 0:
                state[0] = start
            prefix = coop.StatefulFunction(running_total, state)
            items = coop.ThreadData(ipt)
            tile = cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z * ipt
            for t in range(tiles):
                offset = (cuda.blockIdx.x * tiles + t) * tile
                coop.load(block, src, items, offset=offset)
                out = coop.scan(block, items, mode=mode, scan_op=scan_op, prefix_op=prefix,
                                algorithm=algorithm)
                coop.store(block, dst, out, offset=offset)
            if linear_tid() == 0:
                totals[cuda.blockIdx.x] = state[0]
    else:
        @cuda.jit
        def kernel(src, dst, totals, tiles):
            block = coop.this_block()
            state = cuda.local.array(1, element)
            state[0] = start
            prefix = coop.StatefulFunction(running_total, state)
            items = coop.ThreadData(ipt)
            tile = cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z * ipt
            for t in range(tiles):
                offset = (cuda.blockIdx.x * tiles + t) * tile
                coop.load(block, src, items, offset=offset)
                out = coop.scan(block, items, mode=mode, scan_op=scan_op, prefix_op=prefix,
                                algorithm=algorithm)
                coop.store(block, dst, out, offset=offset)
            if linear_tid() == 0:
                totals[cuda.blockIdx.x] = state[0]
    return kernel
