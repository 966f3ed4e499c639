"""reduce, sum and the scans through the Numba backend, compile-only: every
group kind and block algorithm compiles without local memory, with CUB's
scratch and barrier counts; every misuse is a compile-time error naming the
operand."""

import math
import numpy as np
import re

import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

I32 = types.int32[::1]
F32 = types.float32[::1]
U32 = types.uint32[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, list(argtypes), block).metadata["ptx"]


def _kernel_body(ptx):
    body = ptx[ptx.index(".entry"):]
    return body[:body.index("\n}\n")]


def _barriers(ptx):
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", _kernel_body(ptx)))


def _shuffles(ptx):
    return len(re.findall(r"\bshfl\.sync\b", _kernel_body(ptx)))


def _reduxes(ptx):
    return len(re.findall(r"\bredux\.sync\b", _kernel_body(ptx)))


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


def _error(kernel_body, argtypes=(I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


@pytest.mark.parametrize("algorithm", cm.REDUCE_ALGORITHMS)
@pytest.mark.parametrize("broadcast", (True, False))
def test_block_reduce_compiles_with_cubs_scratch_and_barriers(algorithm, broadcast):
    kernel = cm.reduce_kernel(4, None, "sum", algorithm, broadcast, False, False)
    ptx = _ptx(kernel, (I32, I32, types.int64), block=(256,))
    _no_local_memory(ptx)
    # warp_reductions: one aggregate per warp, read back after one barrier by
    # every thread (broadcast costs nothing); raking: the grid (256 partials,
    # 32 raking threads of 8 with one padding slot each), and a second
    # barrier to broadcast.
    if algorithm == "warp_reductions":
        assert _shared_bytes(ptx) == 8 * 4 and _barriers(ptx) == 1
    elif algorithm == "raking":
        assert _shared_bytes(ptx) == 32 * 9 * 4 and _barriers(ptx) == 1 + broadcast
    else:
        assert _shared_bytes(ptx) == 32 * 7 * 4 and _barriers(ptx) == 1 + broadcast
    # An int32 sum of whole warps on sm_90: one redux.sync (CUB's WarpReduceShfl
    # for int on sm_80+), no butterflies; with warp_reductions' 8 warps, a second
    # one combines their aggregates.
    assert _shuffles(ptx) == 0
    assert _reduxes(ptx) == (2 if algorithm == "warp_reductions" else 1)


@pytest.mark.parametrize("width", (1, 8, 32))
def test_warp_reduce_is_shuffles_only(width):
    kernel = cm.reduce_kernel(3, width, "max", None, True, False, False)
    ptx = _ptx(kernel, (F32, F32, types.int64))
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) == 0 and _barriers(ptx) == 0
    assert _shuffles(ptx) == {1: 0, 8: 3, 32: 5}[width]


def test_thread_reduce_folds_the_threads_items():
    kernel = cm.reduce_kernel(8, 0, "bit_xor", None, True, False, False)
    ptx = _ptx(kernel, (I32, I32, types.int64))
    assert _barriers(ptx) == 0 and _shared_bytes(ptx) == 0
    # The only shuffles are the 32-byte load's register transpose (2 steps of a
    # 4-word vector); the thread reduce itself exchanges nothing.
    assert _shuffles(ptx) == _kernel_body(ptx).count("shfl.sync.idx") == 2 * 4


@pytest.mark.parametrize("algorithm", cm.SCAN_ALGORITHMS)
def test_block_scan_compiles_with_cubs_scratch_and_barriers(algorithm):
    kernel = cm.scan_kernel(4, None, "exclusive", "sum", algorithm, False, False)
    ptx = _ptx(kernel, (I32, I32, I32, types.int32), block=(256,))
    _no_local_memory(ptx)
    assert _barriers(ptx) == (1 if algorithm == "warp_scans" else 2)
    # The raking grid and the aggregate's slot after it.
    expected = 8 * 4 if algorithm == "warp_scans" else (32 * 9 + 1) * 4
    assert _shared_bytes(ptx) == -(-expected // 16) * 16 or _shared_bytes(ptx) == expected


def _shared_loads(ptx):
    return len(re.findall(r"\bld\.shared\b", _kernel_body(ptx)))


@pytest.mark.parametrize("dtype", ("int32", "float32"))
def test_warp_scans_past_four_warps_scan_the_warp_aggregates_by_warp(dtype):
    """Integer named operators: each warp reads the 32 warp aggregates (lane w warp w's: one
    shared load); on sm_90 one redux.sync of the lanes before the thread's warp is its
    prefix, one of all lanes the total: the warp scan's 5 shuffles and no more. Floats keep
    CUB's order of additions: every thread reads the 32 aggregates (8 vector loads) and
    folds them in warp order."""
    array = I32 if dtype == "int32" else F32
    kernel = cm.scan_kernel(4, None, "exclusive", "sum", "warp_scans", False, False)
    ptx = _ptx(kernel, (array, array, array, types.int32), block=(1024,))
    _no_local_memory(ptx)
    assert _barriers(ptx) == 1
    if dtype == "int32":
        assert _shared_loads(ptx) == 1 and _shuffles(ptx) == 5 and _reduxes(ptx) == 2
    else:
        assert _shared_loads(ptx) == 8 and _shuffles(ptx) == 6


@pytest.mark.parametrize("algorithm", ("raking", "raking_memoize"))
@pytest.mark.parametrize("dtype", ("int32", "float32", "int64", "float64"))
def test_raking_reads_a_segment_of_16_registers_again(dtype, algorithm):
    """A raking thread's segment is a 32nd of the block: the downsweep loads it from the grid
    again (segment + segment shared loads of the raking thread) from 16 registers on (4-byte
    items from 512 threads, 8-byte from 256), where the compiler used to forward (raking) or
    keep (raking_memoize) the upsweep's loads: ptxas spilled 8-byte ones at 1024 threads
    (64-496 bytes of local memory, as CUB's raking scans have there) and kept the others in
    registers that cost blocks an SM. An integer sum keeps a segment of 16 registers beside
    up to 4 of items (int32 at 512 threads, int64 at 256), not beside 8. memoize keeps a
    segment of 8 registers."""
    array = getattr(types, dtype)[::1]
    argtypes = (array, array, array, getattr(types, dtype))
    kernel = cm.scan_kernel(1, None, "exclusive", "sum", algorithm, False, False)
    eight = cm.scan_kernel(8, None, "exclusive", "sum", algorithm, False, False)
    ptx = _ptx(kernel, argtypes, block=(1024,))
    _no_local_memory(ptx)
    assert _shared_loads(ptx) >= 2 * 32
    wide = dtype in ("int64", "float64")
    at16 = 256 if wide else 512
    segment = at16 // 32
    loads = _shared_loads(_ptx(kernel, argtypes, block=(at16,)))
    if dtype in ("int32", "int64"):
        assert loads < 2 * segment
    else:
        assert loads >= 2 * segment
    assert _shared_loads(_ptx(eight, argtypes, block=(at16,))) >= 2 * segment
    if wide:
        assert _shared_loads(_ptx(kernel, argtypes, block=(512,))) >= 2 * 16
    if algorithm == "raking_memoize":
        small = 128 if wide else 256
        assert _shared_loads(_ptx(kernel, argtypes, block=(small,))) < 2 * (small // 32)


def _unread_shuffles(ptx):
    """Shuffles whose result no later line of the kernel reads."""
    lines = _kernel_body(ptx).split("\n")
    return [line.strip() for i, line in enumerate(lines)
            if (m := re.search(r"\bshfl\.sync\.\w+\.b32\s+(%\w+)", line))
            and not re.search(re.escape(m.group(1)) + r"\b", "\n".join(lines[i + 1:]))]


@pytest.mark.parametrize("width, algorithm, block", [
    (32, None, 128), (8, None, 128), (None, "raking", 256), (None, "raking_memoize", 64),
    (None, "warp_scans", 32), (None, "warp_scans", 1024)])
def test_a_scan_shuffles_no_aggregate_it_is_not_asked_for(width, algorithm, block):
    """Without block_aggregate no shuffle moves the group's last lane: an unread shfl.sync
    stays in NVVM's PTX, and where ptxas drops it its divergence check and warp sync stay
    (the int64 raking scan's loop: three BRA.DIV where CUB's has one). With it, the raking
    and logical-warp scans take exactly one more shuffle (idx, from the last lane)."""
    group = cm.combining_group(width)

    @cuda.jit
    def plain(src, dst):
        items = coop.ThreadData(2)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(coop.this_block(), src, items, offset=base)
        out = coop.scan(group(), items, mode="exclusive", scan_op="sum", algorithm=algorithm)
        coop.store(coop.this_block(), dst, out, offset=base)

    @cuda.jit
    def with_aggregate(src, dst):
        items = coop.ThreadData(2)
        base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(coop.this_block(), src, items, offset=base)
        out, total = coop.scan(group(), items, mode="exclusive", scan_op="sum",
                               block_aggregate=True, algorithm=algorithm)
        out[0] += total
        coop.store(coop.this_block(), dst, out, offset=base)

    ptx = _ptx(plain, (I32, I32), block=(block,))
    _no_local_memory(ptx)
    assert _unread_shuffles(ptx) == []
    aggregate = _ptx(with_aggregate, (I32, I32), block=(block,))
    assert _unread_shuffles(aggregate) == []
    if algorithm != "warp_scans":
        assert _shuffles(aggregate) == _shuffles(ptx) + 1


@pytest.mark.parametrize("width", (2, 16, 32))
def test_warp_scan_is_shuffles_only(width):
    kernel = cm.scan_kernel(2, width, "inclusive", "min", None, False, True)
    ptx = _ptx(kernel, (I32, I32, I32, types.int32))
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) == 0 and _barriers(ptx) == 0


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_float_max_and_min_are_one_instruction_each(dtype):
    """cuda::maximum's fmax: max.f32 (FMNMX), where `a < b ? b : a` was a compare and a
    select in a row on the block reduction's serial path."""
    array, bits = getattr(types, dtype)[::1], dtype[-2:]
    for op in ("max", "min"):
        kernel = cm.reduce_kernel(4, None, op, "warp_reductions", False, False, False)
        body = _kernel_body(_ptx(kernel, (array, array, types.int64), block=(1024,)))
        # 3 over the thread's items, 5 over the warp, 31 over the warps' aggregates.
        assert body.count(f"{op}.f{bits}") == 3 + 5 + 31
        assert not re.search(rf"setp\.\w+\.f{bits}", body)


def test_unsigned_items_compare_unsigned():
    kernel = cm.reduce_kernel(2, 32, "min", None, True, False, False)
    ptx = _ptx(kernel, (U32, U32, types.int64))
    assert "min.u32" in ptx or "setp.lt.u32" in ptx or "setp.gt.u32" in ptx


def test_consecutive_block_reductions_get_one_reuse_barrier():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        a = coop.reduce(block, items, "max")
        b = coop.sum(block, items)
        dst[cuda.threadIdx.x] = a + b

    ptx = _ptx(cuda.jit(kernel), (I32, I32))
    # One barrier inside each reduction and one before the second reuses the
    # slice the first read.
    assert _barriers(ptx) == 3


def test_inclusive_sum_and_exclusive_sum_name_their_operator():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(2)
        coop.load(block, src, items)
        inclusive = coop.inclusive_sum(block, items)
        exclusive = coop.exclusive_sum(block, inclusive, algorithm="warp_scans")
        coop.store(block, dst, exclusive)

    _no_local_memory(_ptx(cuda.jit(kernel), (I32, I32)))


def test_error_unknown_operator():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[0] = coop.reduce(block, items, "average")

    message = _error(kernel)
    assert "binary_op must be one of 'sum', 'min', 'max'" in message and "'average'" in message


def test_error_bitwise_operator_on_floats():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[0] = coop.reduce(block, items, "bit_or")

    assert "operator 'bit_or' needs integer items; got 'f32'" in _error(kernel, (F32, F32))


def test_error_algorithm_on_a_warp():
    def kernel(src, dst):
        warp = coop.this_warp()
        items = coop.ThreadData(4)
        coop.load(warp, src, items)
        dst[0] = coop.sum(warp, items, algorithm="raking")

    assert "algorithm is a block option" in _error(kernel)


def test_error_unknown_block_algorithm():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[0] = coop.sum(block, items, algorithm="ternary_tree")

    assert "algorithm must be one of 'warp_reductions', 'raking'" in _error(kernel)


def test_error_broadcast_known_only_at_run_time():
    def kernel(src, dst, flag):
        dst[0] = coop.sum(coop.this_block(), src[cuda.threadIdx.x], broadcast=flag)

    assert "broadcast must be a compile-time constant, one of False, True (a literal, or a " \
        "global or closure variable); got a value of type bool known only at run time" in \
        _error(kernel, (I32, I32, types.boolean))


def test_error_scan_on_a_thread():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        coop.store(coop.this_block(), dst, coop.inclusive_sum(coop.this_thread(), items))

    assert "needs a block, a warp or a logical warp" in _error(kernel)


def test_error_reduce_on_a_cluster():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        dst[0] = coop.sum(coop.this_cluster(), items)

    assert "needs a block, a warp or a logical warp" in _error(kernel)


def test_error_initial_value_of_another_dtype():
    def kernel(src, dst, x):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.exclusive_scan(block, items, "max", initial_value=x))

    message = _error(kernel, (I32, I32, types.float64))
    assert "initial_value has type float64 but the payload's items are int32" in message


def test_error_valid_items_must_be_an_integer():
    def kernel(src, dst, n):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[0] = coop.sum(block, items, valid_items=n)

    assert "valid_items must be an integer; got float32" in _error(kernel, (I32, I32, types.float32))


def test_error_block_aggregate_must_be_a_constant():
    def kernel(src, dst, flag):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.inclusive_sum(block, items, block_aggregate=flag))

    assert "block_aggregate must be a compile-time constant" in _error(
        kernel, (I32, I32, types.boolean))


