"""select: stream compaction of a whole array. Each block keeps the positive
elements of its tile, in order, and reserves room for them in the output
with one atomic add; tiles land in the order their blocks get there."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


def positive(x):
    return x > 0


@cuda.jit
def compact(source, destination, total, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(source.size - offset, tile)
    coop.load(block, source, items, offset=offset, valid_items=valid, oob_default=0)
    kept, count = coop.select(block, items, predicate=positive, valid_items=valid)
    start = cuda.shared.array(1, np.int32)
    if cuda.threadIdx.x == 0:
        start[0] = cuda.atomic.add(total, 0, count)
    cuda.syncthreads()
    coop.store(block, destination, kept, offset=start[0], valid_items=count)


def main():
    items_per_thread, threads = 4, 128
    rng = np.random.default_rng(1)
    source = rng.integers(-5, 6, 10_000).astype(np.int32)
    blocks = -(-source.size // (threads * items_per_thread))
    destination = cuda.to_device(np.zeros_like(source))
    total = cuda.to_device(np.zeros(1, np.int32))
    compact[blocks, threads](cuda.to_device(source), destination, total, items_per_thread)
    count = int(total.copy_to_host()[0])
    result = destination.copy_to_host()[:count]
    # Within a tile the order is kept; tiles may land in any order.
    tiles = source.reshape(-1)
    expected = tiles[tiles > 0]
    correct = count == expected.size and np.array_equal(np.sort(result), np.sort(expected))
    print("correct:", bool(correct))


if __name__ == "__main__":
    main()
