"""A site's bitcode and its call through ``cute.ffi``.

The C API lowers the site alone (`_compiler.emit_site_bitcode`): payloads and
the tile's memory become pointers, runtime integers i64, items and the
result values. The bitcode is written to a file named by its content: CuTe
caches compiled kernels by the path of a linked library, not its bytes, so a
path never holds two different bitcodes. Sites are lowered once per process.

Every block site of a kernel takes its scratch at offset 0 of one shared
buffer, `SHARED_BUFFER`, as CUB's kernels share one union of temp storage:
each such site starts with a block barrier, so the previous site's reads are
over before it writes. The sites declare the buffer; once CuTe has traced
the kernel, `finalize` adds to its module's link libraries a definition as
large as the largest site needs, and calls the kernel's first user of the
buffer, where it runs once, in a copy without the leading barrier. Warp
sites keep buffers of their own (a warp barrier does not wait for the other
warps' reads).
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

SHARED_BUFFER = "__coop_scratch_block"

_LOWERED: dict[tuple, tuple[str, str]] = {}  # (site data, sm) -> (function, path)
# A site bitcode's path -> the (size, alignment) of SHARED_BUFFER it needs.
_SHARED_NEEDS: dict[str, tuple[int, int]] = {}
# The function of a site that uses SHARED_BUFFER -> (its site data, sm).
_SHARED_SITES: dict[str, tuple[tuple, int]] = {}
FIRST_SUFFIX = "_first"
# The ops of a gpu.module that are kernels: CuTe's (4.8) and upstream's.
_KERNELS = ("cuda.kernel", "gpu.func")


def call(site, values: list, results: list) -> list:
    """Calls `site`'s function on `values` (CuTe values, in the site's
    parameter order); its results, as the CuTe types `results` name. The
    first comes back from the call, the others through one-item register
    tensors (the function's trailing pointer parameters)."""
    sm = _sm()
    data = site.data()
    name, path = _LOWERED.get((data, sm)) or _lower(data, sm)
    if path in _SHARED_NEEDS:
        _check_launch_shared_memory(site, _SHARED_NEEDS[path][0], sm)
    outs = [cute.make_rmem_tensor((1,), t) for t in results[1:]]
    parameters = [_parameter(site_type) for _, site_type in site.operands]
    parameters += [llvm.PointerType.get() for _ in outs]
    function = cute.ffi(name=name, params_types=parameters,
                        return_type=results[0] if results else None, source=path)
    returned = function(*values, *(out.iterator.llvm_ptr for out in outs))
    if not results:
        return []
    return [results[0](returned)] + [out[0] for out in outs]


def _check_launch_shared_memory(site, size: int, sm: int) -> None:
    """Our static buffer adds to the dynamic shared memory the launch asks
    for (`smem=`, CuTe's allocator): a launch whose constant `smem=` leaves
    the block's limit less than `size` bytes would fail when launched, so it
    is an error at the call that says how much `smem=` may be."""
    from cutlass.cute.launch_facts import _current_kernel
    from cutlass.cutlass_dsl.cutlass import SMEM_CAPACITY_MAP
    from cutlass._mlir import ir

    capacity = SMEM_CAPACITY_MAP.get(f"sm_{sm}")
    attributes = _current_kernel(None).attributes
    # CuTe records a launch's smem= that is a Python int on the kernel.
    if capacity is None or "smem.config_smem_size" not in attributes:
        return
    smem = ir.IntegerAttr(attributes["smem.config_smem_size"]).value
    if smem + size > capacity:
        raise CoopCompileError(
            f"{site.filename}:{site.line}: coop.{site.op}: the kernel's launch asks for "
            f"smem={smem} bytes of dynamic shared memory and this call needs a {size}-byte "
            f"static buffer: {smem + size} bytes, past the {capacity} bytes a block can have "
            f"on sm_{sm}; launch with smem <= {capacity - size}, or give the call fewer items "
            "per thread")


def _lower(data: tuple, sm: int, first_use: bool = False) -> tuple[str, str]:
    try:
        bitcode, size, alignment = _compiler.emit_site_bitcode(data, sm, SHARED_BUFFER,
                                                               first_use)
    except _compiler.PipelineError as error:
        raise CoopCompileError(str(error)) from None
    path = _write(bitcode)
    if size:
        _SHARED_NEEDS[path] = (size, alignment)
        _SHARED_SITES[data[0]] = (data, sm)
    _LOWERED[(data, sm)] = data[0], path
    return data[0], path


def _write(bitcode: bytes, prefix: str = "") -> str:
    """The path of a file holding `bitcode`, named by its content."""
    directory = os.environ.get(CACHE_ENV) or os.path.join(
        tempfile.gettempdir(), f"cuda-coop-cute-{os.getuid()}")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, prefix + hashlib.sha256(bitcode).hexdigest()[:32] + ".bc")
    if not os.path.exists(path):
        # Written whole under another name first: a concurrent reader never
        # sees part of a file.
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as file:
            file.write(bitcode)
        os.replace(partial, path)
    return path


