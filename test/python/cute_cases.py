"""CuTe DSL kernels with cuda.coop calls, their inputs and NumPy results.

CuTe DSL is too large to carry to the GPU machine, so the kernels are
compiled here (`build`: one folder per case with its cubin, PTX, inputs and
expected outputs) and launched there by `test_cute_gpu.py` through the CUDA
driver. `python cute_cases.py DIR` builds every case into DIR.

Every kernel has one tile of `THREADS * ITEMS` items per block, `BLOCKS`
blocks, and tensors of static shape: CuTe passes each as one pointer.
"""


import json
import os
import re
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")

THREADS, ITEMS, BLOCKS = 128, 4, 3
TILE = THREADS * ITEMS
N = TILE * BLOCKS
ARCH = "sm_90a"


def _striped(a):
    """A tile's items in striped order as blocked payloads: thread t, item i
    holds a[i * T + t]."""
    return a.reshape(BLOCKS, ITEMS, THREADS).transpose(0, 2, 1).reshape(-1)


def _blocked_to_striped(a):
    return a.reshape(BLOCKS, THREADS, ITEMS).transpose(0, 2, 1).reshape(-1)


def _tiles(a):
    return a.reshape(BLOCKS, TILE)


def _exclusive(a, op, identity):
    tiles = _tiles(a)
    out = np.empty_like(tiles)
    for b, tile in enumerate(tiles):
        running = identity
        for k, x in enumerate(tile):
            out[b, k] = running
            running = op(running, x)
    return out.reshape(-1)


def _inclusive(a, op):
    return np.stack([op.accumulate(t, dtype=a.dtype) for t in _tiles(a)]).reshape(-1)


