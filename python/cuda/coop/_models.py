"""NumPy models of what each cooperative operation computes for one group.

The GPU tests compare the lowered kernels against these functions, and
``python -m cuda.coop.visualize`` draws its pictures from them, so a picture
shows exactly the semantics the GPU matrix checks. Every function works on
one group's tile: thread ``t`` of the group is row ``t`` of a ``[size, ipt]``
array, and its item ``i`` is column ``i``.
"""

from __future__ import annotations

import numpy as np

from ._ods import ENUMS

WARP_THREADS = 32
# The dialect's names (its ODS); the subsets are the verifiers' rules.
BLOCK_LOAD_STORE_ALGORITHMS = ENUMS["Algorithm"]["cases"]
WARP_LOAD_STORE_ALGORITHMS = ("direct", "striped", "vectorize", "transpose")
BLOCK_EXCHANGE_MODES = ENUMS["ExchangeMode"]["cases"]
TIME_SLICED_MODES = ("striped_to_blocked", "blocked_to_striped", "warp_striped_to_blocked",
                     "blocked_to_warp_striped", "scatter_to_blocked", "scatter_to_striped")
WARP_EXCHANGE_MODES = ("striped_to_blocked", "blocked_to_striped", "scatter_to_striped")
SHUFFLE_MODES = ENUMS["ShuffleMode"]["cases"]
BINARY_OPS = ENUMS["BinaryOp"]["cases"]
REDUCE_ALGORITHMS = ENUMS["ReduceAlgorithm"]["cases"]
SCAN_ALGORITHMS = ENUMS["ScanAlgorithm"]["cases"]

# --- Layouts ------------------------------------------------------------------

def position(layout: str, t, i, size: int, ipt: int):
    """The tile position of thread t's item i in `layout` ("blocked",
    "striped" or CUB's "warp_striped"); t and i may be NumPy arrays."""
    if layout == "blocked":
        return t * ipt + i
    if layout == "striped":
        return t + i * size
    warp, lane = np.divmod(t, WARP_THREADS)
    return warp * WARP_THREADS * ipt + lane + WARP_THREADS * i


def load_store_layout(algorithm: str) -> str:
    """The payload layout a load produces and a store expects: every
    algorithm but `striped` works on blocked payloads (the transposes
    rearrange through shared memory, vectorize only widens accesses)."""
    return "striped" if algorithm == "striped" else "blocked"


def item_positions(algorithm: str, size: int, ipt: int, rank=None) -> np.ndarray:
    """Tile positions of the items of the threads of rank `rank` (default:
    every rank of the group), [threads, ipt]."""
    rank = np.arange(size) if rank is None else np.asarray(rank)
    return position(load_store_layout(algorithm), rank[:, None], np.arange(ipt)[None, :],
                    size, ipt)


# --- Load and store -------------------------------------------------------------

def load_model(algorithm: str, tile: np.ndarray, size: int, ipt: int,
               valid: int | None = None, oob=None):
    """The group's payloads after `coop.load` of `tile` (the size * ipt
    elements of memory from the group's offset): (values [size, ipt],
    specified mask). Slots at tile positions >= valid hold oob when it is
    given and are unspecified otherwise."""
    pos = item_positions(algorithm, size, ipt)
    inside = np.ones(pos.shape, bool) if valid is None else pos < valid
    values = np.zeros(pos.shape, tile.dtype)
    values[inside] = tile[pos[inside]]
    if oob is None:
        return values, inside
    values[~inside] = oob
    return values, np.ones(pos.shape, bool)


def store_model(algorithm: str, items: np.ndarray, destination: np.ndarray,
                valid: int | None = None) -> np.ndarray:
    """The group's tile of memory after `coop.store` of `items` [size, ipt]
    over `destination` (the tile's elements before the store): positions
    >= valid keep their old values."""
    size, ipt = items.shape
    pos = item_positions(algorithm, size, ipt)
    inside = np.ones(pos.shape, bool) if valid is None else pos < valid
    out = destination.copy()
    out[pos[inside]] = items[inside]
    return out


# --- Exchange and shuffle ---------------------------------------------------------

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
                p = position(source, t, i, size, ipt)
            tile[p], filled[p] = values[t, i], True
    target = target.replace("_guarded", "").replace("_flagged", "")
    expected = np.zeros_like(values)
    defined = np.zeros(values.shape, bool)
    for t in range(size):
        for i in range(ipt):
            p = position(target, t, i, size, ipt)
            expected[t, i], defined[t, i] = tile[p], filled[p]
    return expected, defined


