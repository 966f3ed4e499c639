"""Numba kernels that run one collective between a `direct` load and a
`direct` store, so a thread's registers before and after the collective are
visible in memory; the NumPy models they are checked against live in
cuda.coop._models (shared with `python -m cuda.coop.visualize`)."""

from __future__ import annotations

import functools

import numpy as np

from cuda.coop._models import (
    BLOCK_EXCHANGE_MODES,
    REDUCE_ALGORITHMS,
    SCAN_ALGORITHMS,
    SHUFFLE_MODES,
    TIME_SLICED_MODES,
    WARP_EXCHANGE_MODES,
    exchange_model,
    histogram_model,
    identity,
    reduce_batched_model,
    reduce_batched_specified,
    reduce_model,
    run_length_decode_model,
    scan_model,
    select_model,
    select_specified,
    shuffle_model,
    shuffle_specified,
)

# The models are re-exported: the GPU tests compare the kernels below with them.
__all__ = ["BLOCK_EXCHANGE_MODES", "REDUCE_ALGORITHMS", "SCAN_ALGORITHMS", "SHUFFLE_MODES",
           "TIME_SLICED_MODES", "WARP_EXCHANGE_MODES", "exchange_kernel", "exchange_model",
           "histogram_kernel", "histogram_model",
           "identity", "prefix_scan_kernel", "reduce_batched_kernel", "reduce_batched_model",
           "reduce_batched_scalar_kernel",
           "reduce_batched_specified", "reduce_kernel", "reduce_model",
           "repeated_scan_kernel", "run_length_decode_kernel", "run_length_decode_model",
           "positive", "running_total_function", "scan_kernel", "scan_model", "select_kernel",
           "select_model", "select_specified", "shuffle_kernel", "shuffle_model",
           "shuffle_specified"]


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


def combining_group(width):
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

    group, linear_tid = combining_group(width), _linear_tid()

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

    group, linear_tid = combining_group(width), _linear_tid()

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

    # Only thread 0 calls the function: it alone initializes the state.
    if shared_state:
        def make_state():
            return cuda.shared.array(1, element)
    else:
        def make_state():  # noqa: F811 -- the local variant
            return cuda.local.array(1, element)
    make_state = cuda.jit(device=True, inline="always")(make_state)

    @cuda.jit
    def kernel(src, dst, totals, tiles):
        block = coop.this_block()
        state = make_state()
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
    return kernel


def repeated_scan_kernel(ipt: int, mode: str, algorithm):
    """Each block loads one tile of an integer src and scans it `reps` times
    in a loop with exclusive/inclusive sums, each scan's items the previous
    one's results wrapped to [-3, 4]; dst gets the last items. The scans reuse
    their scratch from one iteration to the next."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    @cuda.jit
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(ipt)
        tile = cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z * ipt
        offset = cuda.blockIdx.x * tile
        coop.load(block, src, items, offset=offset)
        for _ in range(reps):
            out = coop.scan(block, items, mode=mode, scan_op="sum", algorithm=algorithm)
            for i in range(ipt):
                items[i] = (out[i] & 7) - 3
        coop.store(block, dst, items, offset=offset)
    return kernel


def positive(x):
    """A select's predicate in the GPU tests."""
    return x > 0