def _warp_reduce(a, op):
    """Per block: the reduction of each warp's items, written by its lane 0
    at out[block * WARPS + warp]."""
    return op.reduce(a.reshape(BLOCKS * THREADS // 32, 32 * ITEMS), axis=1)


def cases():
    """name -> (kernel factory, dtype, expected(a) -> dict of outputs)."""
    import cutlass

    from cuda import coop

    coop.register("cute")
    i32, f32, u32 = cutlass.Int32, cutlass.Float32, cutlass.Uint32
    made = {}
    for algorithm in ("direct", "striped", "vectorize", "transpose", "warp_transpose"):
        expected = _striped if algorithm == "striped" else (lambda a: a)
        made[f"load_{algorithm}"] = (_copy_kernel(algorithm, "direct"), i32,
                                     lambda a, e=expected: {"out": e(a)})
        expected = _blocked_to_striped if algorithm == "striped" else (lambda a: a)
        made[f"store_{algorithm}"] = (_copy_kernel("direct", algorithm), i32,
                                      lambda a, e=expected: {"out": e(a)})
    made["load_valid_items"] = (_partial_kernel(), i32, _partial_expected)
    # The exchanges take the directly loaded (blocked) registers as the
    # layout they convert from, and are stored directly.
    made["exchange_striped_to_blocked"] = (_exchange_kernel("striped_to_blocked"), i32,
                                           lambda a: {"out": _blocked_to_striped(a)})
    made["exchange_blocked_to_striped"] = (_exchange_kernel("blocked_to_striped"), i32,
                                           lambda a: {"out": _striped(a)})
    made["shuffle_up"] = (_shuffle_kernel("up"), i32, _shuffle_up_expected)
    made["sum_block_i32"] = (_reduce_kernel("block", "sum"), i32,
                             lambda a: {"out": _tiles(a).sum(axis=1, dtype=np.int32)})
    made["sum_block_f32"] = (_reduce_kernel("block", "sum"), f32,
                             lambda a: {"out": _tiles(a).sum(axis=1, dtype=np.float32)})
    made["max_block_u32"] = (_reduce_kernel("block", "max"), u32,
                             lambda a: {"out": _tiles(a).max(axis=1)})
    made["min_warp_i32"] = (_reduce_kernel("warp", "min"), i32,
                            lambda a: {"out": _warp_reduce(a, np.minimum)})
    made["exclusive_sum_block"] = (_scan_kernel("exclusive_sum"), i32,
                                   lambda a: {"out": _exclusive(a, np.add, np.int32(0))})
    made["inclusive_sum_block"] = (_scan_kernel("inclusive_sum"), i32,
                                   lambda a: {"out": _inclusive(a, np.add)})
    made["inclusive_max_block"] = (_scan_kernel("inclusive_scan", "max"), i32,
                                   lambda a: {"out": _inclusive(a, np.maximum)})
    made["exclusive_min_block_initial"] = (
        _scan_kernel("exclusive_scan", "min", initial=7), i32,
        lambda a: {"out": _exclusive(a, np.minimum, np.int32(7))})
    made["exclusive_sum_aggregate"] = (_aggregate_kernel(), i32, lambda a: {
        "out": _exclusive(a, np.add, np.int32(0)),
        "extra": _tiles(a).sum(axis=1, dtype=np.int32)})
    made["inclusive_sum_scalar_aggregate"] = (_scalar_aggregate_kernel(), i32,
                                              _scalar_aggregate_expected)
    made["select_odd"] = (_select_kernel(), i32, _select_expected)
    made["reduce_batched_warp"] = (_batched_kernel(), i32, lambda a: {
        "out": a.reshape(BLOCKS * THREADS // 32, 32, ITEMS).sum(axis=1, dtype=np.int32)
        .reshape(-1)})
    for name in ("radix_sort_keys", "merge_sort_keys"):
        made[name] = (_sort_kernel(name), i32,
                      lambda a: {"out": np.sort(_tiles(a), axis=1).reshape(-1)})
    for name in ("radix_sort_pairs", "merge_sort_pairs", "argsort"):
        made[name] = (_sort_kernel(name), i32, _stable_sort_expected)
    made["argsort_bf16"] = (_sort_kernel("argsort"), cutlass.BFloat16, _stable_sort_expected)
    made["topk_max_keys"] = (_topk_kernel(), i32, lambda a: {
        "out": -np.sort(-_tiles(a), axis=1)[:, :TOP_K].reshape(-1)})
    for algorithm in ("atomic", "sort"):
        made[f"histogram_{algorithm}"] = (_histogram_kernel(algorithm), i32, _histogram_expected)
    made["histogram_into_global"] = (_histogram_kernel("atomic", into=True), i32,
                                     _histogram_expected)
    made["run_length_decode_window"] = (_decode_kernel(), i32, _decode_expected)
    made["run_length_decode_into"] = (_decode_into_kernel(), i32, _decode_into_expected)
    made["radix_rank_basic"] = (_rank_kernel(4), i32, _rank_expected(4))
    made["radix_rank_match"] = (_rank_kernel(6), i32, _rank_expected(6))
    made[STATED_BLOCK_CASE] = (_stated_block_kernel(), i32,
                               lambda a: {"out": _exclusive(a, np.add, np.int32(0))})
    return made


# Launched with a runtime block (the host's last argument): the kernel states
# it with assume_block.
STATED_BLOCK_CASE = "exclusive_sum_stated_block"


def _stated_block_kernel():
    import cutlass
    import cutlass.cute as cute

    from cuda import coop
    from cuda.coop.cute import assume_block

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        assume_block(THREADS)
        bidx, _, block, items = _loaded(g_in, "transpose")
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)),
                   coop.exclusive_sum(block, items), algorithm="transpose")

    @cute.jit
    def host(m_in: cute.Tensor, m_out: cute.Tensor, m_extra: cute.Tensor,
             threads: cutlass.Int32):
        kernel(m_in, m_out, m_extra).launch(grid=(BLOCKS, 1, 1), block=(threads, 1, 1))

    return host


def _rank_expected(bits):
    def expected(a):
        from cuda.coop._models import radix_rank_model

        ranks, prefix = [], []
        for tile in _tiles(a):
            r, p = radix_rank_model(tile.reshape(THREADS, ITEMS), 0, bits, THREADS)
            ranks.append(r.reshape(-1))
            prefix.append(p.reshape(-1))
        return {"out": np.concatenate(ranks).astype(np.int32),
                "extra": np.concatenate(prefix).astype(np.int32)}
    return expected


def _rank_kernel(bits):
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        ranks, prefix = coop.radix_rank_keys(block, items, begin_bit=0, end_bit=bits,
                                             exclusive_digit_prefix=True)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), ranks)
        coop.store(block, cute.local_tile(g_extra, (THREADS,), (bidx,)), prefix)

    return _host(kernel)


