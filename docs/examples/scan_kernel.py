"""scan: where each element lands when a block keeps only its positive
elements (stream compaction): an exclusive sum of 0/1 flags, and the
block's count as the aggregate."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def compact(source, destination, counts, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    offset = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    coop.load(block, source, items, offset=offset)
    keep = coop.ThreadData(items_per_thread, dtype=np.int32)
    for i in range(items_per_thread):
        keep[i] = 1 if items[i] > 0 else 0
    slots, count = coop.exclusive_sum(block, keep, block_aggregate=True)
    for i in range(items_per_thread):
        if keep[i]:
            destination[offset + slots[i]] = items[i]
    if cuda.threadIdx.x == 0:
        counts[cuda.blockIdx.x] = count


def main():
    items_per_thread = 4
    rng = np.random.default_rng(1)
    source = rng.integers(-5, 6, 2 * 128 * items_per_thread).astype(np.int32)
    destination = cuda.to_device(np.zeros_like(source))
    counts = cuda.device_array(2, dtype=np.int32)
    compact[2, 128](cuda.to_device(source), destination, counts, items_per_thread)
    result, got = destination.copy_to_host(), counts.copy_to_host()
    correct = True
    for b, tile in enumerate(source.reshape(2, -1)):
        kept = tile[tile > 0]
        start = b * tile.size
        correct &= got[b] == kept.size
        correct &= np.array_equal(result[start:start + kept.size], kept)
    print("correct:", bool(correct))


if __name__ == "__main__":
    main()
