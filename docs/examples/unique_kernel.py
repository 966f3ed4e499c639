"""select: unique. Each block keeps the elements of its tile that differ from
the one before them in the array (the first of each run of equal elements),
in order; `shuffle(mode="up")` gives every item its predecessor, and the
element before the tile fills the first one's."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def unique(source, destination, counts, items_per_thread):
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    coop.load(block, source, items, offset=offset)
    # The array's first element has no predecessor: any other value keeps it.
    before = source[offset - 1] if offset > 0 else np.int32(source[0] + 1)
    previous = coop.shuffle(block, items, mode="up", fill=before)
    heads = coop.ThreadData(items_per_thread, dtype=np.int8)
    for i in range(items_per_thread):
        heads[i] = items[i] != previous[i]
    kept, count = coop.select(block, items, flags=heads)
    coop.store(block, destination, kept, offset=offset, valid_items=count)
    if cuda.threadIdx.x == 0:
        counts[cuda.blockIdx.x] = count


def main():
    items_per_thread, threads, blocks = 4, 128, 3
    rng = np.random.default_rng(2)
    source = np.sort(rng.integers(0, 400, blocks * threads * items_per_thread)).astype(np.int32)
    destination = cuda.to_device(np.zeros_like(source))
    counts = cuda.device_array(blocks, dtype=np.int32)
    unique[blocks, threads](cuda.to_device(source), destination, counts, items_per_thread)
    result, got = destination.copy_to_host(), counts.copy_to_host()
    parts = [result[b * threads * items_per_thread:][:got[b]] for b in range(blocks)]
    correct = np.array_equal(np.concatenate(parts), np.unique(source))
    print("correct:", bool(correct))


if __name__ == "__main__":
    main()
