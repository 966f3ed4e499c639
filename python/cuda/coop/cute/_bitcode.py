"""A site's bitcode and its call through ``cute.ffi``.

The C API lowers the site alone (`_compiler.emit_site_bitcode`): payloads and
the tile's memory become pointers, runtime integers i64, items and the
result values. The bitcode is written to a file named by its content: CuTe
caches compiled kernels by the path of a linked library, not its bytes, so a
path never holds two different bitcodes. Sites are lowered once per process.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile

import cutlass
import cutlass.cute as cute
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import BaseDSL

from .. import _compiler
from .._errors import CoopCompileError

CACHE_ENV = "CUDA_COOP_CUTE_CACHE"
"""The directory of the bitcode files (default: one per user in the temp dir)."""

_LOWERED: dict[tuple, tuple[str, str]] = {}  # (site data, sm) -> (function, path)


def call(site, values: list, results: list) -> list:
    """Calls `site`'s function on `values` (CuTe values, in the site's
    parameter order); its results, as the CuTe types `results` name. The
    first comes back from the call, the others through one-item register
    tensors (the function's trailing pointer parameters)."""
    sm = _sm()
    data = site.data()
    name, path = _LOWERED.get((data, sm)) or _lower(data, sm)
    outs = [cute.make_rmem_tensor((1,), t) for t in results[1:]]
    parameters = [_parameter(site_type) for _, site_type in site.operands]
    parameters += [llvm.PointerType.get() for _ in outs]
    function = cute.ffi(name=name, params_types=parameters,
                        return_type=results[0] if results else None, source=path)
    returned = function(*values, *(out.iterator for out in outs))
    if not results:
        return []
    return [results[0](returned)] + [out[0] for out in outs]


def _lower(data: tuple, sm: int) -> tuple[str, str]:
    try:
        bitcode = _compiler.emit_site_bitcode(data, sm)
    except _compiler.PipelineError as error:
        raise CoopCompileError(str(error)) from None
    directory = os.environ.get(CACHE_ENV) or os.path.join(
        tempfile.gettempdir(), f"cuda-coop-cute-{os.getuid()}")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, hashlib.sha256(bitcode).hexdigest()[:32] + ".bc")
    if not os.path.exists(path):
        # Written whole under another name first: a concurrent reader never
        # sees part of a file.
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as file:
            file.write(bitcode)
        os.replace(partial, path)
    _LOWERED[(data, sm)] = data[0], path
    return data[0], path


def _parameter(site_type: str):
    if site_type.startswith("memref<"):
        return llvm.PointerType.get()
    return {"i8": cutlass.Int8, "i16": cutlass.Int16, "i32": cutlass.Int32,
            "i64": cutlass.Int64, "f16": cutlass.Float16, "bf16": cutlass.BFloat16,
            "f32": cutlass.Float32, "f64": cutlass.Float64}[site_type]


def _sm() -> int:
    """The compute capability CuTe compiles for (major * 10 + minor)."""
    arch = str(BaseDSL._get_dsl().get_arch_enum())
    found = re.search(r"sm_(\d+)", arch)
    return int(found.group(1)) if found else 0
