"""exchange: load coalesced (striped), rearrange to blocked order in shared
memory, and give each thread its own consecutive run of the tile."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def run_lengths(source, starts, items_per_thread):
    # starts[k] = 1 where source[k] begins a run of equal values inside its
    # thread's consecutive items; needs blocked order.
    block = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    offset = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    coop.load(block, source, items, algorithm="striped", offset=offset)
    mine = coop.exchange(block, items, mode="striped_to_blocked")
    flags = coop.ThreadData(items_per_thread, dtype=np.int32)
    flags[0] = 1
    for i in range(1, items_per_thread):
        flags[i] = 1 if mine[i] != mine[i - 1] else 0
    coop.store(block, starts, flags, offset=offset)


def main():
    items_per_thread = 4
    source = (np.arange(4 * 128 * items_per_thread) // 3).astype(np.int32)
    starts = cuda.device_array(source.size, dtype=np.int32)
    run_lengths[4, 128](cuda.to_device(source), starts, items_per_thread)
    blocked = source.reshape(-1, items_per_thread)
    expected = np.ones_like(blocked)
    expected[:, 1:] = blocked[:, 1:] != blocked[:, :-1]
    print("correct:", np.array_equal(starts.copy_to_host(), expected.reshape(-1)))


if __name__ == "__main__":
    main()
