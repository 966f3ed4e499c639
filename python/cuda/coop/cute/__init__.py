"""cuda.coop inside NVIDIA CuTe DSL kernels.

After ``cuda.coop.register("cute")`` (automatic when ``cutlass`` was imported
first), the common API's calls in a ``@cute.kernel`` run while CuTe traces
the kernel: each call becomes a site of the coop dialect, lowered alone to
LLVM bitcode by our C API (in milliseconds) and called through ``cute.ffi``;
CuTe links the bitcode into the kernel and inlines it. Every operation of
the common API runs there (`SUPPORTED`). Payloads are CuTe register tensors
(``coop.ThreadData(n, dtype)`` makes one), memory is a
global or shared tensor of unit stride whose first element starts the tile,
and groups are ``this_block()``, ``this_warp()`` and ``this_warp().group_by(n)``.
The block's shape is the kernel launch's (CuTe's launch facts): launch with a
constant ``block=``, or state it with `assume_block` (a launch with another
block traps). docs/embedding.md says what is supported and how scratch
and barriers work.
"""

from __future__ import annotations

from .._registration import require_compiler as _require_compiler

# Without CuTe DSL (or with an unsupported version) importing this module is
# an ImportError naming the extra that installs it.
_require_compiler("cute")

from .. import *  # noqa: E402,F401,F403 -- the common API, under this namespace too
from .. import __all__ as _common_api  # noqa: E402
from ._tracing import SUPPORTED, assume_block  # noqa: E402


def _activate() -> None:
    from cutlass.cutlass_dsl import BaseDSL

    from .. import _markers
    from ._bitcode import finalize
    from ._tracing import trace

    if trace not in _markers._tracers:
        _markers._tracers.append(trace)
    BaseDSL._get_dsl().register_trace_finalize_hook(finalize)


__all__ = [*_common_api, "SUPPORTED", "assume_block"]


register("cute")
