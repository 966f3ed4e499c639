"""reduce, sum and the scans through the Numba backend, compile-only: every
group kind and block algorithm compiles without local memory, with CUB's
scratch and barrier counts; every misuse is a compile-time error naming the
operand."""

import re

import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
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
    # for int on sm_80+), no butterflies.
    assert _shuffles(ptx) == 0 and _reduxes(ptx) == 1


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
    assert _shuffles(ptx) == 0 and _barriers(ptx) == 0 and _shared_bytes(ptx) == 0


@pytest.mark.parametrize("algorithm", cm.SCAN_ALGORITHMS)
def test_block_scan_compiles_with_cubs_scratch_and_barriers(algorithm):
    kernel = cm.scan_kernel(4, None, "exclusive", "sum", algorithm, False, False)
    ptx = _ptx(kernel, (I32, I32, I32, types.int32), block=(256,))
    _no_local_memory(ptx)
    assert _barriers(ptx) == (1 if algorithm == "warp_scans" else 2)
    # The raking grid and the aggregate's slot after it.
    expected = 8 * 4 if algorithm == "warp_scans" else (32 * 9 + 1) * 4
    assert _shared_bytes(ptx) == -(-expected // 16) * 16 or _shared_bytes(ptx) == expected


@pytest.mark.parametrize("width", (2, 16, 32))
def test_warp_scan_is_shuffles_only(width):
    kernel = cm.scan_kernel(2, width, "inclusive", "min", None, False, True)
    ptx = _ptx(kernel, (I32, I32, I32, types.int32))
    _no_local_memory(ptx)
    assert _shared_bytes(ptx) == 0 and _barriers(ptx) == 0


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


def test_error_prefix_op_names_the_workaround():
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, coop.inclusive_sum(block, items, prefix_op=1))

    assert "prefix_op" in _error(kernel) and "block_aggregate=True" in _error(kernel)


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
    assert ".maxntid 1024, 1, 1" in ptx
    registers = int(re.search(r"Used (\d+) registers", nc.ptxas_report(ptx)).group(1))
    assert registers <= 64


@pytest.mark.parametrize("width", (None, 8))
def test_float16_reductions_and_scans_compile(width):
    # Numba-CUDA-MLIR types float16 payloads; they shuffle as 16-bit words.
    F16 = types.float16[::1]
    reduce_kernel = cm.reduce_kernel(4, width, "sum", None, True, False, False)
    scan_kernel = cm.scan_kernel(2, width, "inclusive", "max", None, False, False)
    for kernel, argtypes in ((reduce_kernel, (F16, F16, types.int64)),
                             (scan_kernel, (F16, F16, F16, types.float16))):
        ptx = _ptx(kernel, argtypes)
        _no_local_memory(ptx)
        assert _shuffles(ptx) > 0
