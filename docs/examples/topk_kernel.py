"""top-k: each block finds the k largest scores of its row and their
columns, in order, ties by the earlier column (the selection a sampler or a
router makes)."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def top_scores(scores, best, columns, k, items_per_thread):
    block = coop.this_block()
    row = cuda.blockIdx.x
    items = coop.ThreadData(items_per_thread)
    positions = coop.ThreadData(items_per_thread, dtype=np.int32)
    coop.load(block, scores[row], items)
    for i in range(items_per_thread):
        positions[i] = cuda.threadIdx.x * items_per_thread + i
    # The k largest, in descending order with the earlier column first among
    # equal scores; each moves its column with it.
    top, where = coop.topk_max_pairs(block, items, positions, k=k, sorted=True)
    for i in range(items_per_thread):
        p = cuda.threadIdx.x * items_per_thread + i
        if p < k:
            best[row * k + p] = top[i]
            columns[row * k + p] = where[i]


def main():
    items_per_thread, threads, rows, k = 4, 128, 64, 10
    rng = np.random.default_rng(1)
    # Scores in steps of 0.5: many ties, which sorted=True orders by column.
    scores = (np.round(rng.standard_normal((rows, threads * items_per_thread)) * 4) / 2
              ).astype(np.float32)
    best = cuda.to_device(np.zeros(rows * k, np.float32))
    columns = cuda.to_device(np.zeros(rows * k, np.int32))
    top_scores[rows, threads](cuda.to_device(scores), best, columns, k, items_per_thread)
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    expected = np.take_along_axis(scores, order, axis=1)
    correct = (np.array_equal(best.copy_to_host().reshape(rows, k), expected)
               and np.array_equal(columns.copy_to_host().reshape(rows, k), order))
    print("correct:", bool(correct))


if __name__ == "__main__":
    main()
