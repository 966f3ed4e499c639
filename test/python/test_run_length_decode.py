"""run_length_decode through the Numba backend, compile-only: the window and
destination forms compile without local memory, with CUB's structure (a
block scan of the lengths, the runs to scratch, one barrier, a search of the
offsets); every misuse is a compile-time error naming the operand and the
fix."""

import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402

I32 = types.int32[::1]
U32 = types.uint32[::1]
U64 = types.uint64[::1]
F32 = types.float32[::1]


def _ptx(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(kernel, argtypes, block).metadata["ptx"]


def _block_barriers(ptx):
    return len(re.findall(r"\b(?:bar|barrier)\.(?:sync|red)\b", ptx))


def _no_local_memory(ptx):
    assert nc.local_memory(nc.ptxas_report(ptx)) == []


@pytest.mark.parametrize("threads", (32, 128))
def test_window_takes_the_scan_barrier_and_one_more(threads):
    kernel = cm.run_length_decode_kernel(threads, 2, 4, "window", None, True)
    ptx = _ptx(kernel, [F32, I32, F32, U32, types.int64], (threads,))
    _no_local_memory(ptx)
    # One warp: no barrier for the scan; several: the warps' sums take one. The runs' barrier
    # also ORs whether the block has a zero-length run (the walk over them, else one compare).
    assert _block_barriers(ptx) == (1 if threads == 32 else 2)
    assert len(re.findall(r"\bbar\.red\.or\.pred\b", ptx)) == 1


def test_uint64_offsets_compile():
    kernel = cm.run_length_decode_kernel(128, 2, 4, "window", np.uint64, False)
    _no_local_memory(_ptx(kernel, [I32, I32, I32, U64, types.int64]))


def test_into_compiles():
    kernel = cm.run_length_decode_kernel(128, 3, 2, "into")
    _no_local_memory(_ptx(kernel, [F32, I32, F32, U32, types.int64]))


def _error(kernel_body, argtypes=(I32, I32, I32), block=(128,)):
    with pytest.raises(Exception) as info:
        nc.compile_for_launch(cuda.jit(kernel_body), list(argtypes), block)
    return str(info.value)


def test_error_no_decoded_items_per_thread():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        lengths = coop.ThreadData(2)
        coop.load(coop.this_block(), lengths_src, lengths)
        items = coop.run_length_decode(coop.this_block(), values, lengths)
        dst[0] = items[0]

    assert "coop.run_length_decode needs decoded_items_per_thread=" in _error(kernel)


def test_error_float_lengths():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        lengths = coop.ThreadData(2)
        coop.load(coop.this_block(), lengths_src, lengths)
        items = coop.run_length_decode(coop.this_block(), values, lengths,
                                       decoded_items_per_thread=4)
        dst[0] = items[0]

    assert "coop.run_length_decode's run lengths must be a coop.ThreadData or a local array " \
        "of integers" in _error(kernel, (I32, F32, I32))


def test_error_lengths_not_one_per_run():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        lengths = coop.ThreadData(3)
        coop.load(coop.this_block(), lengths_src, lengths)
        items = coop.run_length_decode(coop.this_block(), values, lengths,
                                       decoded_items_per_thread=4)
        dst[0] = items[0]

    assert "needs one length a run: 2 run values, 3 lengths" in _error(kernel)


def test_error_offset_dtype():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        lengths = coop.ThreadData(2)
        coop.load(coop.this_block(), lengths_src, lengths)
        items = coop.run_length_decode(coop.this_block(), values, lengths,
                                       decoded_items_per_thread=4,
                                       decoded_offset_dtype=np.int16)
        dst[0] = items[0]

    assert "decoded_offset_dtype must be numpy.uint32 or numpy.uint64" in _error(kernel)


def test_error_of_a_warp():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_warp(), src, values)
        lengths = coop.ThreadData(2)
        coop.load(coop.this_warp(), lengths_src, lengths)
        items = coop.run_length_decode(coop.this_warp(), values, lengths,
                                       decoded_items_per_thread=4)
        dst[0] = items[0]

    assert "is a block operation (CUB's BlockRunLengthDecode); use this_block()" in \
        _error(kernel)


def test_error_destination_of_another_dtype():
    def kernel(src, lengths_src, dst):
        values = coop.ThreadData(2)
        coop.load(coop.this_block(), src, values)
        lengths = coop.ThreadData(2)
        coop.load(coop.this_block(), lengths_src, lengths)
        coop.run_length_decode_into(coop.this_block(), values, lengths, dst,
                                    decoded_items_per_thread=4)

    assert "the destination must hold the run values' 'i32'" in _error(kernel, (I32, I32, F32))


def test_one_run_a_thread_as_scalars_compiles():
    kernel = cm.run_length_decode_kernel(128, 1, 3, "scalar")
    _no_local_memory(_ptx(kernel, [F32, I32, F32, U32, types.int64]))
