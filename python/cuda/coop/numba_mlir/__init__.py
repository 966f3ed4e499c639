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

from .. import (  # noqa: F401 -- the common API, under this namespace too
    GroupByMapping,
    Hierarchy,
    StatefulFunction,
    TempStorageLike,
    ThreadData,
    ThreadDataLike,
    ThreadGroup,
    ThreadHierarchy,
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
    register,
    scan,
    select,
    shuffle,
    store,
    sum,
    topk_max_keys,
    topk_max_pairs,
    topk_min_keys,
    topk_min_pairs,
    this_block,
    this_cluster,
    this_grid,
    this_thread,
    this_warp,
)

from ._temp_storage import TempStorage  # noqa: E402 -- a class here: its facts are attributes


def __getattr__(name):
    # Numba's memory namespaces, imported when first asked for:
    # `numba_cuda_mlir.cuda` takes about 0.2 s to import.
    if name in ("local", "shared"):
        from numba_cuda_mlir import cuda

        return getattr(cuda, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GroupByMapping", "Hierarchy", "StatefulFunction", "TempStorage", "TempStorageLike", "ThreadData",
    "ThreadDataLike", "ThreadGroup", "ThreadHierarchy", "argsort", "exchange", "exclusive_scan",
    "exclusive_sum", "histogram", "inclusive_scan", "inclusive_sum", "load", "local",
    "merge_sort_keys", "merge_sort_pairs", "radix_rank",
    "radix_rank_keys", "radix_sort_keys", "radix_sort_pairs", "reduce", "reduce_batched", "register",
    "run_length_decode", "run_length_decode_into",
    "scan", "select", "shared", "shuffle", "store", "sum", "this_block", "this_cluster", "this_grid",
    "this_thread", "this_warp", "topk_max_keys", "topk_max_pairs", "topk_min_keys",
    "topk_min_pairs",
]

_active = False
_installed = False


def _activate() -> None:
    """Register the planner and the compile hooks (once per process). What
    the compiles need (typing, lowering, the kernel plan, the native
    library) is installed by the first compile: importing it takes about
    0.5 s that a process which compiles no kernel does not pay."""
    global _active
    if _active:
        return
    from . import _disk_cache
    from ._numba import install_compile_hooks, planner_base, register_planner

    class CoopPlanner(planner_base()):
        """Installs the backend, then plans the kernel (`_planner.CoopPlanner`)."""

        def run(self) -> bool:
            _install()
            from ._planner import CoopPlanner as Planner

            return Planner(self.state).run()

    register_planner(CoopPlanner)
    install_compile_hooks(_install, _disk_cache)
    _active = True


def _install() -> None:
    """Install typing, lowering and the kernel plan (at the first compile)."""
    global _installed
    if _installed:
        return
    from numba_cuda_mlir.extending import refresh_registries

    from . import (  # noqa: F401 -- registrations on import
        _kernel_plan,
        _lowering,
        _storage_attributes,
        _typing,
    )

    _kernel_plan.install()
    # Numba-CUDA-MLIR loads its typing and lowering registries into its
    # contexts once, at the first compile of the process; entries added later
    # stay invisible to every later compile (`Unknown attribute 'this_block'`)
    # unless the contexts are refreshed. So registration works in any import
    # order, and after a compile that failed for lack of it.
    refresh_registries(include_uninitialized_cuda=False)
    _installed = True


register("numba-cuda-mlir")
