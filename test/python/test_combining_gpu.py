"""reduce, sum and the scans on the GPU: every block algorithm, warps and
logical warps of 1..32 lanes, threads, 1-D, 2-D and 3-D blocks (also blocks
that are not whole warps), items per thread 1..8, the named operators over
integer and floating dtypes, partial tiles; each thread's result checked
against a NumPy model."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
BLOCK_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (96, 1, 1), 3),
                 ("int8", (32, 1, 1), 1), ("uint64", (256, 1, 1), 2),
                 ("float32", (8, 16, 1), 8), ("int16", (1024, 1, 1), 1),
                 ("int32", (16, 2, 2), 3), ("uint32", (40, 1, 1), 2),
                 # Past four warps, 32-bit integer block scans take the warp prefix by
                 # redux.sync (signed and unsigned min/max, sums, bitwise operators).
                 ("int32", (32, 8, 1), 2), ("uint32", (1024, 1, 1), 1),
                 # 8- and 16-bit integers reduce widened by one redux.sync: signed min and
                 # max sign-extended, the rest zero-extended (warp prefixes from two warps).
                 ("int8", (96, 1, 1), 3), ("uint16", (64, 2, 1), 2),
                 # Sixteen 64-bit warp aggregates: warp_scans reads them one at a time.
                 ("float64", (16, 32, 1), 2))
WARP_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (64, 1, 1), 1),
                ("uint16", (96, 1, 1), 3),
                # 64-bit sums and bitwise operators reduce by redux.sync over pieces.
                ("int64", (64, 1, 1), 2))


def _values(rng, dtype, shape, op):
    """Small integers (also as floats): sums and products of a tile stay
    exact, so results compare equal whatever the combination order."""
    dtype = np.dtype(dtype)
    if op == "multiplies":
        # Mostly ones: products of a whole tile stay representable.
        return np.where(rng.random(shape) < 0.05, 2, 1).astype(dtype)
    low = 0 if dtype.kind == "u" else -8
    return rng.integers(low, 9, shape).astype(dtype)


def _ops(dtype):
    ops = ["sum", "min", "max", "multiplies"]
    if np.dtype(dtype).kind in "iu":
        ops += ["bit_and", "bit_or", "bit_xor"]
    return ops


def _reduce_cases():
    for algorithm in cm.REDUCE_ALGORITHMS:
        for dtype, block, ipt in BLOCK_CONFIGS:
            yield (None, algorithm, dtype, block, ipt)
    for width in (1, 2, 4, 8, 16, 32):
        for dtype, block, ipt in WARP_CONFIGS:
            yield (width, None, dtype, block, ipt)
    for dtype, block, ipt in BLOCK_CONFIGS[:3]:
        yield (0, None, dtype, block, ipt)


def _run_reduce(width, algorithm, dtype, block, ipt, op, broadcast, scalar, valid):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    per_thread = 1 if scalar else ipt
    size = threads if width is None else (width or 1)
    rng = np.random.default_rng(11)
    values = _values(rng, dtype, (GRID, threads, per_thread), op)
    dst = cuda.device_array(GRID * threads, values.dtype)
    kernel = cm.reduce_kernel(per_thread, width, op, algorithm, broadcast, scalar,
                              valid is not None)
    kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst, valid or 0)
    got = dst.copy_to_host().reshape(GRID, threads // size, size)
    groups = values.reshape(GRID, threads // size, size, per_thread)
    for b in range(GRID):
        for g in range(threads // size):
            expected = cm.reduce_model(op, groups[b, g], valid)
            ranks = slice(None) if broadcast or width is not None else slice(0, 1)
            assert np.all(got[b, g, ranks] == expected), (b, g, got[b, g, ranks], expected)


@pytest.mark.parametrize("width,algorithm,dtype,block,ipt", list(_reduce_cases()), ids=str)
def test_reduce(width, algorithm, dtype, block, ipt):
    for op in _ops(dtype):
        _run_reduce(width, algorithm, dtype, block, ipt, op, True, False, None)
    _run_reduce(width, algorithm, dtype, block, ipt, "sum", False, False, None)


@pytest.mark.parametrize("width,algorithm,dtype,block,ipt", list(_reduce_cases()), ids=str)
def test_reduce_partial_and_scalar(width, algorithm, dtype, block, ipt):
    threads = int(np.prod(block))
    size = threads if width is None else (width or 1)
    tile = size * ipt
    for valid in sorted({1, max(1, tile // 3), tile - 1 if tile > 1 else 1, tile}):
        for op in ("max", "sum"):
            _run_reduce(width, algorithm, dtype, block, ipt, op, True, False, valid)
    if width != 0:
        _run_reduce(width, algorithm, dtype, block, ipt, "sum", True, True, None)
        _run_reduce(width, algorithm, dtype, block, ipt, "min", True, True, max(1, size // 2))


@pytest.mark.parametrize("algorithm", cm.REDUCE_ALGORITHMS)
@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_partial_float_sums_of_negative_zeros_are_negative_zero(algorithm, dtype):
    """A partial tile's raking threads fold whole segments, the missing partials being the
    sum's exact identity -0.0 (+0.0 would turn a sum of -0.0 items into +0.0); CUB folds the
    valid items alone."""
    from numba_cuda_mlir import cuda

    block, ipt = 256, 2
    kernel = cm.reduce_kernel(ipt, None, "sum", algorithm, True, False, True)
    values = np.full(GRID * block * ipt, -0.0, dtype)
    dst = cuda.device_array(GRID * block, dtype)
    for valid in (1, 100, block * ipt):
        kernel[GRID, block](cuda.to_device(values), dst, valid)
        got = dst.copy_to_host()
        assert np.all(got == 0) and np.all(np.signbit(got)), (valid, got[:4])


def _scan_cases():
    for algorithm in cm.SCAN_ALGORITHMS:
        for dtype, block, ipt in BLOCK_CONFIGS:
            yield (None, algorithm, dtype, block, ipt)
    for width in (1, 2, 4, 8, 16, 32):
        for dtype, block, ipt in WARP_CONFIGS:
            yield (width, None, dtype, block, ipt)


def _run_scan(width, algorithm, dtype, block, ipt, op, mode, scalar, initial):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    per_thread = 1 if scalar else ipt
    size = threads if width is None else width
    rng = np.random.default_rng(5)
    values = _values(rng, dtype, (GRID, threads, per_thread), op)
    dst = cuda.device_array(values.size, values.dtype)
    agg = cuda.device_array(GRID * threads, values.dtype)
    kernel = cm.scan_kernel(per_thread, width, mode, op, algorithm, scalar,
                            initial is not None)
    init = np.dtype(dtype).type(initial if initial is not None else 0)
    kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst, agg, init)
    got = dst.copy_to_host().reshape(GRID, threads // size, size, per_thread)
    aggregates = agg.copy_to_host().reshape(GRID, threads // size, size)
    groups = values.reshape(GRID, threads // size, size, per_thread)
    inclusive = mode == "inclusive"
    for b in range(GRID):
        for g in range(threads // size):
            seed = init if initial is not None else (
                None if inclusive else cm.identity(op, dtype))
            expected, total = cm.scan_model(op, groups[b, g], inclusive, seed)
            np.testing.assert_array_equal(got[b, g], expected, err_msg=f"{b} {g}")
            assert np.all(aggregates[b, g] == total), (b, g, aggregates[b, g], total)


@pytest.mark.parametrize("width,algorithm,dtype,block,ipt", list(_scan_cases()), ids=str)
def test_scan(width, algorithm, dtype, block, ipt):
    for mode in ("inclusive", "exclusive"):
        for op in ("sum", "max", "multiplies") if mode == "exclusive" else _ops(dtype):
            _run_scan(width, algorithm, dtype, block, ipt, op, mode, False, None)
        _run_scan(width, algorithm, dtype, block, ipt, "sum", mode, False, 3)
        _run_scan(width, algorithm, dtype, block, ipt, "min", mode, True, 2)
        _run_scan(width, algorithm, dtype, block, ipt, "sum", mode, True, None)


def first(a, b):
    return a


def last(a, b):
    return b


def larger(a, b):
    return a if a > b else b


OPERATOR_CASES = [case for case in _reduce_cases() if case[0] in (None, 4, 32, 0)
                  and case[2] in ("int32", "float64", "uint16")]


@pytest.mark.parametrize("width,algorithm,dtype,block,ipt", OPERATOR_CASES, ids=str)
def test_reduce_with_operator_functions(width, algorithm, dtype, block, ipt):
    """`first` and `last` are associative and not commutative: any
    combination out of tile order changes the result."""
    for op in (first, last, larger):
        if algorithm == "raking_commutative_only" and op is not larger:
            continue
        _run_reduce(width, algorithm, dtype, block, ipt, op, True, False, None)
    threads = int(np.prod(block))
    size = threads if width is None else (width or 1)
    _run_reduce(width, algorithm, dtype, block, ipt, last, True, False, max(1, size * ipt - 2))


SCAN_OPERATOR_CASES = [case for case in _scan_cases() if case[0] in (None, 8, 32)
                       and case[2] in ("int32", "float64", "uint16")]


@pytest.mark.parametrize("width,algorithm,dtype,block,ipt", SCAN_OPERATOR_CASES, ids=str)
def test_scan_with_operator_functions(width, algorithm, dtype, block, ipt):
    for op in (first, last, larger):
        _run_scan(width, algorithm, dtype, block, ipt, op, "inclusive", False, None)
        _run_scan(width, algorithm, dtype, block, ipt, op, "exclusive", False, 4)


TILES = 32
PREFIX_CONFIGS = (("int32", (128, 1, 1), 4), ("float64", (96, 1, 1), 3),
                  ("int64", (1024, 1, 1), 1), ("uint32", (32, 1, 1), 8),
                  ("float32", (8, 16, 1), 2), ("int16", (40, 1, 1), 3),
                  ("uint32", (256, 1, 1), 2))


def _prefix_cases():
    for algorithm in cm.SCAN_ALGORITHMS:
        for dtype, block, ipt in PREFIX_CONFIGS:
            yield algorithm, dtype, block, ipt


@pytest.mark.parametrize("algorithm,dtype,block,ipt", list(_prefix_cases()), ids=str)
def test_scan_with_a_prefix_function_over_many_tiles(algorithm, dtype, block, ipt):
    """Each block scans 32 tiles in a loop, carrying the running total in a
    StatefulFunction's state (local, then shared): every tile continues the
    scan of the tiles before it, and the state ends at the blocks' total."""
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    rng = np.random.default_rng(23)
    for mode, op, shared_state in (("exclusive", "sum", False), ("inclusive", "sum", True),
                                   ("exclusive", "max", True), ("inclusive", "max", False)):
        values = _values(rng, dtype, (GRID, TILES * threads * ipt), op)
        dst = cuda.device_array(values.size, values.dtype)
        totals = cuda.device_array(GRID, values.dtype)
        kernel = cm.prefix_scan_kernel(ipt, mode, op, algorithm, dtype, shared_state)
        kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst, totals, TILES)
        got = dst.copy_to_host().reshape(GRID, -1)
        for b in range(GRID):
            expected, total = cm.scan_model(op, values[b], mode == "inclusive",
                                            cm.identity(op, dtype))
            np.testing.assert_array_equal(got[b], expected, err_msg=f"{mode} {op} block {b}")
            assert totals.copy_to_host()[b] == total, (mode, op, b)