def shuffle_model(mode: str, values: np.ndarray, distance: int, fill):
    """The block's registers after `mode` ([size, ipt] payloads for up/down,
    [size] scalars for offset/rotate). offset gives a thread whose source
    is outside the block `fill`, or its own value without one."""
    if mode in ("up", "down"):
        flat = values.reshape(-1)
        shifted = np.empty_like(flat)
        # Without fill the vacated slot keeps its input (unspecified by the
        # contract; see shuffle_specified).
        if mode == "up":
            shifted[1:], shifted[0] = flat[:-1], flat[0] if fill is None else fill
        else:
            shifted[:-1], shifted[-1] = flat[1:], flat[-1] if fill is None else fill
        return shifted.reshape(values.shape)
    size = values.shape[0]
    source = np.arange(size) + distance
    if mode == "rotate":
        return values[source % size]
    inside = (source >= 0) & (source < size)
    return np.where(inside, values[np.clip(source, 0, size - 1)],
                    values if fill is None else fill)


def shuffle_specified(mode: str, shape, fill) -> np.ndarray:
    """Which results of `shuffle_model` the contract specifies: all but the
    vacated slot of up/down without `fill`."""
    specified = np.ones(shape, bool)
    if mode in ("up", "down") and fill is None:
        specified[(0, 0) if mode == "up" else (shape[0] - 1, shape[1] - 1)] = False
    return specified


# --- Reduce and scan ----------------------------------------------------------------

def combine(op: str, a, b):
    """One application of a named operator, wrapping like the GPU's integers;
    floats' min and max are fmin and fmax (a NaN yields the other operand)."""
    with np.errstate(over="ignore"):
        if op == "sum":
            return a + b
        if op == "multiplies":
            return a * b
        floating = np.issubdtype(np.asarray(a).dtype, np.floating)
        if op == "min":
            return np.fmin(a, b) if floating else (a if a < b else b)
        if op == "max":
            return np.fmax(a, b) if floating else (b if a < b else a)
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
    """One group's tile scanned in blocked order (shape of `values`) and the
    tile's aggregate (its items combined, without `initial`: CUB's block
    aggregate). An exclusive scan without an initial value leaves item 0
    unspecified; callers that compare it pass the operator's `identity` as
    `initial` (what the lowering produces)."""
    def step(running, x):
        if running is None:
            return x
        return combine(op, running, x) if isinstance(op, str) else op(running, x)

    flat = values.reshape(-1)
    out = np.empty_like(flat)
    running, aggregate = initial, None
    for k, x in enumerate(flat):
        if not inclusive:
            out[k] = running if running is not None else x
        running, aggregate = step(running, x), step(aggregate, x)
        if inclusive:
            out[k] = running
    return out.reshape(values.shape), aggregate


def scan_specified(inclusive: bool, op, initial, shape) -> np.ndarray:
    """Which items of `scan_model`'s result are defined: all but item 0 of
    an exclusive scan by a function without an initial value (a named
    operator starts at its identity: 0 for exclusive_sum)."""
    specified = np.ones(shape, bool)
    if not inclusive and initial is None and not isinstance(op, str):
        specified.reshape(-1)[0] = False
    return specified


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


def select_model(values: np.ndarray, keep: np.ndarray, valid: int | None = None):
    """One group's tile ([size, ipt], blocked order) compacted: the items
    whose `keep` entry is true (among the first `valid`), in order, at the
    front; returns (compacted tile, count). Positions at or past the count
    are unspecified: `select_specified` marks them."""
    flat = values.reshape(-1)
    chosen = keep.reshape(-1).astype(bool)
    if valid is not None:
        chosen = chosen & (np.arange(flat.size) < valid)
    kept = flat[chosen]
    out = np.zeros_like(flat)
    out[:kept.size] = kept
    return out.reshape(values.shape), kept.size


def select_specified(count: int, shape) -> np.ndarray:
    """Which items of `select_model`'s result are defined: the first `count`."""
    return (np.arange(int(np.prod(shape))) < count).reshape(shape)


def reduce_batched_model(op, values: np.ndarray, layout: str = "striped") -> np.ndarray:
    """One (logical) warp's batched reduction: `values` is [W, B] (lane r's
    slot b); returns [W, ceil(B/W)], each lane's result slots (striped: slot
    i of lane r is batch r + i*W; blocked: batch r*ceil(B/W) + i). Slots past
    the last batch are unspecified: `reduce_batched_specified` marks them."""
    width, batches = values.shape
    held = reduce_batched_batches(width, batches, layout)
    out = np.zeros(held.shape, values.dtype)
    for (r, i), b in np.ndenumerate(held):
        if b < batches:
            out[r, i] = reduce_model(op, values[:, b:b + 1])
    return out


