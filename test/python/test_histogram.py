"""histogram through the Numba backend, compile-only: fresh counters, an
earlier call's counters, shared and global arrays compile without local
memory, with CUB's atomic histogram (one shared atomic a sample between the
zeroing and the reading barriers; one global atomic a bin and thread for a
global array); every misuse is a compile-time error naming the operand and
the fix."""

import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

U8 = types.uint8[::1]
I32 = types.int32[::1]
U32 = types.uint32[::1]
I64 = types.int64[::1]
U64 = types.uint64[::1]
F32 = types.float32[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _block_barriers(ptx):
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx))


def _shared_reds(ptx, bits=32):
    return len(re.findall(rf"\bred\.shared\.add\.u{bits}\b", ptx))


def _predicated_shared_reds(ptx):
    return len(re.findall(r"@p red\.shared\.add", ptx))


def _global_reds(ptx, bits=32):
    return len(re.findall(rf"\bred\.add\.u{bits}\b", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


@pytest.mark.parametrize("scalar", (False, True))
def test_fresh_counters_take_one_shared_atomic_a_sample_between_two_barriers(scalar):
    kernel = cm.histogram_kernel(128, 4, 256, "fresh", scalar=scalar)
    ptx = _ptx(kernel, [U8, U8, I32, types.int32])
    _no_local_memory(ptx)
    assert _block_barriers(ptx) == 2
    # uint8 samples into 256 bins all count: no predicated atomic, nothing taken back.
    assert _shared_reds(ptx) == (1 if scalar else 4)
    assert _predicated_shared_reds(ptx) == 0
    assert _global_reds(ptx) == 0


def test_64_bit_counters_add_in_64_bits():
    kernel = cm.histogram_kernel(128, 4, 256, "fresh", counter_dtype=np.uint64)
    ptx = _ptx(kernel, [U8, U8, U64, types.int32])
    _no_local_memory(ptx)
    assert _shared_reds(ptx, 64) == 4
    assert _shared_reds(ptx, 32) == 0


def test_accumulate_adds_the_earlier_counters():
    kernel = cm.histogram_kernel(128, 4, 300, "accumulate")
    ptx = _ptx(kernel, [I32, I32, I32, types.int32])
    _no_local_memory(ptx)
    # Two histograms, and a reuse barrier between the first's reads and the second's zeroing.
    assert _block_barriers(ptx) == 5
    # A sample's increment each, unpredicated; an int32 sample outside [0, 300) increments
    # the spare counter past the bins (no take-back): 300 counters and the spare.
    assert _shared_reds(ptx) == 8
    assert _predicated_shared_reds(ptx) == 0
    sizes = [int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)]
    assert sizes == [301 * 4]


def test_shared_out_synchronizes_before_and_after_and_takes_no_scratch():
    kernel = cm.histogram_kernel(128, 4, 256, "shared")
    ptx = _ptx(kernel, [U8, U8, I32, types.int32])
    _no_local_memory(ptx)
    assert _block_barriers(ptx) == 2
    assert _shared_reds(ptx) == 4
    # The user's array alone (256 int32 counters).
    sizes = [int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)]
    assert sizes == [1024]


def test_global_out_adds_one_atomic_a_bin_and_thread():
    """A whole-array histogram: the block counts in shared memory, then each thread adds
    its non-zero counters (ceil(bins / T) of them) to the global array: by red.global where
    the array is in global memory (nvcc's REDG), else by a generic red."""
    kernel = cm.histogram_kernel(128, 4, 1000, "global", counter_dtype=np.uint32)
    ptx = _ptx(kernel, [I32, I32, U32, types.int32])
    _no_local_memory(ptx)
    assert _shared_reds(ptx) == 4
    assert _predicated_shared_reds(ptx) == 0
    assert len(re.findall(r"\bisspacep\.global\b", ptx)) == 1
    assert len(re.findall(r"\bred\.global\.add\.u32\b", ptx)) == -(-1000 // 128)
    assert _global_reds(ptx) == -(-1000 // 128)


def test_partial_tiles_and_narrow_bins_compile():
    kernel = cm.histogram_kernel(96, 3, 7, "fresh", slots=2, with_valid=True)
    _no_local_memory(_ptx(kernel, [I32, I32, I32, types.int32], block=(96,)))


def _error(kernel_body, argtypes=(U8, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)




def test_error_histogram_needs_bins():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items)
        dst[0] = counts[0]

    assert "coop.histogram needs bins=, the number of bins (a compile-time int)" in \
        _error(kernel)


def test_error_bins_known_only_at_run_time():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=dst[1])
        dst[0] = counts[0]

    assert "coop.histogram's bins must be a compile-time int" in _error(kernel)


def test_error_float_samples():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=16)
        dst[0] = counts[0]

    assert "coop.histogram's samples must be integers (bin numbers); got float32" in \
        _error(kernel, (F32, I32))


