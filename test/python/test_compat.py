"""Kernels written for the official cuda.coop's common API, compile-only:
its operator, mode and algorithm spellings reach the dialect's named
operators and enums, the `block_prefix_callback_op=` keyword, plain prefix
functions, `load` returning its payload, groups made at module level,
per-thread shuffle distances and the items up/down shift out; every misuse
is a compile-time error naming the fix."""

import operator
import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend
import numba_compile as nc  # noqa: E402
from cuda.coop import _ods, _spellings  # noqa: E402
from cuda.coop.numba_mlir import _lowering  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

I32 = types.int32[::1]
F32 = types.float32[::1]
BLOCK = coop.this_block()
WARP = coop.this_warp()
LANES_8 = coop.this_warp().group_by(8)
WARPS_2 = coop.this_block().group_by(2)


@pytest.fixture
def sites(monkeypatch):
    """The attributes of every call site lowered while the test runs."""
    seen = []
    lower = _lowering._call_site

    def spy(builder, site, *args, **kwargs):
        seen.append(dict(site.attributes))
        return lower(builder, site, *args, **kwargs)

    monkeypatch.setattr(_lowering, "_call_site", spy)
    return seen


def _compile(kernel, argtypes=(I32, I32), block=(64,)):
    return nc.compile_for_launch(cuda.jit(kernel), list(argtypes), block,
                                 with_ptx=False)


def _error(kernel, argtypes=(I32, I32), block=(64,)):
    with pytest.raises(Exception) as info:
        _compile(kernel, argtypes, block)
    return re.sub(r"\x1b\[[0-9;]*m", "", str(info.value))


def test_every_spelling_names_an_operator_of_the_dialect():
    cases = set(_ods.ENUMS["BinaryOp"]["cases"])
    assert set(_spellings.OPERATOR_NAMES) == cases
    assert set(_spellings.OPERATOR_FUNCTIONS.values()) == cases
    # Every name of the dialect spells itself.
    assert all(name in spellings for name, spellings in _spellings.OPERATOR_NAMES.items())


_SPELLINGS = [(spelling, name) for name, spellings in _spellings.OPERATOR_NAMES.items()
              for spelling in spellings]
_SPELLINGS += [(" Bitwise-And ", "bit_and"), ("MAXIMUM", "max")]


@pytest.mark.parametrize("spelling,name", _SPELLINGS, ids=str)
def test_an_operator_name_is_the_named_operator(spelling, name, sites):
    def kernel(src, dst):
        dst[0] = coop.reduce(BLOCK, src[cuda.threadIdx.x], spelling)

    _compile(kernel)
    assert sites[-1]["binary_op"] == name