BINS = 16


def _histogram_expected(a):
    return {"out": np.concatenate([np.bincount(t & (BINS - 1), minlength=BINS)
                                   for t in _tiles(a)]).astype(np.int32)}


def _histogram_kernel(algorithm, into=False):
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        samples = coop.ThreadData(ITEMS, cutlass.Int32)
        for i in cutlass.range_constexpr(ITEMS):
            samples[i] = items[i] & (BINS - 1)
        if cutlass.const_expr(into):
            coop.histogram(block, samples, bins=BINS,
                           out=cute.local_tile(g_out, (BINS,), (bidx,)))
        else:
            counts = coop.histogram(block, samples, bins=BINS, algorithm=algorithm)
            if tidx < BINS:
                g_out[bidx * BINS + tidx] = counts[0]

    return _host(kernel)


def _run_lengths(tile):
    return (tile & 3) + 1


def _decode_expected(a):
    out, totals = [], []
    for tile in _tiles(a):
        stream = np.repeat(tile, _run_lengths(tile))
        out.append(stream[:TILE])
        totals.append(stream.size)
    return {"out": np.concatenate(out).astype(np.int32),
            "extra": np.array(totals, np.uint32)}


def _decode_kernel():
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        lengths = coop.ThreadData(ITEMS, cutlass.Int32)
        for i in cutlass.range_constexpr(ITEMS):
            lengths[i] = (items[i] & 3) + 1
        decoded, total = coop.run_length_decode(block, items, lengths,
                                                decoded_items_per_thread=ITEMS,
                                                total_decoded_size=True)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), decoded)
        if tidx == 0:
            g_extra[bidx] = total

    return _host(kernel)


STREAM = 4 * TILE  # the longest decoded stream of a tile (runs of 1 to 4)


def _decode_into_expected(a):
    out = np.zeros((BLOCKS, STREAM), np.int32)
    totals = np.zeros(BLOCKS, np.uint32)
    for b, tile in enumerate(_tiles(a)):
        stream = np.repeat(tile, _run_lengths(tile))
        out[b, :stream.size] = stream
        totals[b] = stream.size
    return {"out": out.reshape(-1), "extra": totals}


def _decode_into_kernel():
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        lengths = coop.ThreadData(ITEMS, cutlass.Int32)
        for i in cutlass.range_constexpr(ITEMS):
            lengths[i] = (items[i] & 3) + 1
        total = coop.run_length_decode_into(block, items, lengths,
                                            cute.local_tile(g_out, (STREAM,), (bidx,)),
                                            decoded_items_per_thread=ITEMS)
        if tidx == 0:
            g_extra[bidx] = total

    return _host(kernel)


def _aggregate_kernel():
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        scanned, total = coop.exclusive_sum(block, items, block_aggregate=True)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), scanned)
        if tidx == 0:
            g_extra[bidx] = total

    return _host(kernel)


def _scalar_aggregate_expected(a):
    per_thread = a.reshape(BLOCKS, THREADS, ITEMS).sum(axis=2, dtype=np.int32)
    return {"out": np.cumsum(per_thread, axis=1, dtype=np.int32).reshape(-1),
            "extra": per_thread.sum(axis=1, dtype=np.int32)}


def _scalar_aggregate_kernel():
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        mine = items[0] + items[1] + items[2] + items[3]
        prefix, total = coop.inclusive_sum(block, mine, block_aggregate=True)
        g_out[bidx * THREADS + tidx] = prefix
        if tidx == 0:
            g_extra[bidx] = total

    return _host(kernel)


def _select_expected(a):
    out = np.full((BLOCKS, TILE), -1, np.int32)
    counts = np.zeros(BLOCKS, np.int32)
    for b, tile in enumerate(_tiles(a)):
        kept = tile[(tile & 1) != 0]
        out[b, :kept.size] = kept
        counts[b] = kept.size
    return {"out": out.reshape(-1), "extra": counts}


