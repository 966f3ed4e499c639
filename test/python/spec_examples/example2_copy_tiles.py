"""Verbatim from the cuda.coop API reference (spec/api-reference.txt)."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop

@cuda.jit
def copy_tiles(source, destination, items_per_thread):
    block = coop.this_block()
    scratch = coop.TempStorage(alignment=16, auto_sync=True)
    items = coop.ThreadData(items_per_thread)
    for tile in range(2):
        offset = tile * cuda.blockDim.x * items_per_thread
        coop.load(
            block,
            source,
            items,
            offset=offset,
            algorithm="transpose",
            temp_storage=scratch,
        )
        coop.store(
            block,
            destination,
            items,
            offset=offset,
            algorithm="transpose",
            temp_storage=scratch,
        )

for items_per_thread in (1, 4):
    values = (np.arange(2 * 128 * items_per_thread) % 7).astype(np.int32)
    source = cuda.to_device(values)
    destination = cuda.device_array_like(source)
    copy_tiles[1, 128](source, destination, items_per_thread)
    np.testing.assert_array_equal(destination.copy_to_host(), values)
