"""A typed user of cuda.coop's public API, both namespaces: mypy --strict
finds no issue in it (test_stubs.py). The functions are kernel bodies; mypy
only reads them."""

from typing import Any

import numpy as np
from numpy.typing import NDArray

import cuda.coop.numba_mlir as numba_coop
from cuda import coop


def common_api(source: NDArray[np.int32], destination: NDArray[np.int32],
               items_per_thread: int) -> None:
    block = coop.this_block()
    lanes: coop.ThreadGroup = coop.this_warp().group_by(8)
    pairs = coop.this_block().group_by(2, exhaustive=False)
    items: coop.ThreadDataLike[int] = coop.ThreadData(items_per_thread, alignment=16)
    scratch: coop.TempStorageLike = coop.TempStorage(alignment=16, auto_sync=True)
    coop.load(block, source, items, algorithm="transpose", valid_items=100, oob_default=0,
              offset=0, temp_storage=scratch)
    for i in range(items.items_per_thread):
        items[i] = items[i] + 1
    coop.store(block, destination, items, algorithm="transpose", temp_storage=scratch)
    coop.store(lanes, destination, items, algorithm="striped", offset=8)
    coop.store(pairs, destination, 7)
    striped: coop.ThreadDataLike[int] = coop.exchange(block, items, mode="blocked_to_striped")
    shifted: coop.ThreadDataLike[int] = coop.shuffle(block, striped, mode="up", fill=0)
    moved: int = coop.shuffle(block, 3, mode="rotate", distance=2)
    unsynchronized = coop.TempStorage(4096, auto_sync=None, sharing="exclusive")
    coop.load(block, source, shifted, algorithm="warp_transpose", temp_storage=unsynchronized)
    del moved


def qualified_api(source: NDArray[np.float32], destination: NDArray[np.float32],
                  items_per_thread: int) -> None:
    block = numba_coop.this_block()
    local = numba_coop.local.array(items_per_thread, np.float32)
    scratch = numba_coop.TempStorage(4096, alignment=32, sharing="exclusive")
    numba_coop.load(block, source, local, algorithm="transpose", temp_storage=scratch)
    numba_coop.store(block, destination, local, temp_storage=scratch)
    numba_coop.store(numba_coop.this_warp(), destination, 1.5)
    items: numba_coop.ThreadDataLike[float] = numba_coop.ThreadData(items_per_thread,
                                                                    np.float32)
    numba_coop.load(block, source, items, valid_items=10, oob_default=0.0)
    exchanged = numba_coop.exchange(block, local, mode="striped_to_blocked")
    numba_coop.store(block, destination, exchanged)
    capacity: int | None = scratch.size_in_bytes
    alignment: int | None = scratch.alignment
    policy: str = scratch.sharing
    synchronized: bool = numba_coop.TempStorage(auto_sync=None).auto_sync
    as_protocol: coop.TempStorageLike = scratch
    tile = numba_coop.shared.array(256, np.float32)
    numba_coop.load(block, tile, items, algorithm="striped")
    del capacity, alignment, policy, synchronized, as_protocol


def running_total(state: NDArray[np.int32], aggregate: int) -> int:
    prefix = int(state[0])
    state[0] = prefix + aggregate
    return prefix


def tiles_with_a_prefix(source: NDArray[np.int32], tiles: int) -> None:
    block = coop.this_block()
    state = numba_coop.local.array(1, np.int32)
    prefix = coop.StatefulFunction(running_total, state)
    items: coop.ThreadDataLike[int] = coop.ThreadData(4)
    for _ in range(tiles):
        coop.load(block, source, items)
        scanned = numba_coop.exclusive_sum(block, items, prefix_op=prefix)
        coop.store(block, source, scanned)


mapping = coop.GroupByMapping(8, True, "thread")
keywords = coop.GroupByMapping(count=2, exhaustive=False, unit="warp")
group = coop.ThreadGroup("threads_within_warp", parent=coop.this_warp(), mapping=mapping)
count: int = mapping.count
size: int | None = group.static_size
hierarchy: coop.Hierarchy = coop.ThreadHierarchy()
block_dim: tuple[int, int, int] | None = hierarchy.block_dim
payload_type: Any = coop.ThreadDataLike[int]
qualified_payload_type: Any = numba_coop.ThreadDataLike[np.float32]


def activate() -> None:
    coop.register("numba-cuda-mlir")
    numba_coop.register("numba_cuda_mlir")
