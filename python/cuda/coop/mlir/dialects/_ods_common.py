"""The upstream helpers that generated op classes import as ``._ods_common``
(mlir-tblgen writes ``_coop_ops_gen.py`` for a module inside mlir.dialects)."""

from mlir.dialects._ods_common import *  # noqa: F401,F403
from mlir.dialects._ods_common import _cext  # noqa: F401
