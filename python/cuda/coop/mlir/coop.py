"""The coop dialect in the upstream MLIR Python bindings: op classes and
builders generated from ODS (``coop.LoadOp``, ``coop.load(...)``), its enums,
and registration of the dialect and its passes."""

import sys

# numba-cuda-mlir preloads its own MLIR 23 as libMLIRPythonCAPI.so; the
# upstream bindings, imported after it, load that library (same name) instead
# of theirs, and this module's MLIR 22 symbols are missing from it.
if "numba_cuda_mlir" in sys.modules:
    raise ImportError(
        "cuda.coop.mlir cannot run in a process that has imported numba_cuda_mlir: "
        "the upstream MLIR Python bindings would run on numba-cuda-mlir's MLIR. "
        "Use the Numba backend (cuda.coop.numba_mlir) and cuda.coop.mlir in separate processes."
    )

from mlir import ir as _ir  # noqa: E402

from ._coop import register_dialect as _register_dialect  # noqa: E402
from ._coop import register_passes  # noqa: E402
from .dialects._coop_enum_gen import *  # noqa: E402,F401,F403
from .dialects._coop_ops_gen import *  # noqa: E402,F401,F403
from .dialects._coop_ops_gen import _Dialect  # noqa: E402,F401
from .dialects._ods_common import _cext  # noqa: E402

# The bindings give an operation its generated class only once they can
# import the dialect's module by name; ours is not in mlir.dialects.
_cext.globals.append_dialect_search_prefix(__name__.rpartition(".")[0])


def register_dialect(context: _ir.Context | None = None, load: bool = True) -> None:
    """Makes coop available in ``context`` (default: the current one) and
    registers its passes and pipelines, ``coop-lower-to-ptx`` included, for
    ``PassManager.parse``."""
    _register_dialect(context, load)
    register_passes()
