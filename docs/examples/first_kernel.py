"""The README's first example: a tile copy with a ragged last tile."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def copy_tiles(source, destination, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(source.size - offset, tile)
    coop.load(block, source, items, algorithm="transpose", offset=offset,
              valid_items=valid, oob_default=0)
    for i in range(items_per_thread):
        items[i] *= 2
    coop.store(block, destination, items, algorithm="transpose", offset=offset,
               valid_items=valid)


source = np.arange(1000, dtype=np.int32)
destination = cuda.device_array_like(source)
blocks = (source.size + 128 * 4 - 1) // (128 * 4)
copy_tiles[blocks, 128](cuda.to_device(source), destination, 4)
result = destination.copy_to_host()
print(result[:8], "...", result[-3:])
print("correct:", np.array_equal(result, 2 * source))