def _select_kernel():
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        flags = coop.ThreadData(ITEMS, cutlass.Int32)
        for i in cutlass.range_constexpr(ITEMS):
            flags[i] = items[i] & 1
        selected, count = coop.select(block, items, flags=flags)
        for i in cutlass.range_constexpr(ITEMS):
            if tidx * ITEMS + i >= count:
                selected[i] = -1
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), selected)
        if tidx == 0:
            g_extra[bidx] = count

    return _host(kernel)


def _batched_kernel():
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, _, items = _loaded(g_in)
        sums = coop.reduce_batched(coop.this_warp(), items)
        if tidx % 32 < ITEMS:
            g_out[(bidx * (THREADS // 32) + tidx // 32) * ITEMS + tidx % 32] = sums[0]

    return _host(kernel)


def _stable_sort_expected(a):
    keys = _bf16_values(a) if a.dtype == BF16_BITS else a
    order = np.argsort(_tiles(keys), axis=1, kind="stable").astype(np.int32)
    return {"out": np.take_along_axis(_tiles(a), order, axis=1).reshape(-1),
            "extra": order.reshape(-1)}


def _sort_kernel(name):
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    function = getattr(coop, name)
    pairs = name.endswith("_pairs")
    argsort = name == "argsort"

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        if cutlass.const_expr(pairs):
            positions = coop.ThreadData(ITEMS, cutlass.Int32)
            for i in cutlass.range_constexpr(ITEMS):
                positions[i] = tidx * ITEMS + i
            keys, moved = function(block, items, positions)
            coop.store(block, cute.local_tile(g_extra, (TILE,), (bidx,)), moved)
        elif cutlass.const_expr(argsort):
            keys, moved = function(block, items)
            coop.store(block, cute.local_tile(g_extra, (TILE,), (bidx,)), moved)
        else:
            keys = function(block, items)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), keys)

    return _host(kernel)


TOP_K = 37


def _topk_kernel():
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, block, items = _loaded(g_in)
        top = coop.topk_max_keys(block, items, k=TOP_K)
        for i in cutlass.range_constexpr(ITEMS):
            if tidx * ITEMS + i < TOP_K:
                g_out[bidx * TOP_K + tidx * ITEMS + i] = top[i]

    return _host(kernel)


def _host(kernel):
    import cutlass.cute as cute

    @cute.jit
    def host(m_in: cute.Tensor, m_out: cute.Tensor, m_extra: cute.Tensor):
        kernel(m_in, m_out, m_extra).launch(grid=(BLOCKS, 1, 1), block=(THREADS, 1, 1))

    return host


def _loaded(g_in, algorithm="direct"):
    """The prologue of every kernel: (block index, thread index, the block,
    its tile of g_in loaded into a payload)."""
    import cutlass.cute as cute

    from cuda import coop

    bidx, _, _ = cute.arch.block_idx()
    tidx, _, _ = cute.arch.thread_idx()
    block = coop.this_block()
    items = coop.ThreadData(ITEMS, g_in.element_type)
    coop.load(block, cute.local_tile(g_in, (TILE,), (bidx,)), items, algorithm=algorithm)
    return bidx, tidx, block, items


def _copy_kernel(load_algorithm, store_algorithm):
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, _, block, items = _loaded(g_in, load_algorithm)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), items,
                   algorithm=store_algorithm)

    return _host(kernel)


VALID = TILE - 77


def _partial_expected(a):
    out = a.copy()
    for b in range(BLOCKS):
        out[b * TILE + VALID:(b + 1) * TILE] = -5
    return {"out": out}


def _partial_kernel():
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, _, _ = cute.arch.block_idx()
        block = coop.this_block()
        items = coop.ThreadData(ITEMS, g_in.element_type)
        coop.load(block, cute.local_tile(g_in, (TILE,), (bidx,)), items,
                  algorithm="transpose", valid_items=VALID, oob_default=-5)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), items)

    return _host(kernel)


def _exchange_kernel(mode):
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, _, block, items = _loaded(g_in)
        moved = coop.exchange(block, items, mode=mode)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), moved)

    return _host(kernel)


FILL = -9


def _shuffle_up_expected(a):
    """Up by one item of the block's tile: item k takes item k - 1, the
    first the fill (the contract leaves it unspecified without one)."""
    from cuda.coop._models import shuffle_model

    return {"out": np.concatenate([shuffle_model("up", t.reshape(THREADS, ITEMS), 1, FILL)
                                   .reshape(-1) for t in _tiles(a)])}


