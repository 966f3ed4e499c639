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

    storage, storage_key = _storage(builder, options, where)

    site = Site(op=op, group=group_type, algorithm=algorithm, memory_type=str(memory.type),
                payload_type=str(payload.type), element_type=str(element),
                block_dims=_block_dims(builder, where), has_offset=has_offset,
                has_valid=has_valid, has_oob=has_oob, storage=storage, filename=filename,
                line=line, col=col)
    _call_site(builder, site, operands, storage_key)


def _call_site(builder, site: Site, operands, storage_key, results=()):
    """Links the site's function (or, for a scratch-using site, a declaration
    the kernel plan replaces) and calls it."""
    name, text = site.function()
    if site.uses_scratch:
        # Checked now, at the call's line; lowered once the kernel plan has
        # placed its scratch.
        run_passes(text, site.filename, CHECK_PIPELINE)
        name, text = site.declaration(name)
        link_into(builder.mlir_module, text)
    else:
        link_into(builder.mlir_module, run_passes(text, site.filename))
    call = func.call(list(results), name, operands)
    if isinstance(call, ir.Value):  # a call with one result returns the result
        call = call.owner
    _kernel_plan.mark_site(call, site, storage_key, builder.metadata)
    return call


def _literal_option(builder, options, name, default, where, allowed):
    """A compile-time option: a literal of the allowed values, or the default."""
    var = options.get(name)
    value_type = builder.get_numba_type(var.name) if var is not None else None
    if value_type is None or isinstance(value_type, (types.NoneType, types.Omitted)):
        return default
    if not isinstance(value_type, types.Literal) or value_type.literal_value not in allowed:
        shown = value_type.literal_value if isinstance(value_type, types.Literal) else value_type
        raise CoopCompileError(f"{where}: {name} must be one of "
                               f"{', '.join(map(repr, allowed))}; got {shown!r}")
    return value_type.literal_value


def _given(builder, options, name):
    var = options.get(name)
    return var is not None and not isinstance(builder.get_numba_type(var.name),
                                              (types.NoneType, types.Omitted))


def _storage(builder, options, where):
    """The temp_storage option: (its dialect attributes, its descriptor's
    variable name), or (None, None) when the compiler plans the scratch."""
    if not _given(builder, options, "temp_storage"):
        return None, None
    storage_type = builder.get_numba_type(options["temp_storage"].name)
    if not isinstance(storage_type, TempStorageType):
        raise CoopCompileError(f"{where}: temp_storage must be a coop.TempStorage(...) made in "
                               f"the kernel; got {storage_type}")
    return storage_type.mlir_attributes, _root(builder.func_ir, options["temp_storage"]).name


def _fresh_payload(builder, like):
    """A new payload of `like`'s static type, allocated in the entry block so
    it is promoted to registers."""
    with builder.alloca_insertion_point():
        return memref.alloca(ir.MemRefType(like.type), [], [])


def _payload_operand(builder, var, what, where, items=None):
    payload = _static_payload(builder.load_var(var))
    payload_type = ir.MemRefType(payload.type)
    if not payload_type.has_static_shape:
        raise CoopCompileError(f"{where}: {what} must be a coop.ThreadData or a local array "
                               "of compile-time size")
    if items is not None and payload_type.shape[0] != items:
        raise CoopCompileError(f"{where}: {what} must have one item per value item ({items}); "
                               f"got {payload_type.shape[0]}")
    return payload


def _store_result(builder, target, result_type, value):
    """Assigns a fresh payload to the call's target, typed as Numba types it."""
    mlir_type = builder.get_mlir_type(result_type)
    if mlir_type != value.type:
        value = memref.cast(mlir_type, value)
    builder.store_var(target, value)


EXCHANGE_MODES = ("striped_to_blocked", "blocked_to_striped", "warp_striped_to_blocked",
                  "blocked_to_warp_striped", "scatter_to_blocked", "scatter_to_striped",
                  "scatter_to_striped_guarded", "scatter_to_striped_flagged")
SHUFFLE_MODES = ("up", "down", "offset", "rotate")


