"""The visualizer's pages: for every combination of a page's controls, the
frame that cuda.coop._models computes for it.

Tiles hold their positions as values where an operation only moves data
(load, exchange, shuffle), so a cell's label says which tile element a
thread owns; store labels an item "t.i" (thread t's item i) to show who
writes each element; reduce and scan combine small integers.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .. import _models as models
from ._frames import GRAY, SPECIAL, Frame, Panel, encode_level, hue

IPT = (1, 2, 3, 4)
# Group kinds and their sizes: bounded so that every combination can be
# precomputed and a tile fits on a screen.
GROUPS = (("block", (32, 64)), ("warp", (32,)), ("logical warp", (4, 8, 16)))
OOB_DEFAULTS = ("None", "0", "-1")
# Large enough that no oob_default or fill is mistaken for a tile element.
ELEMENT_BASE = 10_000


@dataclasses.dataclass
class Page:
    name: str
    title: str
    about: str            # one paragraph of HTML
    tree: dict            # the encoded control tree (see _frames)


def _by_group(groups, build):
    """The group-kind and size levels over `build(kind, size)`."""
    return encode_level("group", [
        (kind, encode_level("threads", [(str(size), build(kind, size)) for size in sizes]))
        for kind, sizes in groups])


def _element_labels(values: np.ndarray, specified: np.ndarray, count: int):
    """Labels and colours of cells holding tile elements (values >=
    ELEMENT_BASE) or a value the call supplies."""
    labels, colors = [], []
    for value, known in zip(values.reshape(-1), specified.reshape(-1)):
        if not known:
            labels.append("?"), colors.append(GRAY)
        elif value >= ELEMENT_BASE:
            labels.append(str(int(value) - ELEMENT_BASE))
            colors.append(hue(int(value) - ELEMENT_BASE, count))
        else:
            labels.append(str(int(value))), colors.append(SPECIAL)
    return labels, colors


def _tile_panel(title: str, count: int, valid: int | None, unused: str) -> Panel:
    """The tile in memory, elements past `valid` grayed."""
    labels = [str(k) if valid is None or k < valid else unused for k in range(count)]
    colors = [hue(k, count) if valid is None or k < valid else GRAY for k in range(count)]
    return Panel(title, "memory", 1, labels, colors)


# --- load and store -----------------------------------------------------------------

def _algorithms(kind: str):
    return (models.BLOCK_LOAD_STORE_ALGORITHMS if kind == "block"
            else models.WARP_LOAD_STORE_ALGORITHMS)


def _load_frame(algorithm, size, ipt, valid, oob) -> Frame:
    count = size * ipt
    tile = np.arange(count) + ELEMENT_BASE
    values, specified = models.load_model(algorithm, tile, size, ipt, valid, oob)
    labels, colors = _element_labels(values, specified, count)
    return Frame([_tile_panel("memory: the group's tile from offset", count, valid, "·"),
                  Panel(f"payloads after load: {models.load_store_layout(algorithm)}",
                        "threads", ipt, labels, colors)])


def _valid_level(count: int, frame, with_none: bool):
    options = [("None", frame(None))] if with_none else []
    # Without a None option (oob_default given) start at three quarters of the tile.
    return encode_level("valid_items", options + [(str(v), frame(v)) for v in range(count + 1)],
                        "range", None if with_none else str(count * 3 // 4))


def load_page() -> Page:
    def by_oob(algorithm, size, ipt):
        return encode_level("oob_default", [
            (oob, _valid_level(size * ipt, lambda v: _load_frame(
                algorithm, size, ipt, v, None if oob == "None" else int(oob)), oob == "None"))
            for oob in OOB_DEFAULTS])

    tree = _by_group(GROUPS, lambda kind, size: encode_level("algorithm", [
        (a, encode_level("items_per_thread", [(str(ipt), by_oob(a, size, ipt)) for ipt in IPT]))
        for a in _algorithms(kind)]))
    return Page("load", "coop.load", (
        "A group loads its tile: <code>group_size * items_per_thread</code> elements from "
        "<code>offset</code>. Each cell shows the tile element a thread's item holds. Past "
        "<code>valid_items</code> an item holds <code>oob_default</code> (dark) or is "
        "unspecified (?)."),
        tree)


def _store_frame(algorithm, size, ipt, valid) -> Frame:
    count = size * ipt
    items = np.arange(count).reshape(size, ipt)
    memory = models.store_model(algorithm, items, np.full(count, -1), valid)

    def label(item):
        return f"{item // ipt}.{item % ipt}"

    before = Panel(f"payloads before store (thread.item), read as "
                   f"{models.load_store_layout(algorithm)}", "threads", ipt,
                   [label(k) for k in range(count)], [hue(k // ipt, size) for k in range(count)])
    after = Panel("memory after store: which thread.item wrote each element", "memory", 1,
                  [label(m) if m >= 0 else "·" for m in memory],
                  [hue(m // ipt, size) if m >= 0 else GRAY for m in memory])
    return Frame([before, after])


def store_page() -> Page:
    tree = _by_group(GROUPS, lambda kind, size: encode_level("algorithm", [
        (a, encode_level("items_per_thread", [
            (str(ipt), _valid_level(size * ipt, lambda v, a=a, ipt=ipt: _store_frame(
                a, size, ipt, v), True)) for ipt in IPT]))
        for a in _algorithms(kind)]))
    return Page("store", "coop.store", (
        "A group stores its tile. Each item is labelled thread.item and coloured by thread; "
        "the memory row shows which item each element receives. Elements past "
        "<code>valid_items</code> are not written (·)."),
        tree)


# --- exchange and shuffle ---------------------------------------------------------

def _exchange_inputs(mode, size, ipt):
    """Each item's value is its tile position in the source layout; scatter
    modes send item k of the blocked tile to position count-1-k (guarded:
    every third item has rank -1; flagged: every third flag is off)."""
    t, i = np.arange(size)[:, None], np.arange(ipt)[None, :]
    source = mode.split("_to_")[0]
    blocked = t * ipt + i
    if source != "scatter":
        return models.position(source, t, i, size, ipt), None, None
    ranks = size * ipt - 1 - blocked
    flags = (blocked % 3 != 2).astype(np.int32)
    if mode.endswith("guarded"):
        ranks = np.where(blocked % 3 == 2, -1, ranks)
    return blocked, ranks, flags


def _exchange_frame(mode, size, ipt) -> Frame:
    count = size * ipt
    values, ranks, flags = _exchange_inputs(mode, size, ipt)
    after, defined = models.exchange_model(mode, values + ELEMENT_BASE, ranks, flags)
    source, target = mode.split("_to_")
    panels = [Panel(f"payloads before: {source}", "threads", ipt,
                    [str(v) for v in values.reshape(-1)],
                    [hue(v, count) for v in values.reshape(-1)])]
    if ranks is not None:
        # Items not exchanged: a negative rank (guarded) or a flag off (flagged, ×).
        flagged = mode.endswith("flagged")
        sent = (flags != 0) if flagged else (ranks >= 0)
        panels.append(Panel("ranks: where each item goes", "threads", ipt,
                            [str(r) if ok or not flagged else "×"
                             for r, ok in zip(ranks.reshape(-1), sent.reshape(-1))],
                            [hue(r, count) if ok else GRAY
                             for r, ok in zip(ranks.reshape(-1), sent.reshape(-1))]))
    labels, colors = _element_labels(after, defined, count)
    panels.append(Panel(f"payloads after: {target.split('_guarded')[0].split('_flagged')[0]}",
                        "threads", ipt, labels, colors))
    return Frame(panels)


def exchange_page() -> Page:
    def modes(kind):
        return models.BLOCK_EXCHANGE_MODES if kind == "block" else models.WARP_EXCHANGE_MODES

    tree = _by_group(GROUPS, lambda kind, size: encode_level("mode", [
        (mode, encode_level("items_per_thread", [
            (str(ipt), _exchange_frame(mode, size, ipt)) for ipt in IPT]))
        for mode in modes(kind)]))
    return Page("exchange", "coop.exchange", (
        "An exchange rearranges the group's tile between layouts; each cell shows the tile "
        "position an item holds. <code>warp_striped</code> is CUB's layout: warp w, lane l owns "
        "<code>w*32*ipt + l + 32*i</code>. <code>warp_time_slicing</code> changes only how "
        "much shared memory is used, not the result."),
        tree)


def _shuffle_frame(mode, size, ipt, distance, fill) -> Frame:
    scalar = mode in ("offset", "rotate")
    per_thread = 1 if scalar else ipt
    count = size * per_thread
    values = np.arange(count).reshape(size, per_thread) + ELEMENT_BASE
    if scalar:
        after = models.shuffle_model(mode, values[:, 0], distance, fill)[:, None]
        specified = np.ones(after.shape, bool)
    else:
        after = models.shuffle_model(mode, values, 1, fill)
        specified = models.shuffle_specified(mode, values.shape, fill)
    labels, colors = _element_labels(after, specified, count)
    what = "values" if scalar else "payloads"
    return Frame([Panel(f"{what} before", "threads", per_thread,
                        [str(k) for k in range(count)], [hue(k, count) for k in range(count)]),
                  Panel(f"{what} after shuffle", "threads", per_thread, labels, colors)])


def shuffle_page() -> Page:
    fills = ("None", "-1")

    def by_mode(size):
        options = []
        for mode in models.SHUFFLE_MODES:
            if mode in ("up", "down"):
                level = encode_level("items_per_thread", [
                    (str(ipt), encode_level("fill", [
                        (f, _shuffle_frame(mode, size, ipt, 1, None if f == "None" else -1))
                        for f in fills])) for ipt in IPT])
            elif mode == "offset":
                level = encode_level("fill", [
                    (f, encode_level("distance", [
                        (str(d), _shuffle_frame(mode, size, 1, d, None if f == "None" else -1))
                        for d in range(-size, size + 1)], "range", "1")) for f in fills])
            else:
                level = encode_level("distance", [
                    (str(d), _shuffle_frame(mode, size, 1, d, None)) for d in range(size)],
                    "range", "1")
            options.append((mode, level))
        return encode_level("mode", options)

    tree = _by_group((("block", (8, 32, 64)),), lambda kind, size: by_mode(size))
    return Page("shuffle", "coop.shuffle", (
        "A block shuffle. <code>up</code>/<code>down</code> shift the block's blocked tile by "
        "one element (the vacated one is <code>fill</code>, dark, or unspecified); "
        "<code>offset</code>/<code>rotate</code> give each thread the scalar of the thread "
        "<code>distance</code> ranks above it (offset: outside the block, <code>fill</code> or "
        "its own value; rotate: modulo the block size)."),
        tree)


# --- reduce and scan ------------------------------------------------------------------

COMBINE_OPS = ("sum", "min", "max")
COMBINING_GROUPS = GROUPS + (("thread", (1,)),)


def combining_values(size: int, ipt: int) -> np.ndarray:
    """The small integers the reduce and scan pages combine."""
    k = np.arange(size * ipt)
    return ((5 * k + 3) % 11).reshape(size, ipt)


def _items_panel(title, values, valid=None):
    count = values.size
    flat = values.reshape(-1)
    inside = [valid is None or k < valid for k in range(count)]
    return Panel(title, "threads", values.shape[1], [str(v) for v in flat],
                 [hue(k, count) if inside[k] else GRAY for k in range(count)])


def _reduce_frame(op, size, ipt, broadcast, valid) -> Frame:
    values = combining_values(size, ipt)
    total = models.reduce_model(op, values, valid)
    labels = [str(total) if broadcast or t == 0 else "?" for t in range(size)]
    colors = [SPECIAL if broadcast or t == 0 else GRAY for t in range(size)]
    return Frame([_items_panel("payloads (gray: past valid_items, not combined)", values, valid),
                  Panel("result of reduce in each thread", "threads", 1, labels, colors)],
                 f"aggregate = {total}")


def reduce_page() -> Page:
    tree = _by_group(COMBINING_GROUPS, lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("binary_op", [
            (op, encode_level("broadcast", [
                (b, encode_level("valid_items", [("None", _reduce_frame(op, size, ipt, b == "True",
                                                                        None))]
                                 + [(str(v), _reduce_frame(op, size, ipt, b == "True", v))
                                    for v in range(1, size * ipt + 1)], "range"))
                for b in ("True", "False")]))
            for op in COMBINE_OPS])) for ipt in IPT]))
    return Page("reduce", "coop.reduce", (
        "A reduction combines the first <code>valid_items</code> items of the group's tile "
        "(blocked order). With <code>broadcast=True</code> every thread receives the "
        "aggregate; with <code>False</code> only rank 0 does."),
        tree)


def _scan_frame(op, size, ipt, inclusive, initial) -> Frame:
    values = combining_values(size, ipt)
    seed = initial if initial is not None or inclusive else models.identity(op, np.int32)
    scanned, total = models.scan_model(op, values, inclusive, seed)
    specified = models.scan_specified(inclusive, op, initial, values.shape)
    count = values.size
    labels = [str(v) if s else "?" for v, s in zip(scanned.reshape(-1), specified.reshape(-1))]
    colors = [hue(k, count) if s else GRAY for k, s in enumerate(specified.reshape(-1))]
    mode = "inclusive" if inclusive else "exclusive"
    return Frame([_items_panel("payloads before", values),
                  Panel(f"payloads after the {mode} scan", "threads", ipt, labels, colors)],
                 f"the tile's aggregate (block_aggregate) = {total}")


def scan_page() -> Page:
    tree = _by_group(GROUPS, lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("mode", [
            (mode, encode_level("scan_op", [
                (op, encode_level("initial_value", [
                    (init, _scan_frame(op, size, ipt, mode == "inclusive",
                                       None if init == "None" else int(init)))
                    for init in ("None", "0", "10")]))
                for op in COMBINE_OPS]))
            for mode in ("inclusive", "exclusive")])) for ipt in IPT]))
    return Page("scan", "coop.scan", (
        "A scan over the group's tile in blocked order. Inclusive: item k combines items "
        "0..k; exclusive: items 0..k-1, seeded by <code>initial_value</code>; without one, "
        "a named operator's identity for int32 items (0 for <code>exclusive_sum</code>; a "
        "Python function would leave item 0 unspecified)."),
        tree)


# --- select ---------------------------------------------------------------------------

SELECT_DENSITIES = (("third", 3), ("half", 2), ("all", 1), ("none", 0))


def _select_keep(size: int, ipt: int, every: int) -> np.ndarray:
    k = np.arange(size * ipt)
    keep = (k % every == 0) if every else np.zeros(k.size, bool)
    return keep.reshape(size, ipt)


def _select_frame(size, ipt, every, valid) -> Frame:
    count = size * ipt
    positions = np.arange(count).reshape(size, ipt) + ELEMENT_BASE
    keep = _select_keep(size, ipt, every)
    selected, kept = models.select_model(positions, keep, valid)
    before = [str(k) if keep.reshape(-1)[k] and (valid is None or k < valid) else "-"
              for k in range(count)]
    colors = [hue(k, count) if keep.reshape(-1)[k] and (valid is None or k < valid) else GRAY
              for k in range(count)]
    labels, after_colors = _element_labels(selected, models.select_specified(kept, (size, ipt)),
                                           count)
    return Frame([Panel("payloads before (flags set: the element's position; gray: not "
                        "selected or past valid_items)", "threads", ipt, before, colors),
                  Panel("payloads after select", "threads", ipt, labels, after_colors)],
                 f"count = {kept}")


def select_page() -> Page:
    tree = _by_group(GROUPS, lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("flags", [
            (name, encode_level("valid_items", [("None", _select_frame(size, ipt, every, None))]
                                + [(str(v), _select_frame(size, ipt, every, v))
                                   for v in range(1, size * ipt + 1)], "range"))
            for name, every in SELECT_DENSITIES])) for ipt in IPT]))
    return Page("select", "coop.select", (
        "A select moves the items of the group's tile (blocked order) whose flag is set, or "
        "for which the predicate is true, to the front of the tile, in order; every thread "
        "gets the count. Items at or past <code>valid_items</code> are never selected, and "
        "positions at or past the count are unspecified."),
        tree)


# --- batched warp reductions -----------------------------------------------------------

BATCHES = (1, 3, 4, 8, 16)
WARP_GROUPS = GROUPS[1:]


def _reduce_batched_frame(op, width, batches, layout) -> Frame:
    values = combining_values(width, batches)
    results = models.reduce_batched_model(op, values, layout)
    batch = models.reduce_batched_batches(width, batches, layout)
    specified = batch < batches
    slots = results.shape[1]
    labels = [str(int(v)) if known else "?"
              for v, known in zip(results.reshape(-1), specified.reshape(-1))]
    colors = [hue(int(b), batches) if known else GRAY
              for b, known in zip(batch.reshape(-1), specified.reshape(-1))]
    before = Panel("payloads before: slot b of every lane is that lane's item of batch b",
                   "threads", batches, [str(int(v)) for v in values.reshape(-1)],
                   [hue(b, batches) for _ in range(width) for b in range(batches)])
    where = ("slot i of lane r holds batch r + i*W" if layout == "striped"
             else "slot i of lane r holds batch r*S + i")
    return Frame([before,
                  Panel(f"results after reduce_batched ({layout}: {where}; the color is the "
                        "batch; ?: no batch, unspecified)", "threads", slots, labels, colors)])


def reduce_batched_page() -> Page:
    tree = _by_group(WARP_GROUPS, lambda kind, size: encode_level("batches", [
        (str(batches), encode_level("binary_op", [
            (op, encode_level("output_layout", [
                (layout, _reduce_batched_frame(op, size, batches, layout))
                for layout in ("striped", "blocked")]))
            for op in COMBINE_OPS])) for batches in BATCHES]))
    return Page("reduce_batched", "coop.reduce_batched", (
        "A batched warp reduction reduces B independent batches at once: slot b of every "
        "lane holds that lane's item of batch b, and each batch's total over the W lanes "
        "lands in one slot of one lane, ceil(B/W) slots a lane, striped (batch r + i*W in "
        "slot i of lane r) or blocked (batch r*ceil(B/W) + i). Slots that hold no batch "
        "are unspecified."),
        tree)


# --- histogram -------------------------------------------------------------------------

HISTOGRAM_BINS = (4, 10, 40, 100)


def histogram_samples(size: int, ipt: int, bins: int) -> np.ndarray:
    """Samples over the bins and one past each end (-1 and `bins`: not counted)."""
    k = np.arange(size * ipt)
    return ((k * 7 + k // 3) % (bins + 2) - 1).reshape(size, ipt)


def _histogram_frame(size, ipt, bins, valid) -> Frame:
    samples = histogram_samples(size, ipt, bins)
    flat = samples.reshape(-1)
    counted = (flat >= 0) & (flat < bins) & (np.arange(flat.size) < (valid or flat.size))
    colors = [hue(int(v), bins) if c else GRAY for v, c in zip(flat, counted)]
    counters = models.histogram_model(samples, bins, size, valid=valid)
    slots = counters.shape[1]
    bin_of = np.arange(size)[:, None] + np.arange(slots)[None, :] * size
    labels = [str(int(c)) for c in counters.reshape(-1)]
    counter_colors = [hue(int(b), bins) if b < bins else GRAY for b in bin_of.reshape(-1)]
    return Frame([Panel("samples (gray: outside [0, bins) or past valid_items, not counted)",
                        "threads", ipt, [str(int(v)) for v in flat], colors),
                  Panel(f"counters after histogram: slot i of thread t counts bin t + i*{size}",
                        "threads", slots, labels, counter_colors)])


def histogram_page() -> Page:
    tree = _by_group(GROUPS[:1], lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("bins", [
            (str(bins), encode_level("valid_items", [("None", _histogram_frame(size, ipt, bins,
                                                                               None))]
                                     + [(str(v), _histogram_frame(size, ipt, bins, v))
                                        for v in range(0, size * ipt + 1, 4)], "range"))
            for bins in HISTOGRAM_BINS])) for ipt in IPT]))
    return Page("histogram", "coop.histogram", (
        "A block histogram counts each sample of the block's tile in its bin. The fresh "
        "counters are striped: slot i of thread t counts bin t + i*T, and slots past the "
        "last bin hold 0. Samples outside [0, bins) and at or past <code>valid_items</code> "
        "are not counted."),
        tree)


# --- run-length decode ------------------------------------------------------------------

RUNS_PER_THREAD = (1, 2)
DECODED_PER_THREAD = (1, 2, 3)


def run_lengths(size: int, runs: int) -> np.ndarray:
    """Lengths 0 to 3 in no regular pattern (zero-length runs included)."""
    k = np.arange(size * runs)
    return ((k * 5 + k // 4) % 4).reshape(size, runs)


def _run_length_frame(size, runs, decoded, offset) -> Frame:
    values = np.arange(size * runs).reshape(size, runs) + ELEMENT_BASE
    lengths = run_lengths(size, runs)
    window, total = models.run_length_decode_model(values, lengths, size, decoded, offset)
    count = size * runs
    before = [f"{int(v) - ELEMENT_BASE}x{int(n)}" for v, n in zip(values.reshape(-1),
                                                                  lengths.reshape(-1))]
    colors = [hue(k, count) if n else GRAY for k, n in enumerate(lengths.reshape(-1))]
    labels, after = [], []
    for position, v in zip(range(offset, offset + size * decoded), window.reshape(-1)):
        if position < total:
            labels.append(str(int(v) - ELEMENT_BASE)), after.append(hue(int(v) - ELEMENT_BASE,
                                                                        count))
        else:
            labels.append("0"), after.append(SPECIAL)
    return Frame([Panel("runs (run r x its length; gray: zero-length)", "threads", runs,
                        before, colors),
                  Panel("decoded window (the run each item comes from; 0: past the end)",
                        "threads", decoded, labels, after)],
                 f"total_decoded_size = {total}")


def run_length_decode_page() -> Page:
    tree = _by_group(GROUPS[:1], lambda kind, size: encode_level("runs_per_thread", [
        (str(runs), encode_level("decoded_items_per_thread", [
            (str(decoded), encode_level("decoded_window_offset", [
                (str(o), _run_length_frame(size, runs, decoded, o))
                for o in range(0, 3 * size * runs + 1, size // 2)], "range"))
            for decoded in DECODED_PER_THREAD])) for runs in RUNS_PER_THREAD]))
    return Page("run_length_decode", "coop.run_length_decode", (
        "Run-length decoding expands the block's runs (blocked order: run r is its length's "
        "copies of its value) into a window of the decoded stream: thread t receives items "
        "offset + t*D .. offset + t*D + D - 1, and 0 past the stream's end. Zero-length runs "
        "may be anywhere."),
        tree)


# --- radix sort ------------------------------------------------------------------------

def radix_sort_keys(size: int, ipt: int) -> np.ndarray:
    """Keys 0 to 9 in no regular pattern, with duplicates (stability shows)."""
    k = np.arange(size * ipt)
    return ((k * 7 + k // 5) % 10).astype(np.uint8).reshape(size, ipt)


def _radix_sort_frame(size, ipt, descending, striped, valid) -> Frame:
    keys = radix_sort_keys(size, ipt)
    flat = keys.reshape(-1)
    count = flat.size
    order = models.radix_sort_order(flat, descending=descending, valid=valid)
    colors = [hue(k, count) if valid is None or k < valid else GRAY for k in range(count)]
    labels, after = ["?"] * count, [SPECIAL] * count
    for position, source in enumerate(order):
        slot = position
        if striped:
            # Sorted position p = i*T + t sits in slot i of thread t.
            slot = (position % size) * ipt + position // size
        labels[slot], after[slot] = str(int(flat[source])), hue(int(source), count)
    layout = "striped: slot i of thread t holds sorted position i*T + t" if striped else \
        "blocked: slot i of thread t holds sorted position t*ipt + i"
    return Frame([Panel("keys before (colored by input position; gray: past valid_items)",
                        "threads", ipt, [str(int(v)) for v in flat], colors),
                  Panel(f"keys after radix_sort_keys ({layout}; the color is the key's input "
                        "position; ?: past valid_items, unspecified)", "threads", ipt, labels,
                        after)])


def radix_sort_page() -> Page:
    tree = _by_group(GROUPS[:1], lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("descending", [
            (str(descending), encode_level("blocked_to_striped", [
                (str(striped), encode_level("valid_items", [
                    ("None", _radix_sort_frame(size, ipt, descending, striped, None))]
                    + [(str(v), _radix_sort_frame(size, ipt, descending, striped, v))
                       for v in range(0, size * ipt + 1, 4)], "range"))
                for striped in (False, True)]))
            for descending in (False, True)])) for ipt in IPT]))
    return Page("radix_sort", "coop.radix_sort_keys", (
        "A block radix sort orders the keys of the block's tile (blocked order) stably: equal "
        "keys keep their input order, as the colors show. The result is blocked, or striped "
        "with <code>blocked_to_striped</code>; with <code>valid_items</code> only the first "
        "keys take part and the first <code>valid_items</code> outputs are defined."),
        tree)


# --- merge sort ------------------------------------------------------------------------

def merge_sort_keys(size: int, ipt: int) -> np.ndarray:
    """Keys -4 to 4 in no regular pattern, with duplicates and both signs (stability and
    a compare by magnitude show)."""
    k = np.arange(size * ipt)
    return ((k * 5 + k // 3) % 9 - 4).reshape(size, ipt)


def _merge_sort_frame(size, ipt, descending, by_magnitude) -> Frame:
    keys = merge_sort_keys(size, ipt).reshape(-1)
    count = keys.size
    rank = np.abs(keys) if by_magnitude else keys
    order = np.argsort(-rank if descending else rank, kind="stable")
    colors = [hue(k, count) for k in range(count)]
    labels = [str(int(keys[source])) for source in order]
    after = [hue(int(source), count) for source in order]
    what = "by_magnitude: |a| < |b|" if by_magnitude else "less: a < b"
    return Frame([Panel("keys before (colored by input position)", "threads", ipt,
                        [str(int(v)) for v in keys], colors),
                  Panel(f"keys after merge_sort_keys (compare_op: {what}"
                        f"{', descending' if descending else ''}; blocked; the color is the "
                        "key's input position)", "threads", ipt, labels, after)])


def merge_sort_page() -> Page:
    tree = _by_group(GROUPS, lambda kind, size: encode_level("items_per_thread", [
        (str(ipt), encode_level("compare_op", [
            (name, encode_level("descending", [
                (str(descending), _merge_sort_frame(size, ipt, descending, by_magnitude))
                for descending in (False, True)]))
            for name, by_magnitude in (("less", False), ("by_magnitude", True))]))
        for ipt in IPT]))
    return Page("merge_sort", "coop.merge_sort_keys", (
        "A merge sort orders the keys of the group's tile (blocked order; a block of a "
        "power-of-two thread count, a warp or a logical warp) by <code>compare_op</code>, "
        "stably: keys the comparison finds equal keep their input order, as the colors "
        "show. <code>descending</code> reverses the comparison."),
        tree)


PAGES = (load_page, store_page, exchange_page, shuffle_page, reduce_page, scan_page,
         reduce_batched_page, select_page, histogram_page, run_length_decode_page,
         radix_sort_page, merge_sort_page)
