"""Launching PTX or cubins with the CUDA driver API (cuda.bindings), for the
GPU tests of kernels written in MLIR."""

from __future__ import annotations

import numpy as np
from cuda.bindings import driver


def _check(result):
    err, *values = result if isinstance(result, tuple) else (result,)
    if err != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(err)
        raise RuntimeError(f"CUDA driver error {name.decode() if name else err}")
    return values[0] if len(values) == 1 else values


class Gpu:
    def __init__(self):
        _check(driver.cuInit(0))
        self.device = _check(driver.cuDeviceGet(0))
        self.context = _check(driver.cuDevicePrimaryCtxRetain(self.device))
        _check(driver.cuCtxSetCurrent(self.context))
        self._allocations = []

    def load(self, image: bytes):
        return Module(_check(driver.cuModuleLoadData(image)))

    def upload(self, array: np.ndarray) -> "DeviceArray":
        nbytes = max(array.nbytes, 1)
        pointer = _check(driver.cuMemAlloc(nbytes))
        if array.nbytes:
            _check(driver.cuMemcpyHtoD(pointer, array.ctypes.data, array.nbytes))
        return DeviceArray(pointer, array.size, array.dtype)

    def download(self, device: "DeviceArray") -> np.ndarray:
        host = np.empty(device.size, dtype=device.dtype)
        if host.nbytes:
            _check(driver.cuMemcpyDtoH(host.ctypes.data, device.pointer, host.nbytes))
        return host

    def free(self, device: "DeviceArray") -> None:
        _check(driver.cuMemFree(device.pointer))

    def launch(self, kernel, grid: int, block, args, shared: int = 0, sync: bool = True) -> None:
        """`args`: NumPy scalars (and DeviceArray, passed as an MLIR memref
        descriptor: allocated, aligned, offset, size, stride)."""
        values = []
        for arg in args:
            if isinstance(arg, DeviceArray):
                values += [np.uint64(int(arg.pointer)), np.uint64(int(arg.pointer)),
                           np.int64(0), np.int64(arg.size), np.int64(1)]
            else:
                values.append(arg)
        boxes = [np.array([v]) for v in values]
        pointers = np.array([b.ctypes.data for b in boxes], dtype=np.uint64)
        x, y, z = block
        _check(driver.cuLaunchKernel(kernel, grid, 1, 1, x, y, z, shared, 0,
                                     pointers.ctypes.data, 0))
        if sync:
            _check(driver.cuCtxSynchronize())


class Module:
    def __init__(self, handle):
        self.handle = handle

    def function(self, name: str):
        return _check(driver.cuModuleGetFunction(self.handle, name.encode()))


class DeviceArray:
    def __init__(self, pointer, size: int, dtype):
        self.pointer, self.size, self.dtype = pointer, size, np.dtype(dtype)