def finalize(dsl, module, function_name) -> None:
    """CuTe's trace-finalize hook: each gpu.module whose link libraries
    declare the shared buffer also links its definition, as large and
    aligned as the largest of them needs."""
    from cutlass._mlir import ir

    with module.context:
        for op in _gpu_modules(module.operation):
            if "link-libraries" not in op.attributes:
                continue
            libraries = [ir.StringAttr(a).value for a in op.attributes["link-libraries"]]
            for kernel in _operations(op):
                if kernel.name in _KERNELS:
                    libraries += _first_use(op, kernel)
            needs = [_SHARED_NEEDS[p] for p in libraries if p in _SHARED_NEEDS]
            if not needs:
                continue
            size = max(n for n, _ in needs)
            alignment = max(a for _, a in needs)
            # CuTe links the libraries in sorted order, each into the kernel's
            # module in turn; a declaration linked after the definition made a
            # second buffer, so the definition's name sorts last.
            definition = _write(_compiler.emit_scratch_bitcode(SHARED_BUFFER, size, alignment),
                                prefix="~scratch-")
            if definition not in libraries:
                op.attributes["link-libraries"] = ir.ArrayAttr.get(
                    [ir.StringAttr.get(p) for p in sorted(libraries + [definition])])


def _first_use(gpu_module, kernel) -> list[str]:
    """Calls the first use of SHARED_BUFFER in `kernel` without its leading
    barrier when nothing can have used the buffer before it: the kernel's
    first call of a site that uses it, in its entry block, outside any
    region (a loop or branch). Returns the bitcode it now links."""
    from cutlass._mlir import ir

    body = kernel.regions[0].blocks
    if len(body) != 1:
        return []
    for op, nested in _calls(body[0], nested=False):
        name = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
        if name not in _SHARED_SITES:
            continue
        if nested:
            return []
        data, sm = _SHARED_SITES[name]
        first = (name + FIRST_SUFFIX,) + data[1:]
        _, path = _LOWERED.get((first, sm)) or _lower(first, sm, first_use=True)
        prototype = next(p for p in _operations(gpu_module) if p.name == "func.func" and
                         ir.StringAttr(p.attributes["sym_name"]).value == name)
        declared = prototype.clone(ip=ir.InsertionPoint(prototype))
        declared.attributes["sym_name"] = ir.StringAttr.get(first[0])
        op.attributes["callee"] = ir.FlatSymbolRefAttr.get(first[0])
        return [path]
    return []


def _calls(block, nested):
    """(call, inside a region of the block's ops) in program order."""
    for op in block.operations:
        op = op.operation
        if op.name == "func.call":
            yield op, nested
        for region in op.regions:
            for inner in region.blocks:
                yield from _calls(inner, True)


def _operations(operation):
    return [op.operation for op in operation.regions[0].blocks[0].operations]


def _gpu_modules(operation):
    for region in operation.regions:
        for block in region.blocks:
            for op in block.operations:
                if op.operation.name == "gpu.module":
                    yield op.operation
                else:
                    yield from _gpu_modules(op.operation)


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