REPEATED_CONFIGS = (("int32", (512, 1, 1), 4), ("int64", (256, 1, 1), 1),
                    ("int32", (96, 1, 1), 3), ("int64", (8, 16, 1), 2))


@pytest.mark.parametrize("algorithm", cm.SCAN_ALGORITHMS)
@pytest.mark.parametrize("dtype,block,ipt", REPEATED_CONFIGS, ids=str)
def test_block_scans_in_a_loop_reuse_their_scratch(algorithm, dtype, block, ipt):
    """A block scans its tile 16 times in a loop, each scan's items the
    previous one's results wrapped to [-3, 4]. Raking scans and warp_scans
    with a prefix function take no reuse barrier between iterations (run
    under racecheck by test/sanitize.py); every iteration must see the
    items the previous one wrote."""
    from numba_cuda_mlir import cuda

    threads, reps = int(np.prod(block)), 16
    rng = np.random.default_rng(29)
    for mode in ("exclusive", "inclusive"):
        values = rng.integers(-3, 5, (GRID, threads * ipt)).astype(dtype)
        dst = cuda.device_array(values.size, values.dtype)
        kernel = cm.repeated_scan_kernel(ipt, mode, algorithm)
        kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst, reps)
        expected = values.copy()
        for b in range(GRID):
            for _ in range(reps):
                out, _ = cm.scan_model("sum", expected[b], mode == "inclusive",
                                       cm.identity("sum", dtype))
                expected[b] = (out & 7) - 3
        np.testing.assert_array_equal(dst.copy_to_host().reshape(GRID, -1), expected,
                                      err_msg=mode)


