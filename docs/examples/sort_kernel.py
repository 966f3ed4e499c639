"""radix sort: each block sorts its tile of a large array (the last tile
ragged), and an argsort gathers a second array into its keys' order."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def sort_tiles(keys, rows, sorted_keys, sorted_rows, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(keys.size - offset, tile)
    coop.load(block, keys, items, offset=offset, valid_items=valid, oob_default=0)
    # argsort: the sorted keys and each one's position in the tile; keys past
    # valid_items take no part, so the padding needs no particular value.
    ordered, positions = coop.argsort(block, items, valid_items=valid)
    coop.store(block, sorted_keys, ordered, offset=offset, valid_items=valid)
    for i in range(items_per_thread):
        p = cuda.threadIdx.x * items_per_thread + i
        if p < valid:
            sorted_rows[offset + p] = rows[offset + positions[i]]


def main():
    items_per_thread, threads = 4, 128
    tile = threads * items_per_thread
    rng = np.random.default_rng(1)
    keys = (rng.standard_normal(10_000) * 100).astype(np.float32)
    rows = np.arange(keys.size, dtype=np.int32)
    blocks = -(-keys.size // tile)
    sorted_keys = cuda.to_device(np.zeros_like(keys))
    sorted_rows = cuda.to_device(np.zeros_like(rows))
    sort_tiles[blocks, threads](cuda.to_device(keys), cuda.to_device(rows), sorted_keys,
                                sorted_rows, items_per_thread)
    got_keys, got_rows = sorted_keys.copy_to_host(), sorted_rows.copy_to_host()
    correct = True
    for start in range(0, keys.size, tile):
        part = slice(start, min(start + tile, keys.size))
        order = np.argsort(keys[part], kind="stable")
        correct &= np.array_equal(got_keys[part], keys[part][order])
        correct &= np.array_equal(got_rows[part], rows[part][order])
    print("correct:", bool(correct))


if __name__ == "__main__":
    main()
