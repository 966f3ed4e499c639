"""shuffle: each item's difference from the previous element of the block's
tile; `up` brings every thread the element before each of its items."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def differences(source, destination, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    offset = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    coop.load(block, source, items, offset=offset)
    previous = coop.shuffle(block, items, mode="up", fill=0)
    for i in range(items_per_thread):
        previous[i] = items[i] - previous[i]
    coop.store(block, destination, previous, offset=offset)


def main():
    items_per_thread = 4
    source = (np.arange(2 * 128 * items_per_thread) ** 2 % 97).astype(np.int32)
    destination = cuda.device_array_like(source)
    differences[2, 128](cuda.to_device(source), destination, items_per_thread)
    tiles = source.reshape(2, -1)
    expected = np.diff(tiles, axis=1, prepend=0).reshape(-1)
    print("correct:", np.array_equal(destination.copy_to_host(), expected))


if __name__ == "__main__":
    main()
