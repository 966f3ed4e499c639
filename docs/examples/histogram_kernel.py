"""histogram: the byte histogram of a whole array in one kernel. Each block
counts its tile (the last one ragged) in shared memory and adds each
non-zero bin to the global histogram by one atomic."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def byte_histogram(data, hist, items_per_thread):
    block = coop.this_block()
    samples = coop.ThreadData(items_per_thread, dtype=data.dtype)
    tile = cuda.blockDim.x * items_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(data.size - offset, tile)
    coop.load(block, data, samples, offset=offset, valid_items=valid, oob_default=0)
    coop.histogram(block, samples, bins=256, valid_items=valid, out=hist)


def main():
    items_per_thread, threads = 8, 256
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 1_000_003).astype(np.uint8)
    blocks = -(-data.size // (threads * items_per_thread))
    hist = cuda.to_device(np.zeros(256, np.uint32))
    byte_histogram[blocks, threads](cuda.to_device(data), hist, items_per_thread)
    expected = np.bincount(data, minlength=256)
    print("correct:", bool(np.array_equal(hist.copy_to_host(), expected)))


if __name__ == "__main__":
    main()
