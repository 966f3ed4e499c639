"""cuda.coop: CUB's cooperative block and warp primitives for Python GPU kernels.

The common API: thread groups, per-thread payloads, temporary storage and the
cooperative operations, independent of the kernel compiler. A backend (see
``register``) compiles them; the ``coop`` MLIR dialect and its passes behind
it are reachable through ``cuda.coop._compiler``.
"""

from ._groups import (
    GroupByMapping,
    Hierarchy,
    ThreadGroup,
    ThreadHierarchy,
    this_block,
    this_cluster,
    this_grid,
    this_thread,
    this_warp,
)
from ._markers import (
    CompilerMarkerError,
    StatefulFunction,
    TempStorage,
    TempStorageLike,
    ThreadData,
    ThreadDataLike,
    argsort,
    exchange,
    exclusive_scan,
    exclusive_sum,
    histogram,
    inclusive_scan,
    inclusive_sum,
    load,
    merge_sort_keys,
    merge_sort_pairs,
    radix_rank,
    radix_rank_keys,
    radix_sort_keys,
    radix_sort_pairs,
    reduce,
    reduce_batched,
    run_length_decode,
    run_length_decode_into,
    scan,
    select,
    shuffle,
    store,
    sum,
    topk_max_keys,
    topk_max_pairs,
    topk_min_keys,
    topk_min_pairs,
)
from ._registration import auto_register as _auto_register
from ._registration import register

__version__ = "0.1.0"

__all__ = [
    "CompilerMarkerError",
    "GroupByMapping",
    "Hierarchy",
    "StatefulFunction",
    "TempStorage",
    "TempStorageLike",
    "ThreadData",
    "ThreadDataLike",
    "ThreadGroup",
    "ThreadHierarchy",
    "argsort",
    "exchange",
    "exclusive_scan",
    "exclusive_sum",
    "histogram",
    "inclusive_scan",
    "inclusive_sum",
    "load",
    "merge_sort_keys",
    "merge_sort_pairs",
    "radix_rank",
    "radix_rank_keys",
    "radix_sort_keys",
    "radix_sort_pairs",
    "reduce",
    "reduce_batched",
    "run_length_decode",
    "run_length_decode_into",
    "register",
    "scan",
    "select",
    "shuffle",
    "store",
    "sum",
    "this_block",
    "this_cluster",
    "this_grid",
    "this_thread",
    "this_warp",
    "topk_max_keys",
    "topk_max_pairs",
    "topk_min_keys",
    "topk_min_pairs",
]

_auto_register()