PREFIX_ARGS = (I32, I32, I32, types.int64)


@pytest.mark.parametrize("shared_state", (False, True), ids=("local", "shared"))
@pytest.mark.parametrize("algorithm", cm.SCAN_ALGORITHMS)
def test_block_scan_with_a_prefix_function(algorithm, shared_state):
    # CUB's BlockPrefixCallbackOp: raking calls it inside the raking warp
    # and shuffles the prefix (no extra barrier); warp_scans publishes it in
    # one more slot after one more barrier. The function is inlined, and a
    # local state stays in a register.
    kernel = cm.prefix_scan_kernel(4, "exclusive", "sum", algorithm, "int32", shared_state)
    ptx = _ptx(kernel, PREFIX_ARGS, block=(256,))
    _no_local_memory(ptx)
    assert not re.search(r"\bcall(\.uni)?\b", _kernel_body(ptx))
    # Per tile: the scan's own barriers only. The next tile's scan first
    # writes what no other thread reads last (raking: a thread's own grid
    # slot; warp_scans: the warp aggregates, not the prefix's slot), so the
    # scratch needs no reuse barrier. NVVM may unroll the loop over tiles:
    # each copy of the body loads one tile of 4 items a thread.
    copies, rest = divmod(len(re.findall(r"\bld\.global\.u32\b", _kernel_body(ptx))), 4)
    assert copies >= 1 and rest == 0
    assert _barriers(ptx) == 2 * copies
    # The scratch (a shared state is Numba's own scalar): 8 warp aggregates
    # and the block prefix, or the raking grid.
    slots = 8 + 1 if algorithm == "warp_scans" else 32 * 9
    assert _shared_bytes(ptx) in (slots * 4, -(-slots * 4 // 16) * 16)


def test_prefix_function_results_of_another_width_are_converted():
    # Numba types `state[0] + aggregate` of int16 as int64; like an operator,
    # the result is converted back to the item type.
    kernel = cm.prefix_scan_kernel(2, "inclusive", "sum", None, "int16", False)
    ptx = _ptx(kernel, (types.int16[::1],) * 3 + (types.int64,))
    _no_local_memory(ptx)


def _prefix_error(scan_call, function="def", state="local", argtypes=PREFIX_ARGS):
    """The error of a kernel scanning with a prefix_op built from
    `function` and `state` (sources of expressions) by `scan_call`."""
    source = f"""
import numpy
from numba_cuda_mlir import cuda
from cuda import coop


def running_total(state, aggregate):
    prefix = state[0]
    state[0] = prefix + aggregate
    return prefix


def two_items(a, b):
    return a + b


def as_bool(state, aggregate):
    return aggregate > 0


def kernel(src, dst, totals, x):
    block = coop.this_block()
    state = {state}
    prefix = coop.StatefulFunction({function}, state)
    items = coop.ThreadData(4)
    coop.load(block, src, items)
    coop.store(block, dst, {scan_call})
"""
    namespace = {}
    exec(compile(source, "<prefix kernel>", "exec"), namespace)
    return _error(namespace["kernel"], argtypes)


LOCAL_STATE = "cuda.local.array(1, numpy.int32)"


def test_error_prefix_op_on_a_warp():
    message = _prefix_error("coop.exclusive_sum(coop.this_warp(), items, prefix_op=prefix)",
                            "running_total", LOCAL_STATE)
    assert "prefix_op is a block option: a warp group scans by shuffles" in message


def test_error_prefix_op_with_initial_value():
    message = _prefix_error("coop.exclusive_scan(block, items, initial_value=0, "
                            "prefix_op=prefix)", "running_total", LOCAL_STATE)
    assert "prefix_op and initial_value both seed the scan; pass one" in message


def test_error_prefix_op_must_be_a_stateful_function():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=1)",
                            "running_total", LOCAL_STATE)
    assert "coop.inclusive_sum's prefix_op must be a coop.StatefulFunction(function, " \
        "state) made in the kernel, or a function of the tile's aggregate; got " \
        "Literal[int](1)" in message


