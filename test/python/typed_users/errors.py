"""Misuses of cuda.coop's public API that mypy must report: each line marked
`# error` (and no other line) gets an error (test_stubs.py)."""

import numpy as np
from numpy.typing import NDArray

import cuda.coop.numba_mlir as numba_coop
from cuda import coop


def kernel(source: NDArray[np.int32], items_per_thread: int) -> None:
    block = coop.this_block()
    items: coop.ThreadDataLike[int] = coop.ThreadData(items_per_thread)
    coop.load(block, source, items, algorithm="transposed")  # error
    coop.load(block, source, [1, 2, 3])  # error
    numba_coop.load(block, source, [1, 2, 3])  # error
    coop.load(block, source, items, 0)  # error
    items[0] = "one"  # error
    items.items_per_thread = 4  # error
    coop.this_block(128)  # error
    coop.this_warp().group_by("8")  # error
    coop.TempStorage(sharing="private")  # error
    numba_coop.TempStorage(sharing="private")  # error
    numba_coop.TempStorage(64, 16)  # error
    name: str = numba_coop.TempStorage().size_in_bytes  # error
    coop.store(block, source, items, temp_storage=5)  # error
    coop.exchange(block, items, mode="transpose")  # error
    coop.shuffle(block, items, mode="rotate")  # error
    coop.exclusive_sum(block, items, prefix_op=5)  # error
    del name


coop.GroupByMapping(8)  # error
coop.GroupByMapping(8, True, "lane")  # error
coop.ThreadHierarchy((128, 1, 1))  # error
coop.register("cutlass")  # error
