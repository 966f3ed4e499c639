"""Lowering of cuda.coop calls: each load or store becomes a call of a
function that our MLIR (the coop dialect and its passes, through
cuda.coop._compiler) builds for that call site.

Only IR we emit crosses into Numba's MLIR, in generic form: the site
function, which Numba's own pipeline inlines. A site that needs scratch
calls a declaration until `_kernel_plan.py` has planned the kernel's scratch
and barriers as a whole and supplies the placed function. Launch facts come
from the launch configuration the planner required.
"""

from __future__ import annotations

from numba_cuda_mlir import types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import arith, func, memref
from numba_cuda_mlir.extending import lowering_registry

from .. import _groups, _markers
from . import _kernel_plan
from ._errors import CoopCompileError
from ._passes import CHECK_PIPELINE, link_into, run_passes
from ._planner import _root
from ._sites import Site
from ._types import GroupType, TempStorageType

BLOCK_ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
                    "warp_transpose_timesliced")


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

    memory = _unit_stride(builder.load_var(values["memory"]))
    payload = _static_payload(builder.load_var(values["payload"]))
    element = ir.MemRefType(memory.type).element_type
    operands = [memory, payload]
    i64 = ir.IntegerType.get_signless(64)

    def optional(name, mlir_type):
        var = options.get(name)
        if var is None or isinstance(builder.get_numba_type(var.name), types.NoneType):
            return False
        operands.append(builder.mlir_convert(builder.load_var(var), mlir_type))
        return True

    has_offset = optional("offset", i64)
    has_valid = optional("valid_items", i64)
    has_oob = optional("oob_default", element) if op == "load" else False

    storage, storage_key = None, None
    if "temp_storage" in options:
        storage_type = builder.get_numba_type(options["temp_storage"].name)
        if isinstance(storage_type, TempStorageType):
            storage = storage_type.mlir_attributes
            storage_key = _root(builder.func_ir, options["temp_storage"]).name

    site = Site(op=op, group=group_type, algorithm=algorithm, memory_type=str(memory.type),
                payload_type=str(payload.type), element_type=str(element),
                block_dims=_block_dims(builder, where), has_offset=has_offset,
                has_valid=has_valid, has_oob=has_oob, storage=storage, filename=filename,
                line=line, col=col)
    name, text = site.function()
    if site.uses_scratch:
        # Checked now, at the call's line; lowered once the kernel plan has
        # placed its scratch.
        run_passes(text, filename, CHECK_PIPELINE)
        name, text = site.declaration(name)
        link_into(builder.mlir_module, text)
    else:
        link_into(builder.mlir_module, run_passes(text, filename))
    call = func.call([], name, operands)
    _kernel_plan.mark_site(call, site, storage_key, builder.metadata)


def _unit_stride(memory):
    """A C-contiguous Numba array as a memref whose stride is statically 1:
    Numba types it with a dynamic stride, which would cost a multiply (and a
    load of the stride) per item."""
    memref_type = ir.MemRefType(memory.type)
    try:
        layout = ir.StridedLayoutAttr(memref_type.layout)
    except ValueError:
        return memory  # identity layout: unit stride already
    if list(layout.strides) == [1]:
        return memory
    unit = ir.StridedLayoutAttr.get(layout.offset, [1])
    contiguous = ir.MemRefType.get(memref_type.shape, memref_type.element_type, unit,
                                   memref_type.memory_space)
    return memref.cast(contiguous, memory)


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


@lowering_registry.lower(_markers.load, types.VarArg(types.Any))
def _lower_load(builder, target, args, kwargs):
    _lower_tile(builder, target, args, kwargs, "load")


@lowering_registry.lower(_markers.store, types.VarArg(types.Any))
def _lower_store(builder, target, args, kwargs):
    _lower_tile(builder, target, args, kwargs, "store")