def test_error_prefix_function_takes_state_and_aggregate():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=prefix)",
                            "two_items", LOCAL_STATE)
    # Numba compiles two_items(array, int32) as an array expression.
    assert "coop.inclusive_sum's prefix_op's function two_items must return the item type " \
        "int32 for (array(int32, 1d, C), int32); it returns array(int32, 1d, C)" in message


def test_error_prefix_function_returns_an_item():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=prefix)",
                            "as_bool", LOCAL_STATE)
    assert "prefix_op's function as_bool must return the item type int32 for " \
        "(array(int32, 1d, C), int32); it returns bool" in message


def test_error_prefix_function_arity():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=prefix)",
                            "lambda state: state[0]", LOCAL_STATE)
    assert "must take the state and the tile's aggregate (array(int32, 1d, C), int32) " \
        "and return the prefix" in message


def test_error_stateful_function_state_must_be_an_array():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=prefix)",
                            "running_total", "x")
    assert "StatefulFunction's state must be a one-dimensional array, e.g. " \
        "cuda.local.array(1, numpy.int32); got int64" in message


def test_error_stateful_function_function_must_be_a_function():
    message = _prefix_error("coop.inclusive_sum(block, items, prefix_op=prefix)",
                            "x", LOCAL_STATE)
    assert "StatefulFunction's function must be a Python function " \
        "function(state, tile_aggregate); got int64" in message


