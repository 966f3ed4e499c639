"""cuda.coop for Numba-CUDA-MLIR kernels.

Importing this module registers the backend. It offers the common API under
the same names, plus Numba-specific extras: fixed-size local arrays as
payloads, ``TempStorage`` as a class whose instances expose their
``size_in_bytes``, ``alignment``, ``auto_sync`` and ``sharing`` (also inside
kernels), and Numba's ``local`` and ``shared`` memory namespaces::

    import cuda.coop.numba_mlir as coop
"""

from .._registration import require_compiler as _require_compiler

# Without numba-cuda-mlir (or with an unsupported version) importing this
# module is an ImportError naming the extras that install it.
_require_compiler("numba-cuda-mlir")

from numba_cuda_mlir import cuda as _cuda  # noqa: E402

from .. import (  # noqa: F401 -- the common API, under this namespace too
    GroupByMapping,
    Hierarchy,
    StatefulFunction,
    TempStorageLike,
    ThreadData,
    ThreadDataLike,
    ThreadGroup,
    ThreadHierarchy,
    exchange,
    exclusive_scan,
    exclusive_sum,
    inclusive_scan,
    inclusive_sum,
    load,
    reduce,
    register,
    scan,
    shuffle,
    store,
    sum,
    this_block,
    this_cluster,
    this_grid,
    this_thread,
    this_warp,
)

from ._temp_storage import TempStorage  # noqa: E402 -- a class here: its facts are attributes

local = _cuda.local
shared = _cuda.shared

__all__ = [
    "GroupByMapping", "Hierarchy", "StatefulFunction", "TempStorage", "TempStorageLike", "ThreadData",
    "ThreadDataLike", "ThreadGroup", "ThreadHierarchy", "exchange", "exclusive_scan",
    "exclusive_sum", "inclusive_scan", "inclusive_sum", "load", "local", "reduce", "register",
    "scan", "shared", "shuffle", "store", "sum", "this_block", "this_cluster", "this_grid",
    "this_thread", "this_warp",
]

_active = False


def _activate() -> None:
    """Install typing, lowering and the planner (once per process)."""
    global _active
    if _active:
        return
    from numba_cuda_mlir.extending import refresh_registries, register_planner

    from . import (  # noqa: F401 -- registrations on import
        _kernel_plan,
        _lowering,
        _storage_attributes,
        _typing,
    )
    from ._planner import CoopPlanner

    register_planner(CoopPlanner)
    _kernel_plan.install()
    # Numba-CUDA-MLIR loads its typing and lowering registries into its
    # contexts once, at the first compile of the process; entries added later
    # stay invisible to every later compile (`Unknown attribute 'this_block'`)
    # unless the contexts are refreshed. So registration works in any import
    # order, and after a compile that failed for lack of it.
    refresh_registries(include_uninitialized_cuda=False)
    _active = True


register("numba-cuda-mlir")