@functools.cache
def select_kernel(ipt: int, width, by_predicate: bool, scalar: bool, with_valid: bool):
    """dst gets every thread's items after the select (blocked, like src);
    counts[t] thread t's count. Flags come from `keep` (one per item), or the
    predicate `positive` decides."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    group, linear_tid = combining_group(width), _linear_tid()
    n = 1 if scalar else ipt

    if by_predicate and with_valid:
        def select(items, keep, valid):
            return coop.select(group(), items, predicate=positive, valid_items=valid)
    elif by_predicate:
        def select(items, keep, valid):
            return coop.select(group(), items, predicate=positive)
    elif with_valid:
        def select(items, keep, valid):
            return coop.select(group(), items, flags=keep, valid_items=valid)
    else:
        def select(items, keep, valid):
            return coop.select(group(), items, flags=keep)
    select = cuda.jit(device=True, inline="always")(select)

    if scalar:
        @cuda.jit
        def kernel(src, keep_src, dst, counts, valid):
            t = cuda.blockIdx.x * (src.size // cuda.gridDim.x) + linear_tid()
            out, count = select(src[t], keep_src[t], valid)
            dst[t] = out
            counts[t] = count
    else:
        @cuda.jit
        def kernel(src, keep_src, dst, counts, valid):
            block = coop.this_block()
            base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
            items = coop.ThreadData(n)
            coop.load(block, src, items, offset=base)
            keep = coop.ThreadData(n)
            coop.load(block, keep_src, keep, offset=base)
            out, count = select(items, keep, valid)
            coop.store(block, dst, out, offset=base)
            counts[base // n + linear_tid()] = count
    return kernel


@functools.cache
def reduce_batched_kernel(batches: int, width, binary_op, layout: str):
    """dst gets every thread's result slots (ceil(batches/width) each, in
    thread order); src holds each thread's `batches` slots in thread order.
    `width` None: the physical warp."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    slots = -(-batches // (width or 32))
    if width is None:
        def group():
            return coop.this_warp()
        group = cuda.jit(device=True, inline="always")(group)
    else:
        group = combining_group(width)

    @cuda.jit
    def kernel(src, dst):
        t = cuda.blockIdx.x * (src.size // cuda.gridDim.x // batches) + linear_tid()
        items = coop.ThreadData(batches)
        for b in range(batches):
            items[b] = src[t * batches + b]
        out = coop.reduce_batched(group(), items, binary_op=binary_op, output_layout=layout)
        for i in range(slots):
            dst[t * slots + i] = out[i]
    return kernel


@functools.cache
def reduce_batched_scalar_kernel(width, binary_op):
    """dst[t] gets thread t's result of reduce_batched of its one item (src[t]): the group's
    reduction in its first lane, unspecified in the others."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    if width is None:
        def group():
            return coop.this_warp()
        group = cuda.jit(device=True, inline="always")(group)
    else:
        group = combining_group(width)

    @cuda.jit
    def kernel(src, dst):
        t = cuda.blockIdx.x * (src.size // cuda.gridDim.x) + linear_tid()
        dst[t] = coop.reduce_batched(group(), src[t], binary_op=binary_op)
    return kernel



@functools.cache
def histogram_kernel(threads: int, ipt: int, bins: int, mode: str, slots=None,
                     counter_dtype=None, scalar: bool = False, with_valid: bool = False,
                     algorithm: str = "atomic"):
    """Block b's tile is src[b*T*n:(b+1)*T*n] (n = ipt, 1 for a scalar; blocked order).
    mode "fresh": dst[(b*T + t)*S + i] gets slot i of thread t's counters (S slots, `slots`
    or ceil(bins/T)); "accumulate": the counters of the tile plus those of the same tile of
    src2; "shared": dst[b*bins + k] gets bin k of block b, counted into a shared array;
    "global": dst (bins counters, zeroed by the caller) receives the whole grid's counts.
    `valid` (the kernel's last argument) is passed as valid_items where `with_valid`;
    `algorithm` is the histogram's."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    n = 1 if scalar else ipt
    stripes = slots or -(-bins // threads)
    shared_dtype = counter_dtype or np.int32

    if scalar:
        def samples_of(src, base, t):
            return src[base + t]
    else:
        def samples_of(src, base, t):
            items = coop.ThreadData(n)
            coop.load(coop.this_block(), src, items, offset=base)
            return items
    samples_of = cuda.jit(device=True, inline="always")(samples_of)

    if with_valid:
        def count(samples, valid, accumulate, out):
            return coop.histogram(coop.this_block(), samples, bins=bins,
                                  bins_per_thread=slots, counter_dtype=counter_dtype,
                                  valid_items=valid, accumulate=accumulate, out=out,
                                  algorithm=algorithm)
    else:
        def count(samples, valid, accumulate, out):
            return coop.histogram(coop.this_block(), samples, bins=bins,
                                  bins_per_thread=slots, counter_dtype=counter_dtype,
                                  accumulate=accumulate, out=out, algorithm=algorithm)
    count = cuda.jit(device=True, inline="always")(count)

    if mode == "fresh":
        @cuda.jit
        def kernel(src, src2, dst, valid):
            t = linear_tid()
            counters = count(samples_of(src, cuda.blockIdx.x * threads * n, t), valid,
                             None, None)
            for i in range(stripes):
                dst[(cuda.blockIdx.x * threads + t) * stripes + i] = counters[i]
    elif mode == "accumulate":
        @cuda.jit
        def kernel(src, src2, dst, valid):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            first = count(samples_of(src, base, t), valid, None, None)
            counters = count(samples_of(src2, base, t), valid, first, None)
            for i in range(stripes):
                dst[(cuda.blockIdx.x * threads + t) * stripes + i] = counters[i]
    elif mode == "shared":
        @cuda.jit
        def kernel(src, src2, dst, valid):
            t = linear_tid()
            hist = cuda.shared.array(bins, shared_dtype)
            for k in range(t, bins, threads):
                hist[k] = 0
            count(samples_of(src, cuda.blockIdx.x * threads * n, t), valid, None, hist)
            for k in range(t, bins, threads):
                dst[cuda.blockIdx.x * bins + k] = hist[k]
    else:
        @cuda.jit
        def kernel(src, src2, dst, valid):
            t = linear_tid()
            count(samples_of(src, cuda.blockIdx.x * threads * n, t), valid, None, dst)
    return kernel


@functools.cache
def run_length_decode_kernel(threads: int, runs: int, decoded: int, mode: str,
                             offset_dtype=None, with_offset: bool = False):
    """Block b's runs are values[b*T*R:(b+1)*T*R] and lengths likewise (blocked order).
    mode "window": dst[(b*T + t)*D + k] gets decoded item offset + t*D + k of block b
    (offset: the kernel's last argument where `with_offset`, else 0) and totals[b] the
    stream's length; "into": the whole stream of block b goes to dst[b*capacity + offset:
    (b + 1)*capacity] (capacity: dst.size // grid) and totals[b] its length; "scalar": as
    "window" (offset 0) with one run a thread passed as scalars (`runs` is 1)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()

    if mode == "window" and with_offset:
        def decode(values, lengths, offset):
            return coop.run_length_decode(coop.this_block(), values, lengths,
                                          decoded_items_per_thread=decoded,
                                          decoded_window_offset=offset,
                                          total_decoded_size=True,
                                          decoded_offset_dtype=offset_dtype)
    elif mode == "window":
        def decode(values, lengths, offset):
            return coop.run_length_decode(coop.this_block(), values, lengths,
                                          decoded_items_per_thread=decoded,
                                          total_decoded_size=True,
                                          decoded_offset_dtype=offset_dtype)
    decode = cuda.jit(device=True, inline="always")(decode) if mode == "window" else None

    if mode == "scalar":
        @cuda.jit
        def kernel(values_src, lengths_src, dst, totals, offset):
            t = linear_tid()
            base = cuda.blockIdx.x * threads
            items, total = coop.run_length_decode(coop.this_block(), values_src[base + t],
                                                  lengths_src[base + t],
                                                  decoded_items_per_thread=decoded,
                                                  total_decoded_size=True)
            for k in range(decoded):
                dst[(cuda.blockIdx.x * threads + t) * decoded + k] = items[k]
            if t == 0:
                totals[cuda.blockIdx.x] = total
    elif mode == "window":
        @cuda.jit
        def kernel(values_src, lengths_src, dst, totals, offset):
            block = coop.this_block()
            base = cuda.blockIdx.x * threads * runs
            values = coop.ThreadData(runs)
            coop.load(block, values_src, values, offset=base)
            lengths = coop.ThreadData(runs)
            coop.load(block, lengths_src, lengths, offset=base)
            items, total = decode(values, lengths, offset)
            t = linear_tid()
            for k in range(decoded):
                dst[(cuda.blockIdx.x * threads + t) * decoded + k] = items[k]
            if t == 0:
                totals[cuda.blockIdx.x] = total
    else:
        @cuda.jit
        def kernel(values_src, lengths_src, dst, totals, offset):
            block = coop.this_block()
            base = cuda.blockIdx.x * threads * runs
            values = coop.ThreadData(runs)
            coop.load(block, values_src, values, offset=base)
            lengths = coop.ThreadData(runs)
            coop.load(block, lengths_src, lengths, offset=base)
            capacity = dst.size // cuda.gridDim.x
            window = dst[cuda.blockIdx.x * capacity:(cuda.blockIdx.x + 1) * capacity]
            total = coop.run_length_decode_into(block, values, lengths, window,
                                                decoded_items_per_thread=decoded,
                                                destination_offset=offset,
                                                decoded_offset_dtype=offset_dtype)
            if linear_tid() == 0:
                totals[cuda.blockIdx.x] = total
    return kernel


@functools.cache
def radix_sort_kernel(threads: int, ipt: int, kind: str, descending: bool = False,
                      striped: bool = False, bits: bool = False, with_valid: bool = False,
                      scalar: bool = False):
    """Block b sorts its tile src[b*T*n:(b+1)*T*n] (n = ipt, 1 for a scalar; blocked
    order) and writes it in sorted order to dst (sorted position p at dst[b*T*n + p],
    whether the result is blocked or, with `striped`, striped). kind "keys":
    radix_sort_keys; "pairs": radix_sort_pairs with values from vals, sorted values to
    dst2; "argsort": argsort, the input positions to dst2. The kernel's arguments are (src,
    vals, dst, dst2, valid, begin, end): valid_items where `with_valid`, the bit range
    where `bits`."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    n = 1 if scalar else ipt

    if scalar:
        def items_of(src, base, t):
            return src[base + t]
    else:
        def items_of(src, base, t):
            items = coop.ThreadData(n)
            coop.load(coop.this_block(), src, items, offset=base)
            return items
    items_of = cuda.jit(device=True, inline="always")(items_of)

    block = coop.this_block
    if kind == "argsort":
        if with_valid:
            def sort(keys, values, valid, begin, end):
                return coop.argsort(block(), keys, descending=descending, valid_items=valid)
        else:
            def sort(keys, values, valid, begin, end):
                return coop.argsort(block(), keys, descending=descending)
    elif kind == "pairs" and bits:
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_pairs(block(), keys, values, begin_bit=begin, end_bit=end,
                                         descending=descending, blocked_to_striped=striped)
    elif kind == "pairs" and with_valid:
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_pairs(block(), keys, values, descending=descending,
                                         blocked_to_striped=striped, valid_items=valid)
    elif kind == "pairs":
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_pairs(block(), keys, values, descending=descending,
                                         blocked_to_striped=striped)
    elif bits:
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_keys(block(), keys, begin_bit=begin, end_bit=end,
                                        descending=descending, blocked_to_striped=striped)
    elif with_valid:
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_keys(block(), keys, descending=descending,
                                        blocked_to_striped=striped, valid_items=valid)
    else:
        def sort(keys, values, valid, begin, end):
            return coop.radix_sort_keys(block(), keys, descending=descending,
                                        blocked_to_striped=striped)
    sort = cuda.jit(device=True, inline="always")(sort)

    if scalar:
        def put(dst, base, t, item):
            dst[base + t] = item
    elif striped:
        def put(dst, base, t, items):
            for i in range(n):
                dst[base + i * threads + t] = items[i]
    else:
        def put(dst, base, t, items):
            for i in range(n):
                dst[base + t * n + i] = items[i]
    put = cuda.jit(device=True, inline="always")(put)

    if kind == "keys":
        @cuda.jit
        def kernel(src, vals, dst, dst2, valid, begin, end):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            put(dst, base, t, sort(items_of(src, base, t), None, valid, begin, end))
    else:
        @cuda.jit
        def kernel(src, vals, dst, dst2, valid, begin, end):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            keys, values = sort(items_of(src, base, t), items_of(vals, base, t), valid, begin,
                                end)
            put(dst, base, t, keys)
            put(dst2, base, t, values)
    return kernel


@functools.cache
def radix_rank_kernel(threads: int, ipt: int, begin_bit: int, radix_bits: int,
                      descending: bool = False, prefix: str = "none", scalar: bool = False,
                      algorithm=None):
    """Block b ranks its tile src[b*T*n:...] (blocked order): thread t's rank i goes to
    dst[b*T*n + t*n + i]; prefix "returned" (exclusive_digit_prefix=True) or "filled" (a
    payload given) writes slot i of thread t's digit prefix to dst2[(b*T + t)*P + i].
    `algorithm` is the rank's (None: the default)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    n = 1 if scalar else ipt
    slots = max(1, -(-(1 << radix_bits) // threads))
    end_bit = begin_bit + radix_bits

    if scalar:
        def items_of(src, base, t):
            return src[base + t]

        def put(dst, base, t, ranks):
            dst[base + t] = ranks
    else:
        def items_of(src, base, t):
            items = coop.ThreadData(n)
            coop.load(coop.this_block(), src, items, offset=base)
            return items

        def put(dst, base, t, ranks):
            for i in range(n):
                dst[base + t * n + i] = ranks[i]
    items_of = cuda.jit(device=True, inline="always")(items_of)
    put = cuda.jit(device=True, inline="always")(put)

    def put_prefix(dst2, t, digit_prefix):
        for i in range(slots):
            dst2[(cuda.blockIdx.x * threads + t) * slots + i] = digit_prefix[i]
    put_prefix = cuda.jit(device=True, inline="always")(put_prefix)

    if prefix == "returned":
        @cuda.jit
        def kernel(src, dst, dst2):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            ranks, digit_prefix = coop.radix_rank_keys(
                coop.this_block(), items_of(src, base, t), begin_bit=begin_bit,
                end_bit=end_bit, descending=descending, exclusive_digit_prefix=True,
                algorithm=algorithm)
            put(dst, base, t, ranks)
            put_prefix(dst2, t, digit_prefix)
    elif prefix == "filled":
        @cuda.jit
        def kernel(src, dst, dst2):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            digit_prefix = cuda.local.array(slots, np.int32)
            ranks = coop.radix_rank(coop.this_block(), items_of(src, base, t),
                                    begin_bit=begin_bit, radix_bits=radix_bits,
                                    descending=descending,
                                    exclusive_digit_prefix=digit_prefix, algorithm=algorithm)
            put(dst, base, t, ranks)
            put_prefix(dst2, t, digit_prefix)
    else:
        @cuda.jit
        def kernel(src, dst, dst2):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            put(dst, base, t, coop.radix_rank_keys(coop.this_block(), items_of(src, base, t),
                                                   begin_bit=begin_bit, end_bit=end_bit,
                                                   descending=descending,
                                                   algorithm=algorithm))
    return kernel


@functools.cache
def topk_kernel(threads: int, ipt: int, largest: bool, pairs: bool, sort: bool):
    """Block b selects the k largest (smallest) of the first `valid` keys of its tile
    src[b*T*n:...] (blocked order) and writes the tile's result positions to dst (and the
    values moved with them, from vals, to dst2); the kernel's arguments are (src, vals, dst,
    dst2, k, valid)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    n = ipt
    select = {(True, False): coop.topk_max_keys, (False, False): coop.topk_min_keys,
              (True, True): coop.topk_max_pairs, (False, True): coop.topk_min_pairs}[
                  (largest, pairs)]

    @cuda.jit(device=True, inline="always")
    def items_of(src, base):
        items = coop.ThreadData(n)
        coop.load(coop.this_block(), src, items, offset=base)
        return items

    @cuda.jit(device=True, inline="always")
    def put(dst, base, t, items):
        for i in range(n):
            dst[base + t * n + i] = items[i]

    if pairs:
        @cuda.jit
        def kernel(src, vals, dst, dst2, k, valid):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            keys, values = select(coop.this_block(), items_of(src, base), items_of(vals, base),
                                  k=k, valid_items=valid, sorted=sort)
            put(dst, base, t, keys)
            put(dst2, base, t, values)
    else:
        @cuda.jit
        def kernel(src, vals, dst, dst2, k, valid):
            t = linear_tid()
            base = cuda.blockIdx.x * threads * n
            put(dst, base, t, select(coop.this_block(), items_of(src, base), k=k,
                                     valid_items=valid, sorted=sort))
    return kernel