def test_stateful_function_outside_kernels():
    def running_total(state, aggregate):
        prefix = state[0]
        state[0] = prefix + aggregate
        return prefix

    import numpy as np
    prefix = coop.StatefulFunction(running_total, np.zeros(1, np.int32))
    assert [prefix(5), prefix(7), prefix(1)] == [0, 5, 12] and prefix.state[0] == 13
    with pytest.raises(TypeError, match="StatefulFunction's function must be callable"):
        coop.StatefulFunction(3, np.zeros(1))


def test_error_operator_both_positional_and_keyword():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[0] = coop.reduce(block, items, "max", binary_op="min")

    assert "binary_op both positionally and as a keyword" in _error(kernel)


def test_coop_kernels_get_their_blocks_launch_bounds():
    # As CUB's kernels have __launch_bounds__: ptxas keeps a 1024-thread
    # raking scan within the registers the block can launch with.
    kernel = cm.scan_kernel(1, None, "exclusive", "sum", "raking_memoize", False, False)
    ptx = _ptx(kernel, (types.int16[::1],) * 3 + (types.int16,), block=(1024,))
    assert ".reqntid 1024, 1, 1" in ptx  # raking: the exact block
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 64


def test_a_transposed_tile_scan_keeps_one_block_of_1024_threads_in_32_registers():
    """The striped slots of the tile's two transposes are one address plus constants, so
    nothing of the load's addresses stays live across the scan: a float64 warp_scans tile
    kernel at 1024x4 takes CUB's 32 registers (two blocks an SM), where the slots swizzled
    one by one took 60 (one)."""
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        base = cuda.blockIdx.x * 4096
        coop.load(block, src, items, offset=base, algorithm="transpose")
        scanned = coop.inclusive_sum(block, items, algorithm="warp_scans")
        coop.store(block, dst, scanned, offset=base, algorithm="transpose")

    ptx = _ptx(cuda.jit(kernel), (types.float64[::1],) * 2, block=(1024,))
    _no_local_memory(ptx)
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 32


