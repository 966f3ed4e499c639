"""Launches a tiledsl kernel's PTX with cuda.core: NumPy and cuda.core only,
so PTX compiled on a machine without a GPU runs on one without MLIR."""

from __future__ import annotations

import ctypes

import numpy as np


def run_ptx(ptx: str, name: str, block: int, tile: int, data: np.ndarray, *params: int) -> np.ndarray:
    """Runs kernel ``name`` of ``ptx`` over ``data`` (int32), one block of
    ``block`` threads per ``tile`` items, on GPU 0, and returns the result."""
    from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, ObjectCode
    from cuda.core import launch as cuda_launch

    data = np.ascontiguousarray(data, dtype=np.int32)
    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    function = ObjectCode.from_ptx(ptx.encode()).get_kernel(name)  # a str would be a path
    nbytes = max(data.nbytes, 4)
    host = LegacyPinnedMemoryResource().allocate(nbytes)
    src, dst = device.allocate(nbytes, stream=stream), device.allocate(nbytes, stream=stream)
    ctypes.memmove(int(host.handle), data.ctypes.data, data.nbytes)
    src.copy_from(host, stream=stream)
    # A memref<?xi32> argument is its descriptor: allocated and aligned
    # pointers, offset, size, stride.
    descriptor = lambda buffer: (buffer, buffer, np.int64(0), np.int64(data.size), np.int64(1))  # noqa: E731
    grid = max(1, -(-data.size // tile))
    cuda_launch(stream, LaunchConfig(grid=grid, block=block), function,
                *descriptor(src), *descriptor(dst), np.int64(data.size), *map(np.int32, params))
    host.copy_from(dst, stream=stream)
    stream.sync()
    result = np.empty_like(data)
    ctypes.memmove(result.ctypes.data, int(host.handle), data.nbytes)
    for buffer in (src, dst, host):
        buffer.close(stream)
    return result