@pytest.mark.parametrize("function,name", list(_spellings.OPERATOR_FUNCTIONS.items()),
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_an_operator_function_is_the_named_operator(function, name, sites):
    # Named, not compiled: the fast lowering (shuffles, redux.sync) applies.
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        dst[0] = coop.reduce(BLOCK, items, function)
        out = coop.inclusive_scan(WARP, items, function)
        coop.store(BLOCK, dst, out)

    _compile(kernel)
    assert [site.get("binary_op", site.get("scan_op")) for site in sites[-3:-1]] == [name,
                                                                                      name]


def test_operator_module_and_numpy_functions_given_in_the_kernel(sites):
    def kernel(src, dst):
        x = src[cuda.threadIdx.x]
        dst[0] = coop.reduce(BLOCK, x, operator.mul) + coop.reduce(LANES_8, x, np.maximum) \
            + coop.exclusive_scan(BLOCK, x, max) + coop.scan(WARP, x, scan_op=operator.xor)

    _compile(kernel)
    assert [s.get("binary_op", s.get("scan_op")) for s in sites[-4:]] == [
        "multiplies", "max", "max", "bit_xor"]


@pytest.mark.parametrize("given,name", [("Warp-Transpose ", "warp_transpose"),
                                        ("TRANSPOSE", "transpose"),
                                        (" direct", "direct")])
def test_algorithm_spellings(given, name, sites):
    def kernel(src, dst):
        items = coop.ThreadData(4, dtype=np.int32)
        coop.load(BLOCK, src, items, algorithm=given)
        coop.store(BLOCK, dst, items, algorithm=given)

    _compile(kernel)
    assert [site["algorithm"] for site in sites[-2:]] == [name, name]


def test_mode_and_combining_algorithm_spellings(sites):
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        blocked = coop.exchange(BLOCK, items, mode="Striped-To-Blocked")
        scanned = coop.scan(BLOCK, blocked, mode=" Inclusive", algorithm="Raking-Memoize")
        dst[0] = coop.reduce(BLOCK, scanned, "min", algorithm="RAKING")
        coop.store(BLOCK, dst, coop.shuffle(BLOCK, scanned, mode="Up"))

    _compile(kernel)
    exchange, scan, reduce, shuffle = sites[-5:-1]
    assert exchange["mode"] == "striped_to_blocked"
    assert (scan["mode"], scan["algorithm"]) == ("inclusive", "raking_memoize")
    assert reduce["algorithm"] == "raking"
    assert shuffle["mode"] == "up"


def test_an_unknown_spelling_lists_the_names():
    def kernel(src, dst):
        dst[0] = coop.reduce(BLOCK, src[cuda.threadIdx.x], "average")

    message = _error(kernel)
    assert "binary_op must be one of 'sum', 'min', 'max'" in message
    assert "'average'" in message

    def mode(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        coop.store(BLOCK, dst, coop.exchange(BLOCK, items, mode="sideways"))

    assert "mode must be one of 'striped_to_blocked'" in _error(mode)


def test_block_prefix_callback_op_spells_prefix_op(sites):
    def running_total(state, aggregate):
        old = state[0]
        state[0] = old + aggregate
        return old

    def kernel(src, dst):
        state = cuda.local.array(1, np.int32)
        state[0] = 0
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        out = coop.exclusive_sum(BLOCK, items,
                                 block_prefix_callback_op=coop.StatefulFunction(running_total,
                                                                                state))
        coop.store(BLOCK, dst, out)

    _compile(kernel)
    prefix = sites[-2]["prefix_op"]
    assert len(prefix.parameters) == 2 and prefix.parameters[1] == "i32"


def test_prefix_op_and_its_other_spelling_both_given_is_an_error():
    def offset_by(aggregate):
        return aggregate

    def kernel(src, dst):
        x = src[cuda.threadIdx.x]
        dst[0] = coop.exclusive_sum(BLOCK, x, prefix_op=offset_by,
                                    block_prefix_callback_op=offset_by)

    message = _error(kernel)
    assert "coop.exclusive_sum got prefix_op twice (as prefix_op and " \
        "block_prefix_callback_op); pass one" in message


def test_a_plain_prefix_function_takes_the_aggregate(sites):
    def doubled(aggregate):
        return aggregate * 2

    def kernel(src, dst):
        x = src[cuda.threadIdx.x]
        dst[cuda.threadIdx.x] = coop.inclusive_scan(BLOCK, x, "+", prefix_op=doubled)

    _compile(kernel, (F32, F32))
    prefix = sites[-1]["prefix_op"]
    assert prefix.parameters == ("f32",) and prefix.result == "f32"


def test_a_plain_prefix_function_of_two_parameters_is_an_error():
    def two(state, aggregate):
        return aggregate

    def kernel(src, dst):
        dst[0] = coop.exclusive_sum(BLOCK, src[cuda.threadIdx.x], prefix_op=two)

    message = _error(kernel)
    assert ".two(state, aggregate) must take the tile's aggregate (int32) and return the " \
        "prefix" in message


def test_a_plain_prefix_function_on_a_warp_is_an_error():
    def doubled(aggregate):
        return aggregate * 2

    def kernel(src, dst):
        dst[0] = coop.exclusive_sum(WARP, src[cuda.threadIdx.x], prefix_op=doubled)

    assert "prefix_op is a block option" in _error(kernel)


def test_load_returns_the_payload_it_filled():
    def kernel(src, dst):
        items = coop.ThreadData(4, dtype=np.int32)
        loaded = coop.load(BLOCK, src, items, algorithm="transpose")
        loaded[0] = loaded[0] + 1
        coop.store(BLOCK, dst, items)  # the same payload

    ptx = nc.compile_for_launch(cuda.jit(kernel), [I32, I32], (64,)).metadata["ptx"]
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.parametrize("group", [BLOCK, WARP, LANES_8], ids=["block", "warp", "lanes_8"])
def test_a_group_made_at_module_level(group):
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(group, src, items)
        coop.store(group, dst, coop.inclusive_scan(group, items, "max"))

    _compile(kernel, block=(128,))


def test_a_partitioned_block_made_at_module_level_has_the_kernel_s_rules():
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(WARPS_2, src, items)

    assert "'!coop.group<warps_within_block, 2>' is not a load target" in _error(kernel)


def test_a_cluster_made_at_module_level_is_rejected_as_in_the_kernel():
    cluster = coop.this_cluster()

    def kernel(src, dst):
        dst[0] = coop.sum(cluster, src[cuda.threadIdx.x])

    assert "cluster" in _error(kernel)


def test_shuffle_distances_may_differ_between_threads():
    def kernel(src, dst):
        t = cuda.threadIdx.x
        dst[t] = coop.shuffle(BLOCK, src[t], mode="offset", distance=t % 5 - 2) \
            + coop.shuffle(BLOCK, src[t], mode="rotate", distance=t)

    _compile(kernel)


def test_up_and_down_return_the_item_shifted_out():
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        up, suffix = coop.shuffle(BLOCK, items, mode="up", block_suffix=True)
        down, prefix = coop.shuffle(BLOCK, up, block_prefix=True)
        coop.store(BLOCK, dst, down)
        dst[0] = suffix + prefix

    _compile(kernel)


@pytest.mark.parametrize("mode,flag,message", [
    ("up", "block_prefix", "mode 'up' shifts items toward higher positions: the item "
     "shifted out is the block_suffix"),
    ("down", "block_suffix", "mode 'down' shifts items toward lower positions: the item "
     "shifted out is the block_prefix"),
])
def test_the_wrong_edge_of_a_shift_is_an_error(mode, flag, message):
    def kernel(src, dst):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        if flag == "block_prefix":
            out, edge = coop.shuffle(BLOCK, items, mode=mode, block_prefix=True)
        else:
            out, edge = coop.shuffle(BLOCK, items, mode=mode, block_suffix=True)
        coop.store(BLOCK, dst, out)

    assert message in _error(kernel)


def test_an_operator_defined_in_the_kernel_before_its_payload():
    # The lambda's code constant is dropped before the payload is planned.
    def kernel(src, dst):
        f = lambda a, b: a + b  # noqa: E731
        items = coop.ThreadData(4)
        coop.load(BLOCK, src, items)
        dst[0] = coop.reduce(BLOCK, items, f)

    _compile(kernel)


def test_warp_operations_take_temp_storage(sites):
    # A warp exchange or transpose places its scratch (every warp's region)
    # in the TempStorage; warp reductions and scans shuffle and leave it unused.
    def kernel(src, dst):
        scratch = coop.TempStorage()
        items = coop.ThreadData(4, dtype=np.int32)
        coop.load(WARP, src, items, algorithm="transpose", temp_storage=scratch)
        blocked = coop.exchange(LANES_8, items, temp_storage=scratch)
        dst[0] = coop.reduce(WARP, blocked, "max", temp_storage=scratch)
        coop.store(WARP, dst, coop.inclusive_sum(WARP, blocked, temp_storage=scratch))

    ptx = nc.compile_for_launch(cuda.jit(kernel), [I32, I32], (128,)).metadata["ptx"]
    # One buffer for the TempStorage: the load's and exchange's scratch.
    assert len(re.findall(r"\.shared \.align \d+ \.b8", ptx)) == 1


def test_warp_scans_take_valid_items():
    def kernel(src, dst, valid):
        items = coop.ThreadData(2, dtype=np.int32)
        coop.load(BLOCK, src, items)
        out, total = coop.exclusive_sum(LANES_8, items, valid_items=valid, block_aggregate=True)
        coop.store(BLOCK, dst, out)
        dst[0] = total + coop.inclusive_scan(WARP, src[cuda.threadIdx.x], "max",
                                             valid_items=valid)

    _compile(kernel, (I32, I32, types.int32))


def test_valid_items_on_a_block_scan_is_an_error():
    def kernel(src, dst, valid):
        dst[0] = coop.inclusive_sum(BLOCK, src[cuda.threadIdx.x], valid_items=valid)

    assert "valid_items on a scan is a warp option (CUB's partial warp scans); a block " \
        "scans whole tiles: pad a partial tile with the operator's identity" in _error(
            kernel, (I32, I32, types.int32))


def test_reserve_carves_an_array_out_of_the_temp_storage():
    def kernel(src, dst):
        scratch = coop.TempStorage()
        counts = scratch.reserve(16, np.int32)
        wide = scratch.reserve(3, np.float64, alignment=16)
        t = cuda.threadIdx.x
        if t < 16:
            counts[t] = 0
        if t < 3:
            wide[t] = 0.0
        cuda.syncthreads()
        items = coop.ThreadData(4, dtype=np.int32)
        coop.load(BLOCK, src, items, algorithm="transpose", temp_storage=scratch)
        cuda.atomic.add(counts, items[0] % 16, 1)
        cuda.syncthreads()
        coop.store(BLOCK, dst, items, algorithm="transpose", temp_storage=scratch)
        if t < 16:
            dst[t] = counts[t] + np.int32(wide[t % 3])

    ptx = nc.compile_for_launch(cuda.jit(kernel), [I32, I32], (128,)).metadata["ptx"]
    # One buffer: 64 bytes of counts, 24 of wide at 64, the transpose's
    # 2048 bytes at 96.
    (buffer,) = re.findall(r"\.shared \.align (\d+) \.b8 \w+\[(\d+)\]", ptx)
    assert buffer == ("16", str(96 + 2048))
    assert "atom.shared.add" in ptx


def test_reserve_counts_towards_size_in_bytes():
    def kernel(src, dst):
        scratch = coop.TempStorage(2048)
        flag = scratch.reserve(1, np.int32)
        flag[0] = 1
        items = coop.ThreadData(4, dtype=np.int32)
        coop.load(BLOCK, src, items, algorithm="transpose", temp_storage=scratch)
        coop.store(BLOCK, dst, items)

    message = _error(kernel, block=(128,))
    assert "temp_storage of 2048 bytes is too small: its uses need 2064 bytes; set " \
        "size_in_bytes to at least 2064" in message


@pytest.mark.parametrize("call,message", [
    ("scratch.reserve(n, np.int32)", "TempStorage.reserve's count must be a compile-time "
     "constant"),
    ("scratch.reserve(0, np.int32)", "TempStorage.reserve's count must be a positive "
     "compile-time int; got 0"),
    ("scratch.reserve(4, np.bool_)", "TempStorage.reserve's dtype must be a numeric type "
     "such as numpy.int32"),
    ("scratch.reserve(4, np.float64, alignment=4)", "TempStorage.reserve's alignment must "
     "be a power of two of at least the item's 8 bytes; got 4"),
    ("scratch.reserve(4)", "TempStorage.reserve takes count, dtype and optionally alignment"),
])
def test_reserve_misuse(call, message):
    source = f"""
def kernel(src, dst, n):
    scratch = coop.TempStorage()
    array = {call}
    array[0] = 1
    dst[0] = array[0]
"""
    namespace = {"coop": coop, "np": np}
    exec(source, namespace)
    assert message in _error(namespace["kernel"], (I32, I32, types.int32))


def test_payloads_coop_calls_return_have_items_per_thread():
    # A fresh payload, load's result and a scan's (payload, aggregate) have
    # their payload's constant count, as ThreadData has.
    def kernel(src, dst):
        items = coop.ThreadData(4, dtype=np.int32)
        loaded = coop.load(BLOCK, src, items)
        blocked = coop.exchange(BLOCK, loaded)
        scanned, total = coop.inclusive_sum(BLOCK, blocked, block_aggregate=True)
        local = cuda.local.array(scanned.items_per_thread, np.int32)
        for i in range(loaded.items_per_thread):
            local[i] = scanned[i] + total
        for i in range(blocked.items_per_thread):
            blocked[i] = local[i]
        coop.store(BLOCK, dst, blocked)

    ptx = nc.compile_for_launch(cuda.jit(kernel), [I32, I32], (64,)).metadata["ptx"]
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


@cuda.jit(device=True)
def _publish(array, slot, value):
    array[slot] = value


def test_a_reserved_array_goes_to_device_functions():
    # The helper's stores reach shared memory (st.shared), as for a
    # cuda.shared.array.
    def kernel(src, dst):
        scratch = coop.TempStorage()
        last = scratch.reserve(128, np.int32)
        items = coop.ThreadData(4, dtype=np.int32)
        coop.load(BLOCK, src, items, algorithm="transpose", temp_storage=scratch)
        _publish(last, cuda.threadIdx.x, items[3])
        cuda.syncthreads()
        dst[cuda.threadIdx.x] = last[127 - cuda.threadIdx.x]

    ptx = nc.compile_for_launch(cuda.jit(kernel), [I32, I32], (128,)).metadata["ptx"]
    assert len(re.findall(r"\bst\.shared\.u32", ptx)) == 4 + 1
    assert "st.global.u32" in ptx and "st.u32" not in ptx
