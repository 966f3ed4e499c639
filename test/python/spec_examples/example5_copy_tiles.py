"""Verbatim from the cuda.coop API reference (spec/api-reference.txt)."""

import numpy as np
from numba_cuda_mlir import cuda, types

import cuda.coop.numba_mlir as coop

@cuda.jit
def copy_tiles(source, destination, items_per_thread):
    block = coop.this_block()
    # Qualified calls also accept a fixed-size Numba local array.
    items = cuda.local.array(items_per_thread, dtype=types.int32)
    tile_size = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile_size
    valid = min(source.size - offset, tile_size)
    coop.load(
        block,
        source,
        items,
        offset=offset,
        valid_items=valid,
        oob_default=0,
    )
    coop.store(block, destination, items, offset=offset, valid_items=valid)

for items_per_thread in (1, 4):
    values = np.arange(1000, dtype=np.int32)
    source = cuda.to_device(values)
    destination = cuda.device_array_like(source)
    tile_size = 64 * items_per_thread
    blocks = (values.size + tile_size - 1) // tile_size
    copy_tiles[blocks, 64](source, destination, items_per_thread)
    np.testing.assert_array_equal(destination.copy_to_host(), values)