def _shuffle_kernel(mode):
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, _, block, items = _loaded(g_in)
        moved = coop.shuffle(block, items, mode=mode, fill=FILL)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), moved)

    return _host(kernel)


def _reduce_kernel(scope, op):
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, tidx, _, items = _loaded(g_in)
        if cutlass.const_expr(scope == "block"):
            total = coop.reduce(coop.this_block(), items, op)
            if tidx == 0:
                g_out[bidx] = total
        else:
            total = coop.reduce(coop.this_warp(), items, op)
            if tidx % 32 == 0:
                g_out[bidx * (THREADS // 32) + tidx // 32] = total

    return _host(kernel)


def _scan_kernel(name, op=None, initial=None):
    import cutlass.cute as cute

    from cuda import coop

    function = getattr(coop, name)
    operator = () if op is None else (op,)
    initial_value = {} if initial is None else {"initial_value": initial}

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor, g_extra: cute.Tensor):
        bidx, _, block, items = _loaded(g_in)
        scanned = function(block, items, *operator, **initial_value)
        coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), scanned)

    return _host(kernel)


# NumPy has no bfloat16: its arrays hold a bfloat16's bits (a float32's top
# half), and the model compares their float32 values.
BF16_BITS = np.uint16
_NUMPY = {"Int32": np.int32, "Uint32": np.uint32, "Float32": np.float32, "BFloat16": BF16_BITS}


def _bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def inputs(dtype_name: str, seed: int = 1):
    rng = np.random.default_rng(seed)
    numpy_type = _NUMPY[dtype_name]
    if numpy_type == np.float32:
        return rng.integers(-8, 9, N).astype(np.float32)
    if numpy_type == np.uint32:
        return rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    if numpy_type == BF16_BITS:
        # Exact in bfloat16's 8 significant bits, many ties, -0.0 beside 0.0
        # (equal keys: a stable sort keeps their order) and infinities.
        values = (rng.integers(-128, 128, N) / 8).astype(np.float32)
        values[rng.integers(0, N, 40)] = -0.0
        values[rng.integers(0, N, 4)] = np.inf
        values[rng.integers(0, N, 4)] = -np.inf
        return (values.view(np.uint32) >> 16).astype(BF16_BITS)
    return rng.integers(-1000, 1000, N).astype(numpy_type)


def compile_case(name, directory):
    """Compiles case `name` into `directory`; returns (cubin, ptx) paths."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_compact_tensor

    types = {"int32": cutlass.Int32, "uint32": cutlass.Uint32, "float32": cutlass.Float32,
             "int64": cutlass.Int64, np.dtype(BF16_BITS).name: cutlass.BFloat16}
    factory, dtype, expected = cases()[name]
    a = inputs(dtype.__name__)
    outputs = expected(a)
    outputs.setdefault("extra", np.zeros(1, np.int32))
    directory.mkdir(parents=True, exist_ok=True)
    fakes = [make_fake_compact_tensor(types[outputs[k].dtype.name], outputs[k].shape)
             for k in ("out", "extra")]
    runtime_block = (THREADS,) if name == STATED_BLOCK_CASE else ()
    cute.compile(factory, make_fake_compact_tensor(dtype, (N,)), *fakes, *runtime_block,
                 options=f"--gpu-arch {ARCH} --keep-ptx --keep-cubin "
                         f"--dump-dir={directory}")
    cubin = next(directory.glob("*.cubin"))
    ptx = next(directory.glob("*.ptx"))
    entry = re.search(r"\.entry\s+(\w+)\(", ptx.read_text()).group(1)
    np.savez(directory / "data.npz", a=a, **outputs)
    (directory / "launch.json").write_text(json.dumps({
        "entry": entry, "cubin": cubin.name, "grid": BLOCKS, "block": THREADS,
        "outputs": sorted(outputs)}))
    return cubin, ptx


def build(directory):
    names = sorted(cases())
    for name in names:
        compile_case(name, directory / name)
    return names


if __name__ == "__main__":
    built = build(Path(sys.argv[1]))
    print(f"built {len(built)} CuTe cases into {sys.argv[1]}")
