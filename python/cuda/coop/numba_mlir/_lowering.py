"""Lowering of cuda.coop calls: each load or store becomes a call of a
function that our MLIR (the coop dialect and its passes, through
cuda.coop._compiler) builds for that call site.

Only IR we emit crosses into Numba's MLIR, in generic form: the site
function and its shared scratch buffer (a workgroup memref.global). Numba's
own pipeline then inlines the call. Launch facts come from the launch
configuration the planner required.
"""

from __future__ import annotations

import functools
import hashlib

from numba_cuda_mlir import types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import arith, func
from numba_cuda_mlir.extending import lowering_registry
from numba_cuda_mlir.lowering_utilities import link

from .. import _compiler, _groups, _markers
from ._types import GroupType, TempStorageType

SITE_PIPELINE = "coop-plan-scratch,coop-insert-barriers,convert-coop-to-gpu,canonicalize,cse"
BLOCK_ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
                    "warp_transpose_timesliced")
SCRATCH_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")


class CoopCompileError(Exception):
    """A cuda.coop call that cannot be compiled as written."""


def _dummy(builder, target):
    builder.store_var(target, arith.constant(ir.IntegerType.get_signless(32), 0))


for _fn in (_groups.this_thread, _groups.this_warp, _groups.this_block, _groups.this_cluster,
            _groups.this_grid):
    lowering_registry.lower(_fn)(lambda builder, target, args, kwargs: _dummy(builder, target))

lowering_registry.lower("coop_group.group_by", GroupType, types.VarArg(types.Any))(
    lambda builder, target, args, kwargs: _dummy(builder, target))
lowering_registry.lower(_markers.TempStorage, types.VarArg(types.Any))(
    lambda builder, target, args, kwargs: _dummy(builder, target))


def _block_dims(builder, where):
    options = builder.metadata.get("targetoptions", {})
    config = options.get("__launch_config__")
    if not config or "block" not in config:
        raise CoopCompileError(
            f"{where}: cuda.coop needs the kernel's block dimensions, which come from its "
            "launch configuration: launch the kernel (kernel[grid, block](...)) instead of "
            "compiling it ahead of time without one")
    dims = tuple(int(d) for d in config["block"]) + (1, 1)
    return dims[:3]


def _location(target):
    loc = getattr(target, "loc", None)
    filename = getattr(loc, "filename", None) or "<kernel>"
    line = getattr(loc, "line", 0) or 0
    col = getattr(loc, "col", 0) or 0
    return filename, line, col