def test_a_scan_in_a_loop_keeps_its_warp_aggregate_store_out_of_a_branch():
    """The last lane's store of its warp's aggregate is one predicated st.shared: in a branch
    inside the kernel's loop NVVM materialized the scratch address there every iteration and
    ptxas took 64 registers for a float64 warp_scans loop at 1024x4 (one block an SM; CUB's
    takes 36); predicated, the address is hoisted out of the loop and the loop takes 38."""
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(4)
        base = cuda.blockIdx.x * 4096
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            scanned = coop.inclusive_sum(block, items, algorithm="warp_scans")
            for i in range(4):
                items[i] = scanned[i] * 0.5
        coop.store(block, dst, items, offset=base, algorithm="striped")

    ptx = _ptx(cuda.jit(kernel), (types.float64[::1],) * 2 + (types.int32,), block=(1024,))
    _no_local_memory(ptx)
    body = _kernel_body(ptx)
    assert re.search(r"@p st\.shared\.b64", body)
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 40


def test_a_partial_raking_sum_in_a_loop_rakes_whole_segments():
    """A partial tile's raking threads fold whole segments, the threads past the valid ones
    having placed -0.0 (the sum's exact identity): CUB's guards, a compare and select a
    slot and a shuffle step, took a float64 loop at 256x8 to 48 registers (CUB's 32; 0.72
    of CUB's speed on the H200); padded 40 (1.08)."""
    def kernel(src, dst, reps, valid):
        block = coop.this_block()
        items = coop.ThreadData(8)
        base = cuda.blockIdx.x * 2048
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            total = coop.sum(block, items, valid_items=valid, broadcast=False,
                             algorithm="raking")
            if cuda.threadIdx.x == 0:
                for i in range(8):
                    x = items[i] + total
                    items[i] = x - math.floor(x * 0.00390625) * 256.0
        coop.store(block, dst, items, offset=base, algorithm="striped")

    ptx = _ptx(cuda.jit(kernel), (types.float64[::1],) * 2 + (types.int32, types.int32),
               block=(256,))
    _no_local_memory(ptx)
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 40


