"""reduce: the sum of each block's tile, with a ragged last tile; only
thread 0 needs the total, so broadcast=False saves a barrier."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def tile_sums(source, sums, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(source.size - offset, tile)
    coop.load(block, source, items, offset=offset, valid_items=valid, oob_default=0)
    total = coop.sum(block, items, valid_items=valid, broadcast=False)
    if cuda.threadIdx.x == 0:
        sums[cuda.blockIdx.x] = total


def main():
    items_per_thread = 4
    source = np.arange(1000, dtype=np.int32)
    blocks = (source.size + 128 * items_per_thread - 1) // (128 * items_per_thread)
    sums = cuda.device_array(blocks, dtype=np.int32)
    tile_sums[blocks, 128](cuda.to_device(source), sums, items_per_thread)
    expected = np.add.reduceat(source, np.arange(0, source.size, 128 * items_per_thread))
    print("correct:", np.array_equal(sums.copy_to_host(), expected))


if __name__ == "__main__":
    main()
