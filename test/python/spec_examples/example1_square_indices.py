"""Verbatim from the cuda.coop API reference (spec/api-reference.txt)."""

import numpy as np
from numba_cuda_mlir import cuda, types

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop

@cuda.jit
def square_indices(destination, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread, alignment=16)
    offset = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    for i in range(items.items_per_thread):
        index = offset + cuda.threadIdx.x * items_per_thread + i
        items[i] = types.int32(index * index)
    coop.store(block, destination, items, offset=offset)

for items_per_thread in (1, 4):
    destination = cuda.device_array(
        2 * 64 * items_per_thread, dtype=np.int32
    )
    square_indices[2, 64](destination, items_per_thread)
    expected = np.arange(2 * 64 * items_per_thread, dtype=np.int32) ** 2
    np.testing.assert_array_equal(destination.copy_to_host(), expected)