def test_error_histogram_of_a_warp():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        counts = coop.histogram(coop.this_warp(), items, bins=16)
        dst[0] = counts[0]

    assert "is a block operation (CUB's BlockHistogram); use this_block()" in _error(kernel)


def test_error_too_few_counters_for_the_bins():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=300, bins_per_thread=2)
        dst[0] = counts[0]

    assert "300 bins need bins_per_thread >= 3" in _error(kernel)


def test_error_out_with_accumulate():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        first = coop.histogram(coop.this_block(), items, bins=16)
        coop.histogram(coop.this_block(), items, bins=16, accumulate=first, out=dst)

    assert "coop.histogram adds into out and returns nothing: accumulate applies to fresh " \
        "counters" in _error(kernel)


def test_error_counter_dtype_not_a_counter():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=16, counter_dtype=np.float32)
        dst[0] = counts[0]

    message = _error(kernel)
    assert "coop.histogram's counter_dtype must be one of numpy.int32, numpy.uint32, " \
        "numpy.int64, numpy.uint64" in message


def test_error_out_of_float_counters():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        coop.histogram(coop.this_block(), items, bins=16, out=dst)

    assert "coop.histogram's out must hold counters of int32, uint32, int64, uint64; got an " \
        "array of float32" in _error(kernel, (U8, F32))


def test_error_counter_dtype_differs_from_out():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        coop.histogram(coop.this_block(), items, bins=16, counter_dtype=np.int64, out=dst)

    assert "coop.histogram's counter_dtype (int64) differs from out's dtype (int32)" in \
        _error(kernel)


def test_error_unknown_algorithm():
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=16, algorithm="radix")
        dst[0] = counts[0]

    assert "algorithm must be one of 'atomic', 'sort'; got 'radix'" in _error(kernel)


@pytest.mark.parametrize("mode", ("fresh", "accumulate", "shared", "global"))
def test_sort_algorithm_sorts_the_bins_without_atomics_on_the_samples(mode):
    """CUB's sort algorithm: a radix sort of the bins (2 passes for 64 bins: 7 bits), the
    runs' bounds in scratch, no shared atomic; a global array still takes one atomic a
    non-zero bin and thread."""
    kernel = cm.histogram_kernel(128, 4, 64, mode, algorithm="sort")
    ptx = _ptx(kernel, [I32, I32, I64 if mode == "global" else I32, types.int32])
    _no_local_memory(ptx)
    assert _shared_reds(ptx) == 0 and _shared_reds(ptx, 64) == 0
    assert _global_reds(ptx, 64) == (1 if mode == "global" else 0)
    # The sort's storage: BlockRadixRank's counters for 128 threads (9 lanes of words and 4
    # warps' totals), past CUB's 128 int32 keys and the runs' bounds (128 + 2 * 64 words).
    sizes = [int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)]
    expected = 9 * 128 * 4 + 16 + (64 * 4 if mode == "shared" else 0)
    assert sum(sizes) == -(-expected // 16) * 16


def test_error_sort_of_a_tile_past_the_radix_counters():
    def kernel(src, dst):
        items = coop.ThreadData(64)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=16, algorithm="sort")
        dst[0] = counts[0]

    assert "sorts a tile of 65536 samples; CUB's radix sort counts at most 65,535: use " \
        "algorithm 'atomic' or fewer samples per thread" in _error(kernel, block=(1024,))


def test_counter_dtype_int_is_int32():
    """The official spelling: counter_dtype=int means int32 counters."""
    def kernel(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_block(), src, items)
        counts = coop.histogram(coop.this_block(), items, bins=128, counter_dtype=int)
        dst[cuda.threadIdx.x] = counts[0]

    ptx = _ptx(cuda.jit(kernel), [U8, I32])
    _no_local_memory(ptx)
    # uint8 samples can pass 128 bins: they count in the spare 32-bit counter past the bins.
    assert _shared_reds(ptx, 32) == 4
    assert _shared_reds(ptx, 64) == 0