def by_magnitude(a, b):
    """A merge sort's compare_op: |a| orders before |b|."""
    return abs(a) < abs(b)


@functools.cache
def merge_sort_kernel(width, ipt: int, pairs: bool, descending: bool = False,
                      compare: bool = False, with_valid: bool = False, scalar: bool = False):
    """Each group (the block for `width` None, else logical warps of `width` lanes) sorts its
    tile (blocked order; the group's tiles follow each other in src, block b's at
    b*T*n) with merge_sort_keys/pairs (compare_op=by_magnitude where `compare`) and writes
    it back in place of src into dst (and the moved values into dst2). The kernel's
    arguments are (src, vals, dst, dst2, valid, fill): valid_items and oob_default where
    `with_valid` (not with `compare`)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    linear_tid = _linear_tid()
    group = combining_group(width)
    n = 1 if scalar else ipt

    if scalar:
        def items_of(src, base, t):
            return src[base + t]

        def put(dst, base, t, item):
            dst[base + t] = item
    else:
        def items_of(src, base, t):
            items = coop.ThreadData(n)
            for i in range(n):
                items[i] = src[base + t * n + i]
            return items

        def put(dst, base, t, items):
            for i in range(n):
                dst[base + t * n + i] = items[i]
    items_of = cuda.jit(device=True, inline="always")(items_of)
    put = cuda.jit(device=True, inline="always")(put)

    if compare and pairs:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_pairs(group(), keys, values, compare_op=by_magnitude,
                                         descending=descending, stable=True)
    elif compare:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_keys(group(), keys, compare_op=by_magnitude,
                                        descending=descending)
    elif pairs and with_valid:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_pairs(group(), keys, values, descending=descending,
                                         valid_items=valid, oob_default=fill)
    elif pairs:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_pairs(group(), keys, values, descending=descending)
    elif with_valid:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_keys(group(), keys, descending=descending,
                                        valid_items=valid, oob_default=fill)
    else:
        def sort(keys, values, valid, fill):
            return coop.merge_sort_keys(group(), keys, descending=descending)
    sort = cuda.jit(device=True, inline="always")(sort)

    if pairs:
        @cuda.jit
        def kernel(src, vals, dst, dst2, valid, fill):
            t = linear_tid()
            base = cuda.blockIdx.x * cuda.blockDim.x * n
            keys, values = sort(items_of(src, base, t), items_of(vals, base, t), valid, fill)
            put(dst, base, t, keys)
            put(dst2, base, t, values)
    else:
        @cuda.jit
        def kernel(src, vals, dst, dst2, valid, fill):
            t = linear_tid()
            base = cuda.blockIdx.x * cuda.blockDim.x * n
            put(dst, base, t, sort(items_of(src, base, t), None, valid, fill))
    return kernel
