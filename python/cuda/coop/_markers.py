"""Payloads, temporary storage, prefix functions and the cooperative
operations: load and store, exchange, shuffle, reduce, sum and the scans.

These are compiler markers: a registered backend types and lowers them inside
kernels. Called in plain Python they raise, naming the fix.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

_T = TypeVar("_T")


class CompilerMarkerError(RuntimeError):
    """A cuda.coop primitive was called outside a compiled kernel."""


# Backends that compile a kernel by running its Python (CuTe DSL traces it):
# each takes the operation's name and the call's arguments by parameter name
# and returns the call's result, or NotImplemented when it is not tracing.
_tracers: list = []


def _outside_kernel(name: str, arguments: dict | None = None):
    for tracer in _tracers:
        result = tracer(name, arguments or {})
        if result is not NotImplemented:
            return result
    raise CompilerMarkerError(
        f"cuda.coop.{name}() runs only inside a GPU kernel compiled by a registered "
        "backend, e.g. a @numba_cuda_mlir.cuda.jit kernel after "
        "cuda.coop.register('numba-cuda-mlir'), or a CuTe DSL kernel after "
        "cuda.coop.register('cute')")


@runtime_checkable
class ThreadDataLike(Protocol[_T]):
    """Mutable fixed-size per-thread payload understood by supported backends.

    Generic in the item type: ``ThreadDataLike[numpy.int32]``,
    ``ThreadDataLike[int]``.
    """

    @property
    def items_per_thread(self) -> int: ...

    def __getitem__(self, index: int) -> _T: ...

    def __setitem__(self, index: int, value: _T) -> None: ...


@runtime_checkable
class TempStorageLike(Protocol):
    """Explicit scratch descriptor understood by supported backends."""

    @property
    def size_in_bytes(self) -> int | None: ...

    @property
    def alignment(self) -> int | None: ...

    @property
    def auto_sync(self) -> bool: ...

    @property
    def sharing(self) -> str: ...


def ThreadData(items_per_thread: int, dtype: object | None = None, *,
               alignment: int | None = None) -> ThreadDataLike[Any]:
    """A fixed-size payload of ``items_per_thread`` items owned by the calling
    thread (uninitialized). The dtype is usually inferred from the operation
    that fills it."""
    return _outside_kernel("ThreadData", locals())


def TempStorage(size_in_bytes: int | None = None, *, alignment: int | None = None,
                auto_sync: bool | None = False, sharing: str = "shared") -> TempStorageLike:
    """Shared scratch for the block operations that use it: transpose-family
    loads and stores, exchanges, shuffles, block reductions and scans."""
    return _outside_kernel("TempStorage", locals())


class StatefulFunction:
    """A function with state, the ``prefix_op`` of block scans over many
    tiles (CUB's block prefix callback).

    Once per scan, the block's first thread calls
    ``function(state, tile_aggregate)``; the value it returns is combined
    before every item of the tile, and the function may update ``state`` (a
    1-element local or shared array) to carry a running total to the next
    tile::

        def running_total(state, aggregate):
            prefix = state[0]
            state[0] = prefix + aggregate
            return prefix

        state = cuda.local.array(1, numpy.int32)
        state[0] = 0
        prefix = coop.StatefulFunction(running_total, state)
        for tile in range(tiles):
            ...
            scanned = coop.exclusive_sum(block, items, prefix_op=prefix)
    """

    __slots__ = ("function", "state")

    def __init__(self, function, state):
        if not callable(function):
            raise TypeError(f"StatefulFunction's function must be callable as "
                            f"function(state, tile_aggregate); got {function!r}")
        self.function = function
        self.state = state

    def __call__(self, tile_aggregate):
        return self.function(self.state, tile_aggregate)

    def __repr__(self) -> str:
        return f"StatefulFunction({self.function!r}, {self.state!r})"


def load(group, source, output, /, *, algorithm="direct", valid_items=None,
         oob_default=None, offset=None, temp_storage=None):
    """Load a group tile from ``source`` into each thread's ``output``;
    returns ``output``."""
    return _outside_kernel("load", locals())


def store(group, destination, value, /, *, algorithm="direct", valid_items=None,
          offset=None, temp_storage=None) -> None:
    """Store a group tile from each thread's ``value`` into ``destination``."""
    return _outside_kernel("store", locals())


def exchange(group, value, /, *, mode="striped_to_blocked", ranks=None, valid_flags=None,
             warp_time_slicing=False, temp_storage=None) -> ThreadDataLike[Any]:
    """Rearrange the group's tile between layouts (CUB's BlockExchange /
    WarpExchange); returns a fresh payload."""
    return _outside_kernel("exchange", locals())


def shuffle(block, value, /, *, mode="down", distance=1, fill=None, block_prefix=False,
            block_suffix=False, temp_storage=None):
    """Move values between neighbouring threads of a block (CUB's
    BlockShuffle); returns a fresh payload ("up"/"down", with the item
    shifted out of the tile when asked: ``block_suffix`` for "up",
    ``block_prefix`` for "down") or a scalar ("offset"/"rotate")."""
    return _outside_kernel("shuffle", locals())


def reduce(group, value, /, binary_op="sum", *, valid_items=None, broadcast=True,
           algorithm=None, temp_storage=None):
    """Combine the group's items into one value (CUB's BlockReduce /
    WarpReduce; a thread group reduces the thread's own items)."""
    return _outside_kernel("reduce", locals())


def sum(group, value, /, *, valid_items=None, broadcast=True, algorithm=None,
        temp_storage=None):
    """``reduce(group, value, "sum", ...)``."""
    return _outside_kernel("sum", locals())


def scan(group, value, /, *, mode="exclusive", scan_op="sum", initial_value=None,
         valid_items=None, block_aggregate=False, prefix_op=None, algorithm=None, temp_storage=None):
    """Prefix scan of the group's tile in blocked order (CUB's BlockScan /
    WarpScan); returns a fresh payload or scalar, and with
    ``block_aggregate=True`` also the tile's aggregate."""
    return _outside_kernel("scan", locals())


def inclusive_scan(group, value, /, scan_op="sum", *, initial_value=None,
                   valid_items=None, block_aggregate=False, prefix_op=None, algorithm=None, temp_storage=None):
    """``scan(..., mode="inclusive")``."""
    return _outside_kernel("inclusive_scan", locals())


def exclusive_scan(group, value, /, scan_op="sum", *, initial_value=None,
                   valid_items=None, block_aggregate=False, prefix_op=None, algorithm=None, temp_storage=None):
    """``scan(..., mode="exclusive")``."""
    return _outside_kernel("exclusive_scan", locals())


def inclusive_sum(group, value, /, *, valid_items=None, block_aggregate=False, prefix_op=None,
                  algorithm=None, temp_storage=None):
    """``inclusive_scan(group, value, "sum", ...)``."""
    return _outside_kernel("inclusive_sum", locals())


def exclusive_sum(group, value, /, *, valid_items=None, block_aggregate=False, prefix_op=None,
                  algorithm=None, temp_storage=None):
    """``exclusive_scan(group, value, "sum", ...)``; the first item is 0."""
    return _outside_kernel("exclusive_sum", locals())


def select(group, values, /, *, flags=None, predicate=None, valid_items=None,
           temp_storage=None):
    """Order-preserving compaction of the group's tile (blocked order): the
    items whose flag is non-zero, or for which ``predicate(item)`` is true,
    move in order to the front; returns ``(selected, count)``, ``count`` an
    int32 in every thread."""
    return _outside_kernel("select", locals())


def reduce_batched(warp_group, value, /, *, binary_op="sum", output_layout="striped"):
    """Reduce each slot of the (logical) warp's payloads over the warp (CUB's
    WarpReduceBatched): slot b of every lane is batch b; returns a fresh
    payload of ceil(B/W) slots, striped (slot i of lane r: batch r + i*W) or
    blocked (batch r*ceil(B/W) + i)."""
    return _outside_kernel("reduce_batched", locals())


def histogram(block, samples, /, *, bins, bins_per_thread=None, counter_dtype=None,
              algorithm="atomic", valid_items=None, accumulate=None, out=None,
              temp_storage=None):
    """Count the block's samples (bin numbers) into ``bins`` bins (CUB's
    BlockHistogram): returns fresh striped counters (slot i of thread t: bin
    ``t + i*T``), plus ``accumulate``'s counts when given; with ``out`` (a
    shared or global array the caller zeroes) adds the counts into it by
    atomics and returns None. Samples outside ``[0, bins)`` and past
    ``valid_items`` are not counted."""
    return _outside_kernel("histogram", locals())


def run_length_decode(block, run_values, run_lengths, /, *, decoded_items_per_thread,
                      decoded_window_offset=0, total_decoded_size=False,
                      decoded_offset_dtype=None, temp_storage=None):
    """Expand the block's runs (blocked order: run r is ``run_lengths[r]``
    copies of ``run_values[r]``) into one window of the decoded stream (CUB's
    BlockRunLengthDecode): thread t gets items ``decoded_window_offset +
    t*D .. + D - 1`` (D = ``decoded_items_per_thread``), 0 past the end; with
    ``total_decoded_size=True`` also the stream's length."""
    return _outside_kernel("run_length_decode", locals())


def run_length_decode_into(block, run_values, run_lengths, destination, /, *,
                           decoded_items_per_thread, destination_offset=0,
                           decoded_offset_dtype=None, temp_storage=None):
    """Write the block's whole decoded stream to
    ``destination[destination_offset:]`` (at most as many items as it holds
    there), a window of ``T*decoded_items_per_thread`` items at a time;
    returns the stream's length to every thread."""
    return _outside_kernel("run_length_decode_into", locals())


def radix_rank_keys(block, keys, /, *, begin_bit=0, end_bit=None, radix_bits=None,
                    descending=False, exclusive_digit_prefix=False, algorithm=None):
    """Each key's stable rank (int32) in the block's order by the digit of bits
    ``[begin_bit, end_bit)`` of its bit-ordered form (CUB's BlockRadixRank;
    1 to 8 bits, ``end_bit`` defaulting to ``begin_bit + (radix_bits or 4)``),
    keys in blocked order; with ``exclusive_digit_prefix=True`` also each
    thread's digit prefix (slot i of thread t: the keys ranked before bin
    ``t*P + i``), or the payload given there filled with it."""
    return _outside_kernel("radix_rank_keys", locals())


radix_rank = radix_rank_keys


def radix_sort_keys(block, keys, /, *, begin_bit=0, end_bit=None, descending=False,
                    blocked_to_striped=False, valid_items=None, temp_storage=None):
    """The block's keys (blocked order) sorted stably by bits ``[begin_bit,
    end_bit)`` of their bit-ordered form (CUB's BlockRadixSort): a fresh
    payload, blocked (item i of thread t: sorted position ``t*ipt + i``) or
    with ``blocked_to_striped=True`` striped (``i*T + t``). With
    ``valid_items`` only the first keys take part and the first
    ``valid_items`` outputs are defined."""
    return _outside_kernel("radix_sort_keys", locals())


def radix_sort_pairs(block, keys, values, /, *, begin_bit=0, end_bit=None, descending=False,
                     blocked_to_striped=False, valid_items=None, temp_storage=None):
    """``radix_sort_keys`` moving each key's value with it: returns
    ``(keys, values)``."""
    return _outside_kernel("radix_sort_pairs", locals())


def argsort(block, keys, /, *, descending=False, valid_items=None, temp_storage=None):
    """The block's keys sorted stably (as ``radix_sort_keys``) and the int32
    tile position each sorted key had in the input: returns
    ``(sorted_keys, indices)``."""
    return _outside_kernel("argsort", locals())


def topk_max_keys(block, keys, /, *, k, valid_items=None, sorted=False, temp_storage=None):
    """The ``k`` largest of the first ``valid_items`` keys (``k`` and
    ``valid_items`` runtime, the same in every thread) in the first ``min(k,
    valid_items)`` tile positions (blocked order); with ``sorted=True`` in
    descending order, equal keys in their input order (the earlier first,
    also in which equal keys at the k-th place are chosen)."""
    return _outside_kernel("topk_max_keys", locals())


def topk_min_keys(block, keys, /, *, k, valid_items=None, sorted=False, temp_storage=None):
    """``topk_max_keys`` for the ``k`` smallest keys (ascending with
    ``sorted=True``)."""
    return _outside_kernel("topk_min_keys", locals())


def topk_max_pairs(block, keys, values, /, *, k, valid_items=None, sorted=False,
                   temp_storage=None):
    """``topk_max_keys`` moving each key's value with it: returns ``(keys,
    values)``."""
    return _outside_kernel("topk_max_pairs", locals())


def topk_min_pairs(block, keys, values, /, *, k, valid_items=None, sorted=False,
                   temp_storage=None):
    """``topk_min_keys`` moving each key's value with it: returns ``(keys,
    values)``."""
    return _outside_kernel("topk_min_pairs", locals())


def merge_sort_keys(group, keys, /, *, compare_op=None, descending=False, stable=False,
                    valid_items=None, oob_default=None, temp_storage=None):
    """The group's keys (blocked order; a block of a power-of-two thread count,
    a warp or a logical warp) sorted by ``compare_op(a, b)`` ("a orders before
    b", default ``<``), reversed with ``descending=True`` (CUB's
    BlockMergeSort, WarpMergeSort): a fresh payload, blocked. The sort is
    stable. With ``valid_items``, the keys past it become ``oob_default``,
    which must order last."""
    return _outside_kernel("merge_sort_keys", locals())


def merge_sort_pairs(group, keys, values, /, *, compare_op=None, descending=False,
                     stable=False, valid_items=None, oob_default=None, temp_storage=None):
    """``merge_sort_keys`` moving each key's value with it: returns ``(keys,
    values)``."""
    return _outside_kernel("merge_sort_pairs", locals())