@pytest.mark.parametrize("width", (None, 8, 32))
def test_float16_reductions_and_scans(width):
    """float16 payloads shuffle as 16-bit words; small integers keep sums
    exact."""
    from numba_cuda_mlir import cuda

    block, ipt = (128, 1, 1), 4
    threads = int(np.prod(block))
    size = threads if width is None else width
    rng = np.random.default_rng(3)
    values = rng.integers(-4, 5, (GRID, threads, ipt)).astype(np.float16)
    dst = cuda.device_array(GRID * threads, np.float16)
    cm.reduce_kernel(ipt, width, "sum", None, True, False, False)[GRID, block](
        cuda.to_device(values.reshape(-1)), dst, 0)
    got = dst.copy_to_host().reshape(GRID, threads // size, size)
    groups = values.reshape(GRID, threads // size, size, ipt)
    for b in range(GRID):
        for g in range(threads // size):
            assert np.all(got[b, g] == cm.reduce_model("sum", groups[b, g])), (b, g)
    scanned = cuda.device_array(values.size, np.float16)
    agg = cuda.device_array(GRID * threads, np.float16)
    cm.scan_kernel(ipt, width, "inclusive", "max", None, False, False)[GRID, block](
        cuda.to_device(values.reshape(-1)), scanned, agg, np.float16(0))
    got = scanned.copy_to_host().reshape(GRID, threads // size, size, ipt)
    for b in range(GRID):
        for g in range(threads // size):
            expected, _ = cm.scan_model("max", groups[b, g], True, None)
            np.testing.assert_array_equal(got[b, g], expected)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("width,algorithm", ((None, "warp_reductions"), (None, "raking"),
                                             (None, "raking_commutative_only"), (32, None),
                                             (8, None)), ids=str)
def test_float_min_and_max_pass_over_nans(width, algorithm, dtype):
    """min and max of floats are cuda::minimum's and cuda::maximum's fmin and fmax: a NaN
    item is passed over, whatever its position; a group of NaNs alone gives NaN. The inclusive
    max scan with warp_scans (or the warp's) does the same at every item."""
    from numba_cuda_mlir import cuda

    block, ipt = (128, 1, 1), 2
    threads = int(np.prod(block))
    size = threads if width is None else width
    rng = np.random.default_rng(17)
    values = _values(rng, dtype, (GRID, threads, ipt), "max")
    values[rng.random(values.shape) < 0.2] = np.nan
    values[0, :size] = np.nan  # the first group of block 0: NaNs only
    groups = values.reshape(GRID, threads // size, size, ipt)
    for op, fold in (("max", np.fmax), ("min", np.fmin)):
        dst = cuda.device_array(GRID * threads, values.dtype)
        cm.reduce_kernel(ipt, width, op, algorithm, True, False, False)[GRID, block](
            cuda.to_device(values.reshape(-1)), dst, 0)
        got = dst.copy_to_host().reshape(GRID, threads // size, size)
        for b in range(GRID):
            for g in range(threads // size):
                expected = fold.reduce(groups[b, g], axis=None)
                np.testing.assert_array_equal(got[b, g], np.full(size, expected),
                                              err_msg=f"{op} {b} {g}")
    scanned = cuda.device_array(values.size, values.dtype)
    agg = cuda.device_array(GRID * threads, values.dtype)
    scan_algorithm = None if width else "warp_scans"
    cm.scan_kernel(ipt, width, "inclusive", "max", scan_algorithm, False, False)[GRID, block](
        cuda.to_device(values.reshape(-1)), scanned, agg, values.dtype.type(0))
    got = scanned.copy_to_host().reshape(GRID, threads // size, size * ipt)
    for b in range(GRID):
        for g in range(threads // size):
            np.testing.assert_array_equal(got[b, g], np.fmax.accumulate(groups[b, g].reshape(-1)),
                                          err_msg=f"scan {b} {g}")


def _cub_thread_sum(items, dtype):
    """CUB's ThreadReduce (CCCL 3.5) of a named sum in `dtype`: a binary tree
    for 4-byte floats, float16 items paired as __half2 lanes from 4 items on."""
    def tree(a):
        a, i = list(a), 1
        while i < len(a):
            for j in range(0, len(a) - i, 2 * i):
                a[j] = dtype(a[j] + a[j + i])
            i *= 2
        return a[0]
    if dtype is np.float16 and len(items) >= 4:
        pairs = len(items) // 2 * 2
        total = dtype(tree(items[0:pairs:2]) + tree(items[1:pairs:2]))
        return dtype(total + items[-1]) if len(items) % 2 else total
    return tree(items)


@pytest.mark.parametrize("dtype", (np.float32, np.float16))
@pytest.mark.parametrize("ipt", (3, 4, 5, 8))
def test_thread_sums_of_floats_round_as_cubs(dtype, ipt):
    """Items whose sums round: a thread's fold follows CUB's order bit for bit."""
    from numba_cuda_mlir import cuda

    threads = 64
    rng = np.random.default_rng(23)
    values = rng.standard_normal((threads, ipt)) * 1000
    if dtype is np.float16:
        # Multiples of 1/8: float16 sums are exact in float32 before they round
        # to float16, so NumPy's float16 arithmetic rounds once, as the GPU's.
        values = np.round(values * 8) / 8
    values = values.astype(dtype)
    dst = cuda.device_array(threads, dtype)
    cm.reduce_kernel(ipt, 0, "sum", None, True, False, False)[1, threads](
        cuda.to_device(values.reshape(-1)), dst, 0)
    expected = np.array([_cub_thread_sum(row, dtype) for row in values], dtype)
    np.testing.assert_array_equal(dst.copy_to_host(), expected)
    if ipt >= 4:  # (three items fold in order as a tree too)
        in_order = np.array([np.add.accumulate(row, dtype=dtype)[-1] for row in values], dtype)
        assert not np.array_equal(expected, in_order), "the values must round differently in order"