def _lower_tile(builder, target, args, kwargs, op):
    names = ("group", "memory", "payload")
    values = dict(zip(names, args))
    options = dict(kwargs)
    group_type = builder.get_numba_type(values["group"].name)
    filename, line, col = _location(target)
    where = f"{filename}:{line}"

    algorithm_type = builder.get_numba_type(options["algorithm"].name) \
        if "algorithm" in options else None
    algorithm = "direct"
    if algorithm_type is not None and not isinstance(algorithm_type, types.NoneType):
        if not isinstance(algorithm_type, types.StringLiteral):
            raise CoopCompileError(f"{where}: algorithm must be a string literal such as "
                                   "'transpose'")
        algorithm = algorithm_type.literal_value
    if algorithm not in BLOCK_ALGORITHMS:
        raise CoopCompileError(f"{where}: unknown algorithm {algorithm!r}; expected one of "
                               + ", ".join(BLOCK_ALGORITHMS))

    memory_type = builder.get_numba_type(values["memory"].name)
    role = "source" if op == "load" else "destination"
    if memory_type.ndim != 1:
        raise CoopCompileError(f"{where}: coop.{op}'s {role} must be a one-dimensional array; "
                               f"got a {memory_type.ndim}-D array")
    if memory_type.layout != "C":
        raise CoopCompileError(f"{where}: coop.{op}'s {role} must be contiguous; got an array "
                               f"with layout {memory_type.layout!r}")

    memory = builder.load_var(values["memory"])
    payload = _static_payload(builder.load_var(values["payload"]))
    element = ir.MemRefType(memory.type).element_type
    operands, params = [memory, payload], [str(memory.type), str(payload.type)]
    i64 = ir.IntegerType.get_signless(64)

    def optional(name, mlir_type):
        var = options.get(name)
        if var is None or isinstance(builder.get_numba_type(var.name), types.NoneType):
            return None
        value = builder.load_var(var)
        operands.append(builder.mlir_convert(value, mlir_type))
        params.append(str(mlir_type))
        return f"%a{len(operands) - 1}"

    offset = optional("offset", i64)
    valid = optional("valid_items", i64)
    oob = optional("oob_default", element) if op == "load" else None

    storage_attrs = None
    if "temp_storage" in options:
        storage_type = builder.get_numba_type(options["temp_storage"].name)
        if isinstance(storage_type, TempStorageType):
            storage_attrs = storage_type.mlir_attributes

    dims = _block_dims(builder, where)
    group = group_type.mlir
    lines = _group_ops(group_type)
    if storage_attrs is not None:
        lines.append(f"    %ts = coop.temp_storage {storage_attrs}")
    index_of = {}
    for name, ref in (("offset", offset), ("valid", valid)):
        if ref:
            lines.append(f"    %{name} = arith.index_cast {ref} : i64 to index")
            index_of[name] = f"%{name}"
    # Per-site scratch is reused by the next execution of the site (a loop):
    # until whole-kernel planning, a leading barrier of the group protects it.
    if algorithm in SCRATCH_ALGORITHMS and storage_attrs is None:
        lines.append(f"    coop.barrier %g : {group}")
    alg = "" if algorithm == "direct" else f" algorithm = {algorithm}"
    valid_text = f" valid_items = {index_of['valid']}" if valid else ""
    storage_text = " temp_storage = %ts" if storage_attrs is not None else ""
    offset_text = f"[{index_of['offset']}]" if offset else ""
    loc = f'loc("{filename}":{line}:{col})'
    if op == "load":
        oob_text = f" oob_default = {oob} : {element}" if oob else ""
        lines.append(f"    coop.load %g, %a0{offset_text} into %a1{alg}{valid_text}{oob_text}"
                     f"{storage_text} : {group}, {params[0]}, {params[1]} {loc}")
    else:
        lines.append(f"    coop.store %g, %a1 into %a0{offset_text}{alg}{valid_text}"
                     f"{storage_text} : {group}, {params[1]}, {params[0]} {loc}")
    signature = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
    body = "\n".join(lines)
    digest = hashlib.sha1(f"{op}{signature}{body}{dims}".encode()).hexdigest()[:16]
    name = f"__coop_{op}_{digest}"
    text = (f"func.func private @{name}({signature}) attributes "
            f"{{gpu.known_block_size = array<i32: {dims[0]}, {dims[1]}, {dims[2]}>}} {{\n"
            f"{body}\n    return\n  }}\n")
    try:
        lowered = _site_function(text, filename)
    except _compiler.PipelineError as error:
        messages = "; ".join(f"{loc}: {msg}" for severity, loc, msg in error.diagnostics
                             if severity == "error")
        raise CoopCompileError(messages or str(error)) from None
    _link(builder, lowered)
    func.call([], name, operands)


@functools.lru_cache(maxsize=4096)
def _site_function(text: str, filename: str) -> str:
    """A site function in generic form. Kernels are specialized per launch
    configuration and items_per_thread, so the same sites recur: lower each
    once per process."""
    return _compiler.run_pipeline(text, SITE_PIPELINE, source_name=filename, generic=True)


def _static_payload(payload):
    """A payload passed through an inlined device helper arrives as a dynamic
    memref cast from the caller's fixed-size local array; use the array."""
    while isinstance(payload.type, ir.MemRefType) and \
            not ir.MemRefType(payload.type).has_static_shape:
        owner = payload.owner
        if not isinstance(owner, ir.OpView) or owner.operation.name != "memref.cast":
            break
        payload = owner.operands[0]
    return payload


def _group_ops(group_type: GroupType) -> list[str]:
    """The dialect ops that make the call's group %g."""
    if group_type.kind == "threads_within_warp":
        return ["    %w = coop.this_warp",
                f"    %g = coop.group_by %w : !coop.group<warp> -> {group_type.mlir}"]
    if group_type.kind == "warps_within_block":
        return ["    %b = coop.this_block",
                f"    %g = coop.group_by %b : !coop.group<block> -> {group_type.mlir}"]
    return [f"    %g = coop.this_{group_type.kind}"]


def _link(builder, text: str) -> None:
    """Adds the site function and its scratch global to Numba's gpu.module."""
    module = ir.Module.parse(text)
    target = link._find_link_target(builder.mlir_module.operation)
    existing = link._get_existing_names(target)
    for op in module.body.operations:
        if op.operation.name == "memref.global":
            name = op.attributes["sym_name"].value
            if name not in existing:
                target.append(op.operation.clone().detach_from_parent())
                existing.add(name)
    link.link_inplace(builder.mlir_module, module)


@lowering_registry.lower(_markers.load, types.VarArg(types.Any))
def _lower_load(builder, target, args, kwargs):
    _lower_tile(builder, target, args, kwargs, "load")


@lowering_registry.lower(_markers.store, types.VarArg(types.Any))
def _lower_store(builder, target, args, kwargs):
    _lower_tile(builder, target, args, kwargs, "store")