def _running_total(state, aggregate):
    old = state[0]
    state[0] = (old + aggregate) * 0.5
    return old


def test_a_prefix_scan_in_a_loop_folds_the_warp_aggregates_after_the_warp_scan():
    """With a prefix function, the fold's `warp == w` compares read an opaque copy of the
    warp number made after the barrier: in the kernel's loop they were hoisted and sunk to
    the loop's top, above the warp scan's shuffles, and a float32 warp_scans prefix loop at
    1024x4 took 43 registers (CUB's 31; 0.79 of CUB's speed on the H200); now 28-29."""
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(4)
        state = cuda.local.array(1, types.float32)
        state[0] = 0
        prefix = coop.StatefulFunction(_running_total, state)
        base = cuda.blockIdx.x * 4096
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            scanned = coop.exclusive_sum(block, items, prefix_op=prefix, algorithm="warp_scans")
            for i in range(4):
                items[i] = scanned[i] * 0.5
        coop.store(block, dst, items, offset=base, algorithm="striped")

    ptx = _ptx(cuda.jit(kernel), (types.float32[::1],) * 2 + (types.int32,), block=(1024,))
    _no_local_memory(ptx)
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 32


@pytest.mark.parametrize("dtype, algorithm", ((types.int32, "raking"),
                                               (types.float32, "raking_memoize")))
