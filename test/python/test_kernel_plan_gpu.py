"""Whole-kernel scratch plans on the GPU: kernels whose sites share scratch,
reuse it in loops, keep it in an explicit descriptor, use dynamic shared
memory past 48 KiB, or sit in inlined device helpers. Every output element
is checked. `KERNELS` also serves test_kernel_plan.py, which compiles them
without a GPU."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

from numba_cuda_mlir import cuda, types  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

from cuda import coop  # noqa: E402
import cuda.coop.numba_mlir as _backend  # noqa: E402,F401 -- activate the backend

LOOP_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")


def _loop_kernel(algorithm):
    """Each block copies several tiles; odd tiles are loaded twice (the
    second load reuses the slice the first one read) and stored doubled."""
    source = f"""
def kernel(src, dst, tiles, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    extra = coop.ThreadData(items_per_thread)
    size = cuda.blockDim.x * items_per_thread
    for t in range(tiles):
        offset = (cuda.blockIdx.x * tiles + t) * size
        coop.load(block, src, items, offset=offset, algorithm="{algorithm}")
        if t % 2 == 1:
            coop.load(block, src, extra, offset=offset, algorithm="{algorithm}")
            for i in range(items_per_thread):
                items[i] = items[i] + extra[i]
        coop.store(block, dst, items, offset=offset, algorithm="{algorithm}")
"""
    namespace = {"cuda": cuda, "coop": coop}
    exec(compile(source, f"<loop {algorithm}>", "exec"), namespace)
    return cuda.jit(namespace["kernel"])


LOOP_KERNELS = {algorithm: _loop_kernel(algorithm) for algorithm in LOOP_ALGORITHMS}


@cuda.jit
def exclusive_kernel(src, dst, items_per_thread):
    block = coop.this_block()
    scratch = coop.TempStorage(sharing="exclusive")
    items = coop.ThreadData(items_per_thread)
    size = cuda.blockDim.x * items_per_thread
    for t in range(3):
        offset = (cuda.blockIdx.x * 3 + t) * size
        coop.load(block, src, items, offset=offset, algorithm="transpose", temp_storage=scratch)
        coop.store(block, dst, items, offset=offset, algorithm="transpose",
                   temp_storage=scratch)
        cuda.syncthreads()


@cuda.jit
def dynamic_kernel(src, dst, n, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    offset = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    coop.load(block, src, items, offset=offset, algorithm="transpose",
              valid_items=n - offset, oob_default=0.0)
    coop.store(block, dst, items, offset=offset, algorithm="transpose",
               valid_items=n - offset)


@cuda.jit(device=True)
def _copy_tile(group, src, dst, items, offset):
    coop.load(group, src, items, offset=offset, algorithm="transpose")
    coop.store(group, dst, items, offset=offset, algorithm="transpose")


@cuda.jit
def helper_kernel(src, dst, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    size = cuda.blockDim.x * items_per_thread
    _copy_tile(block, src, dst, items, cuda.blockIdx.x * 2 * size)
    # Logical warps of 8 threads: each starts at offset + its rank * 8 * ipt.
    _copy_tile(coop.this_warp().group_by(8), src, dst, items, (cuda.blockIdx.x * 2 + 1) * size)


@cuda.jit
def slice_kernel(src, dst):
    block = coop.this_block()
    items = coop.ThreadData(2)
    coop.load(block, src[4:], items, algorithm="transpose")
    coop.store(block, dst, items, algorithm="transpose")


I32, I16 = types.int32[::1], types.int16[::1]
F32, F64 = types.float32[::1], types.float64[::1]
# kernel -> (argument types for a compile without a GPU, block)
KERNELS = {
    **{kernel: ([I32, I32, types.int32, literal(4)], (128,))
       for kernel in LOOP_KERNELS.values()},
    exclusive_kernel: ([F32, F32, literal(3)], (256,)),
    dynamic_kernel: ([F64, F64, types.int64, literal(8)], (1024,)),
    helper_kernel: ([I16, I16, literal(3)], (128,)),
    slice_kernel: ([F32, F32], (128,)),
}


def _data(n, dtype=np.int32):
    return (np.arange(n) * 7 % 1000003).astype(dtype)


@pytest.mark.parametrize("algorithm", LOOP_ALGORITHMS)
def test_tiles_in_a_loop_reuse_one_slice(algorithm):
    block, ipt, tiles, grid = 128, 4, 5, 6
    size = block * ipt
    src = _data(grid * tiles * size)
    d_dst = cuda.device_array_like(src)
    LOOP_KERNELS[algorithm][grid, block](cuda.to_device(src), d_dst, tiles, ipt)
    expected = src.reshape(grid, tiles, size).copy()
    expected[:, 1::2] *= 2
    np.testing.assert_array_equal(d_dst.copy_to_host(), expected.reshape(-1))


def test_exclusive_descriptor_with_manual_barriers():
    src = _data(4 * 3 * 256 * 3, np.float32)
    d_dst = cuda.device_array_like(src)
    exclusive_kernel[4, 256](cuda.to_device(src), d_dst, 3)
    np.testing.assert_array_equal(d_dst.copy_to_host(), src)


def test_past_48_kib_runs_in_dynamic_shared_memory():
    n = 3 * 1024 * 8 - 100
    src = _data(n, np.float64)
    d_dst = cuda.device_array_like(src)
    dynamic_kernel[3, 1024](cuda.to_device(src), d_dst, n, 8)
    np.testing.assert_array_equal(d_dst.copy_to_host(), src)


def test_device_helpers_and_mixed_groups():
    src = _data(5 * 2 * 128 * 3, np.int16)
    d_dst = cuda.device_array_like(src)
    helper_kernel[5, 128](cuda.to_device(src), d_dst, 3)
    np.testing.assert_array_equal(d_dst.copy_to_host(), src)


def test_dtype_from_a_slice():
    src = _data(4 + 256, np.float32)
    d_dst = cuda.device_array(256, np.float32)
    slice_kernel[1, 128](cuda.to_device(src), d_dst)
    np.testing.assert_array_equal(d_dst.copy_to_host(), src[4:])