@lowering_registry.lower(_markers.exchange, types.VarArg(types.Any))
def _lower_exchange(builder, target, args, kwargs):
    group_var, value_var = args
    options = dict(kwargs)
    filename, line, col = _location(target)
    where = f"{filename}:{line}"
    mode = _literal_option(builder, options, "mode", "striped_to_blocked", where,
                           EXCHANGE_MODES)
    sliced = _literal_option(builder, options, "warp_time_slicing", False, where,
                             (False, True))
    payload = _payload_operand(builder, value_var, "coop.exchange's value", where)
    items = ir.MemRefType(payload.type).shape[0]
    output = _fresh_payload(builder, payload)
    operands = [payload, output]
    aux = {}
    for name in ("ranks", "valid_flags"):
        if _given(builder, options, name):
            aux[name] = _payload_operand(builder, options[name], name, where, items)
            operands.append(aux[name])
    storage, storage_key = _storage(builder, options, where)
    site = Site(op="exchange", group=builder.get_numba_type(group_var.name), algorithm="",
                memory_type="", payload_type=str(payload.type),
                element_type=str(ir.MemRefType(payload.type).element_type),
                block_dims=_block_dims(builder, where), has_offset=False, has_valid=False,
                has_oob=False, storage=storage, filename=filename, line=line, col=col,
                mode=mode, time_slicing=bool(sliced),
                ranks_type=str(aux["ranks"].type) if "ranks" in aux else None,
                flags_type=str(aux["valid_flags"].type) if "valid_flags" in aux else None)
    _call_site(builder, site, operands, storage_key)
    _store_result(builder, target, builder.get_numba_type(target.name), output)


@lowering_registry.lower(_markers.shuffle, types.VarArg(types.Any))
def _lower_shuffle(builder, target, args, kwargs):
    group_var, value_var = args
    options = dict(kwargs)
    filename, line, col = _location(target)
    where = f"{filename}:{line}"
    mode = _literal_option(builder, options, "mode", "down", where, SHUFFLE_MODES)
    scalar = mode in ("offset", "rotate")
    value_type = builder.get_numba_type(value_var.name)
    if scalar != (not isinstance(value_type, types.Array)):
        raise CoopCompileError(
            f"{where}: coop.shuffle mode {mode!r} takes "
            + ("a scalar (one item per thread); payloads use 'up' or 'down'" if scalar
               else "a payload (coop.ThreadData or a local array); scalars use 'offset' or "
                    "'rotate'"))
    operands = []
    if scalar:
        value = builder.load_var(value_var)
        element = value.type
        operands.append(value)
    else:
        value = _payload_operand(builder, value_var, "coop.shuffle's value", where)
        element = ir.MemRefType(value.type).element_type
        output = _fresh_payload(builder, value)
        operands += [value, output]
    has_distance = _given(builder, options, "distance")
    if has_distance:
        distance_type = builder.get_numba_type(options["distance"].name)
        if not isinstance(distance_type, types.Integer):
            raise CoopCompileError(f"{where}: coop.shuffle's distance must be an integer; got "
                                   f"{distance_type}")
        if not scalar:
            if not (isinstance(distance_type, types.IntegerLiteral)
                    and distance_type.literal_value == 1):
                raise CoopCompileError(f"{where}: coop.shuffle mode {mode!r} moves items by "
                                       "exactly one position: distance must be 1")
            has_distance = False
        else:
            operands.append(builder.mlir_convert(builder.load_var(options["distance"]),
                                                 ir.IntegerType.get_signless(64)))
    has_fill = _given(builder, options, "fill")
    if has_fill:
        operands.append(builder.mlir_convert(builder.load_var(options["fill"]), element))
    storage, storage_key = _storage(builder, options, where)
    site = Site(op="shuffle", group=builder.get_numba_type(group_var.name), algorithm="",
                memory_type="", payload_type=str(value.type), element_type=str(element),
                block_dims=_block_dims(builder, where), has_offset=False, has_valid=False,
                has_oob=False, storage=storage, filename=filename, line=line, col=col,
                mode=mode, has_distance=has_distance, has_fill=has_fill)
    call = _call_site(builder, site, operands, storage_key, results=[element] if scalar else [])
    if scalar:
        builder.store_var(target, call.results[0])
    else:
        _store_result(builder, target, builder.get_numba_type(target.name), output)


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