def test_raking_prefix_scans_in_a_loop_fuse_only_int32_sums(dtype, algorithm):
    """Below 16 registers of segment an int32 sum keeps the segment between the sweeps and
    scans the segment totals with CUB's fused steps (raking's select steps: 0.90 of CUB's
    speed at 256x8 on the H200, fused 0.97); a float32 sum takes the select form (fused
    beside a kept segment, as raking_memoize had it: 40 registers, 0.92; now 32, 0.97)."""
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(8)
        state = cuda.local.array(1, dtype)
        state[0] = 0
        prefix = coop.StatefulFunction(_running_total, state)
        base = cuda.blockIdx.x * 2048
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            scanned = coop.exclusive_sum(block, items, prefix_op=prefix, algorithm=algorithm)
            for i in range(8):
                items[i] = scanned[i] * 3
        coop.store(block, dst, items, offset=base, algorithm="striped")

    ptx = _ptx(cuda.jit(kernel), (dtype[::1],) * 2 + (types.int32,), block=(256,))
    _no_local_memory(ptx)
    fused = len(re.findall(r"shfl\.sync\.up\.b32 r0\|p", _kernel_body(ptx)))
    assert (fused >= 5) if dtype == types.int32 else (fused == 0)  # 5 a scan, loop unrolled
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 32


def test_an_int64_raking_scan_leaves_its_segment_to_the_compiler():
    """An int64 sum has no fused step: its downsweep reads the segment again and the
    compiler forwards what pays. Kept by the lowering, an inclusive_sum loop at 128x4 took
    40 registers (0.93 of CUB's speed on the H200, CUB 32); read again 32 (1.04)."""
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(4)
        base = np.int64(np.uint32(cuda.blockIdx.x)) * 512
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            scanned = coop.inclusive_sum(block, items, algorithm="raking_memoize")
            for i in range(4):
                x = np.int64(scanned[i])
                items[i] = np.int64((x ^ (x >> 32)) & 255)
        coop.store(block, dst, items, offset=base, algorithm="striped")

    ptx = _ptx(cuda.jit(kernel), (types.int64[::1],) * 2 + (types.int32,), block=(128,))
    _no_local_memory(ptx)
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 32


@pytest.mark.parametrize("width", (None, 8))
def test_float16_reductions_and_scans_compile(width):
    # Numba keeps float16 payloads as i16 words: the operators still combine
    # float16 items (never the words as integers), and they shuffle as
    # 16-bit words. libNVVM computes fmax of float16 items in float32 (exact).
    F16 = types.float16[::1]
    reduce_kernel = cm.reduce_kernel(4, width, "sum", None, True, False, False)
    scan_kernel = cm.scan_kernel(2, width, "inclusive", "max", None, False, True)
    for kernel, argtypes, arithmetic in (
            (reduce_kernel, (F16, F16, types.int64), r"\badd\.f16\b"),
            (scan_kernel, (F16, F16, F16, types.float16), r"\bmax\.f(16|32)\b")):
        ptx = _ptx(kernel, argtypes)
        _no_local_memory(ptx)
        assert _shuffles(ptx) > 0
        body = _kernel_body(ptx)
        assert re.search(arithmetic, body) and not re.search(r"\b(add|max|min)\.[su]16\b", body)


def test_float16_constants_keep_their_value():
    # oob_default=1.5 is the float16 1.5 (0x3E00 = 15872), not 1 as an i16.
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, valid_items=3, oob_default=1.5)
        coop.store(block, dst, items)

    F16 = types.float16[::1]
    ptx = _ptx(cuda.jit(kernel), (F16, F16))
    assert re.search(r"mov\.[bu]16\s+%rs\d+, 15872;", ptx)