def reduce_batched_batches(width: int, batches: int, layout: str = "striped") -> np.ndarray:
    """[W, ceil(B/W)]: the batch each result slot of `reduce_batched_model`
    holds (B and past: none, the slot is unspecified)."""
    slots = -(-batches // width)
    r, i = np.meshgrid(np.arange(width), np.arange(slots), indexing="ij")
    return r + i * width if layout == "striped" else r * slots + i


def reduce_batched_specified(width: int, batches: int, layout: str = "striped") -> np.ndarray:
    """Which result slots of `reduce_batched_model` hold a batch."""
    return reduce_batched_batches(width, batches, layout) < batches



def histogram_model(samples: np.ndarray, bins: int, threads: int, slots: int | None = None,
                    valid: int | None = None, accumulate: np.ndarray | None = None,
                    dtype=np.int32) -> np.ndarray:
    """One block's histogram: `samples` is the block's tile in blocked order
    ([threads, ipt] or [threads]); samples outside [0, bins) (as their
    integers) and at or past `valid` are not counted. Returns the fresh
    striped counters, [threads, slots]: slot i of thread t holds bin t + i*T
    (0 past the last bin), plus `accumulate`'s."""
    flat = np.asarray(samples).reshape(-1).astype(np.int64)
    if valid is not None:
        flat = flat[:valid]
    counts = np.bincount(flat[(flat >= 0) & (flat < bins)], minlength=bins)
    slots = -(-bins // threads) if slots is None else slots
    out = np.zeros(slots * threads, dtype)
    out[:bins] = counts
    striped = out.reshape(slots, threads).T.copy()
    if accumulate is not None:
        striped = striped + accumulate.astype(dtype)
    return striped


def run_length_decode_model(values: np.ndarray, lengths: np.ndarray, threads: int,
                            decoded_per_thread: int, window_offset: int = 0):
    """One block's runs (blocked order: `values` and `lengths` are [threads, R]) decoded:
    returns (window, total), the window [threads, decoded_per_thread] holding stream items
    window_offset + t*D + k (0 past the stream's end) and the stream's length."""
    stream = np.repeat(np.asarray(values).reshape(-1),
                       np.asarray(lengths).reshape(-1).astype(np.int64))
    positions = window_offset + np.arange(threads * decoded_per_thread)
    window = np.zeros(positions.size, stream.dtype if stream.size else values.dtype)
    inside = positions < stream.size
    window[inside] = stream[positions[inside]]
    return window.reshape(threads, decoded_per_thread), stream.size


def radix_ordered_bits(keys: np.ndarray) -> np.ndarray:
    """CUB's bit-ordered form of `keys` as unsigned integers of their width:
    unsigned integers and bools as they are, signed ones with the sign bit
    flipped, floats with the sign bit flipped when positive and every bit when
    negative; -0.0 as +0.0 (radix operations order them as equal)."""
    keys = np.asarray(keys)
    if keys.dtype == np.bool_:
        return keys.astype(np.uint8)
    width = keys.dtype.itemsize * 8
    unsigned = np.dtype(f"uint{width}")
    bits = keys.view(unsigned).copy()
    sign = unsigned.type(1 << (width - 1))
    if keys.dtype.kind == "i":
        return bits ^ sign
    if keys.dtype.kind == "f":
        bits[bits == sign] = 0
        negative = (bits & sign) != 0
        bits[negative] = ~bits[negative]
        bits[~negative] |= sign
    return bits


def radix_digits(keys: np.ndarray, begin_bit: int, end_bit: int) -> np.ndarray:
    """Bits [begin_bit, end_bit) of the keys' bit-ordered form, as uint64."""
    bits = radix_ordered_bits(keys).astype(np.uint64)
    mask = np.uint64((1 << (end_bit - begin_bit)) - 1)
    return (bits >> np.uint64(begin_bit)) & mask


def radix_sort_order(keys: np.ndarray, begin_bit: int = 0, end_bit: int | None = None,
                     descending: bool = False, valid: int | None = None) -> np.ndarray:
    """The input positions of one block's tile (blocked order, flattened) in
    sorted order: stable by bits [begin_bit, end_bit) of the keys'
    bit-ordered form, ascending or descending; with `valid`, only the first
    `valid` keys."""
    flat = np.asarray(keys).reshape(-1)
    if valid is not None:
        flat = flat[:valid]
    width = 8 if flat.dtype == np.bool_ else flat.dtype.itemsize * 8
    key = radix_digits(flat, begin_bit, width if end_bit is None else end_bit)
    return np.argsort(~key if descending else key, kind="stable")


def radix_rank_model(keys: np.ndarray, begin_bit: int, radix_bits: int, threads: int,
                     descending: bool = False):
    """One block's ranks (blocked order, the keys' shape) by the digit of bits
    [begin_bit, begin_bit + radix_bits) and the digit prefix, [threads, P]:
    slot i of thread t holds the count of keys ranked before bin t*P + i (keys
    of greater digits with `descending`; 0 past the last bin)."""
    flat = np.asarray(keys).reshape(-1)
    digits = radix_digits(flat, begin_bit, begin_bit + radix_bits).astype(np.int64)
    order = np.argsort(-digits if descending else digits, kind="stable")
    ranks = np.empty(flat.size, np.int32)
    ranks[order] = np.arange(flat.size, dtype=np.int32)
    bins = 1 << radix_bits
    counts = np.bincount(digits, minlength=bins)
    before = np.cumsum(counts[::-1])[::-1] - counts if descending else np.cumsum(counts) - counts
    per_thread = max(1, -(-bins // threads))
    prefix = np.zeros(threads * per_thread, np.int32)
    prefix[:bins] = before
    return ranks.reshape(np.asarray(keys).shape), prefix.reshape(threads, per_thread)
