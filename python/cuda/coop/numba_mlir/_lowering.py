"""Lowering of cuda.coop calls: each call becomes a call of a function that
our MLIR (the coop dialect and its passes, through cuda.coop._compiler)
builds for that call site. One lowering serves every operation of the table
(`_operations.py`): it reads the call's arguments by role and option kind.

Only IR we emit crosses into Numba's MLIR, in generic form: the site
function, which Numba's own pipeline inlines. A site that needs scratch
calls a declaration until `_kernel_plan.py` has planned the kernel's scratch
and barriers as a whole and supplies the placed function. Launch facts come
from the launch configuration the planner required.
"""

from __future__ import annotations

import functools
import math

from numba_cuda_mlir import cuda, types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import arith, func, memref
from numba_cuda_mlir.extending import lowering_registry

from .. import _groups, _markers, _spellings
from . import _kernel_plan
from ._errors import CoopCompileError
from ._numba import definitions, nir
from .._operations import (OPERATIONS, SCALAR_SHUFFLE_MODES, SCRATCH_ALGORITHMS, prefix_slots,
                           rank_digit)
from ._operators import is_operator_function, link_operator, link_predicate, link_prefix
from ._passes import describe_site, link_into, lower_site, target_sm
from ._planner import _resolve, _root
from .._sites import ITEM_ROLES, Site
from ._types import GroupType, StatefulFunctionType, TempStorageType

def _dummy(builder, target):
    builder.store_var(target, arith.constant(ir.IntegerType.get_signless(32), 0))


for _fn in (_groups.this_thread, _groups.this_warp, _groups.this_block, _groups.this_cluster,
            _groups.this_grid):
    lowering_registry.lower(_fn)(lambda builder, target, args, kwargs: _dummy(builder, target))

lowering_registry.lower("coop_group.group_by", GroupType, types.VarArg(types.Any))(
    lambda builder, target, args, kwargs: _dummy(builder, target))
lowering_registry.lower(_markers.TempStorage, types.VarArg(types.Any))(
    lambda builder, target, args, kwargs: _dummy(builder, target))


def _stateful_function(builder, target, args, kwargs):
    """The StatefulFunction's value is its state as its function takes it: a
    shared array in the generic address space, with Numba's array layout."""
    state = builder.load_var(dict(zip(("function", "state"), args), **dict(kwargs))["state"])
    wanted = builder.get_mlir_type(builder.get_numba_type(target.name))
    state_type = ir.MemRefType(state.type)
    if state_type.memory_space is not None:
        generic = ir.MemRefType.get(state_type.shape, state_type.element_type,
                                    state_type.layout)
        state = memref.memory_space_cast(generic, state)
    if state.type != wanted:
        state = memref.cast(wanted, state)
    builder.store_var(target, state)


lowering_registry.lower(_markers.StatefulFunction, types.VarArg(types.Any))(_stateful_function)


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


class _Call:
    """One call being lowered: its arguments by role and option, where it is,
    and the operands and attributes its site collects."""

    def __init__(self, operation, builder, target, args, kwargs):
        self.operation, self.builder, self.target = operation, builder, target
        self.filename, self.line, self.col = _location(target)
        self.where = f"{self.filename}:{self.line}"
        self.args = dict(zip(operation.positional, args))
        self.options = dict(zip(operation.positional_options, args[len(operation.positional):]))
        self.options.update(operation.canonical_keywords(dict(kwargs)))
        self.operands: list[tuple[str, object]] = []   # (role, MLIR value)
        self.attributes: dict[str, object] = dict(operation.fixed)
        self.skipped: set[str] = set()

    def error(self, message: str):
        raise CoopCompileError(f"{self.where}: {message}")

    def numba_type(self, var):
        return self.builder.get_numba_type(var.name)

    def given(self, name: str) -> bool:
        var = self.options.get(name)
        return var is not None and not isinstance(self.numba_type(var),
                                                  (types.NoneType, types.Omitted))

    def attribute(self, name: str):
        return self.attributes.get(name, self.operation.default(name))


@functools.cache
def _lowering(operation):
    return lambda builder, target, args, kwargs: _lower(operation, builder, target, args,
                                                        kwargs)


def _lower(operation, builder, target, args, kwargs):
    call = _Call(operation, builder, target, args, kwargs)
    name = operation.name
    for option in operation.options:
        if option.name in operation.result_options:
            continue
        if option.kind in ("choice", "flag"):
            call.attributes[option.name] = _literal_option(call, option)
        elif option.kind == "integer" and call.given(option.name):
            call.attributes[option.name] = _integer_option(call, option.name)
    value = element = dtype = None
    for role in operation.positional[1:]:
        var = call.args[role]
        if role in ("source", "destination"):
            memory = _memory_operand(call, role, var)
            element = ir.MemRefType(memory.type).element_type
            dtype = call.numba_type(var).dtype
            call.operands.append((role, memory))
            if role == "source" and _read_only_argument(call, var):
                call.attributes["read_only"] = True
        elif role == "payload":
            call.operands.append((role, _payload_operand(call, var, f"coop.{name}'s payload")))
        elif role == "lengths" and isinstance(call.numba_type(var), types.Array):
            call.operands.append((role, _payload_operand(call, var,
                                                         f"coop.{name}'s run lengths")))
        elif role == "lengths":
            # One run a thread: its length as a one-item payload.
            call.operands.append((role, _payload_holding(builder, builder.load_var(var))))
        elif role == "values" and isinstance(call.numba_type(var), types.Array):
            call.operands.append((role, _payload_operand(call, var, f"coop.{name}'s values")))
        elif role == "values":
            # One key a thread: its value as a one-item payload.
            call.operands.append((role, _payload_holding(builder, builder.load_var(var))))
        else:
            value = _value_operand(call, var, element, dtype)
            call.operands.append((role, value))
            if dtype is None:
                value_type = call.numba_type(var)
                dtype = getattr(value_type, "dtype", value_type)
    scalar = not isinstance(value.type, ir.MemRefType) if value is not None else False
    for option in operation.options:
        if option.kind == "operator":
            call.attributes[option.name] = _operator_option(call, option, dtype)
        elif option.kind == "prefix" and call.given(option.name):
            call.attributes[option.name] = _prefix_option(call, option, dtype)
        elif option.kind in ("predicate", "comparator") and call.given(option.name):
            call.attributes[option.name] = link_predicate(
                builder, call.numba_type(call.options[option.name]), dtype,
                arity=2 if option.kind == "comparator" else 1)
    if operation.combines:
        # Named min and max compare the payload's integers as its dtype does.
        if isinstance(dtype, types.Integer) and not dtype.signed:
            call.attributes["unsigned"] = True
    if element is None:
        element = value.type if scalar else ir.MemRefType(value.type).element_type
    item_storage = None
    # A radix operation orders float16 keys by their bits as floats.
    applies_function = operation.combines or dtype == types.float16 and \
        operation.result in _RADIX_RESULTS or any(
        option.kind in ("predicate", "comparator") and call.given(option.name)
        for option in operation.options)
    if applies_function and not scalar and builder.get_mlir_type(dtype) != element:
        # Numba keeps float16 payloads as i16 words; an operator or predicate
        # needs the items as float16.
        item_storage, element = element, builder.get_mlir_type(dtype)
    operation_rules = _RULES.get(name)
    if operation_rules is not None:
        operation_rules(call, scalar)
    if _identity_transpose(call, scalar):
        call.attributes["algorithm"] = "direct"
    output = None
    if operation.result == "fresh" and not scalar:
        output = _fresh_payload(builder, value)
        call.operands.append(("output", output))
    elif operation.result == "batches":
        if scalar:
            # A scalar is one batch: a payload of one item, and its one result slot.
            value = _payload_holding(builder, value)
            call.operands = [(role, value if role == "value" else v)
                             for role, v in call.operands]
        group = call.numba_type(call.args["group"])
        width = group.count if group.kind == "threads_within_warp" else 32
        slots = -(-ir.MemRefType(value.type).shape[0] // width)
        output = _fresh_payload(builder, value, slots)
        call.operands.append(("output", output))
    elif operation.result == "counters" and not call.given("out"):
        output = _counters_payload(call)
        call.operands.append(("output", output))
    elif operation.result in _RADIX_RESULTS:
        keys_scalar = scalar
        if scalar:
            # One key a thread: a one-item payload, and its one result.
            value = _payload_holding(builder, value)
            call.operands = [(role, value if role == "value" else v)
                             for role, v in call.operands]
            scalar = False
        outputs = _radix_outputs(call, value)
        output = outputs[0][1]
        call.operands.extend(outputs)
    elif operation.result in ("decoded", "decoded_length"):
        if scalar:
            # One run a thread: its value as a one-item payload.
            value = _payload_holding(builder, value)
            call.operands = [(role, value if role == "value" else v)
                             for role, v in call.operands]
            scalar = False
        if operation.result == "decoded":
            output = _fresh_payload(builder, value,
                                    _integer_option(call, "decoded_items_per_thread"))
            call.operands.append(("output", output))
    items = ir.MemRefType(value.type).shape[0] if value is not None and not scalar else None
    for option in operation.options:
        if option.name in call.skipped or not call.given(option.name):
            continue
        var = call.options[option.name]
        if option.kind == "index":
            call.operands.append((option.name, _index_operand(call, option, var)))
        elif option.kind == "item":
            call.operands.append((option.name,
                                  _item_operand(call, option.name, var, element, dtype)))
        elif option.kind == "payload":
            call.operands.append((option.name,
                                  _payload_operand(call, var, option.name, items)))
        elif option.kind == "flags" and not scalar:
            call.operands.append((option.name, _payload_operand(
                call, var, f"coop.{operation.name}'s {option.name}", items)))
        elif option.kind == "flags":
            call.operands.append((option.name, builder.load_var(var)))
        elif option.kind == "counters":
            call.operands.append((option.name, _payload_operand(
                call, var, f"coop.{operation.name}'s {option.name}")))
        elif option.kind == "array":
            array = _memory_operand(call, option.name, var)
            if _is_shared_array(call, var):
                array = _in_shared_space(array)
            call.operands.append((option.name, array))
        elif option.kind == "prefix" and isinstance(call.numba_type(var),
                                                      StatefulFunctionType):
            # The StatefulFunction's value is its state, as its function takes it.
            call.operands.append((option.name, call.builder.load_var(var)))
    storage, storage_key = _storage(call)
    result_types = []
    if operation.result == "item" or operation.result == "fresh" and scalar:
        result_types.append(element)
    # Each result flag asked for adds an item: the result is a tuple.
    added = [flag for flag in operation.result_flags if call.attribute(flag)]
    result_types.extend(element for _ in added)
    if operation.counted:
        result_types.append(ir.IntegerType.get_signless(32))
    decoded_length = operation.result == "decoded_length" or (
        operation.result == "decoded" and _literal_option(call, operation.option(
            "total_decoded_size")))
    if decoded_length:
        result_types.append(builder.get_mlir_type(_offset_dtype(call)))
    tupled = bool(added) or operation.counted or (decoded_length and output is not None)
    site = Site(op=name, group=call.numba_type(call.args["group"]),
                operands=tuple((role, _site_type(v.type, item_storage if role in ITEM_ROLES
                                                 else None, element))
                               for role, v in call.operands),
                attributes=tuple(sorted(call.attributes.items(), key=lambda kv: kv[0])),
                element_type=str(element), block_dims=_block_dims(builder, call.where),
                storage=storage, filename=call.filename, line=call.line, col=call.col,
                result_types=tuple(str(t) for t in result_types),
                item_storage=str(item_storage) if item_storage else None)
    operands = [v for _, v in call.operands]
    made = _call_site(builder, site, operands, storage_key, results=result_types)
    results = list(made.results)
    target_type = builder.get_numba_type(target.name)
    if operation.result in _RADIX_RESULTS:
        # Scalar keys give scalar ranks, keys and values; a digit prefix stays
        # a payload (its slots are bins, not keys).
        wanted = list(target_type) if len(outputs) > 1 else [target_type]
        results = []
        for (role, payload), t in zip(outputs, wanted):
            if keys_scalar and role != "exclusive_digit_prefix":
                results.append(memref.load(payload, [arith.constant(ir.IndexType.get(), 0)]))
            else:
                mlir_type = builder.get_mlir_type(t)
                results.append(payload if mlir_type == payload.type
                               else memref.cast(mlir_type, payload))
        tupled = len(results) > 1
    elif output is not None and operation.result == "batches" and scalar:
        results.insert(0, memref.load(output, [arith.constant(ir.IndexType.get(), 0)]))
    elif output is not None:
        payload_type = target_type[0] if tupled else target_type
        mlir_type = builder.get_mlir_type(payload_type)
        results.insert(0, output if mlir_type == output.type else memref.cast(mlir_type, output))
    if operation.result == "payload":
        payload = call.args["payload"]
        results = [builder.load_var(payload)]
    if results:
        builder.store_var(target, tuple(results) if tupled else results[0])
    else:
        # A call that returns None still assigns its target (a helper may return it), as
        # Numba-CUDA-MLIR assigns a None constant: the MLIR none type.
        builder.store_var(target, ir.NoneType.get())


def _site_type(mlir_type, item_storage, element) -> str:
    """An operand's type as the site's op takes it: payloads of items kept as
    their storage words (`item_storage`) hold `element` items there."""
    if item_storage is None or not isinstance(mlir_type, ir.MemRefType):
        return str(mlir_type)
    memref_type = ir.MemRefType(mlir_type)
    return str(ir.MemRefType.get(memref_type.shape, element))


def _shuffle_rules(call, scalar):
    mode = call.attribute("mode")
    if (mode in SCALAR_SHUFFLE_MODES) != scalar:
        call.error(f"coop.shuffle mode {mode!r} takes "
                   + ("a scalar (one item per thread); payloads use 'up' or 'down'"
                      if not scalar else
                      "a payload (coop.ThreadData or a local array); scalars use 'offset' "
                      "or 'rotate'"))
    if not scalar:
        # up and down move items by one position: the distance is not an operand.
        if call.given("distance"):
            distance = call.numba_type(call.options["distance"])
            if not (isinstance(distance, types.IntegerLiteral) and distance.literal_value == 1):
                call.error(f"coop.shuffle mode {mode!r} moves items by exactly one position: "
                           "distance must be 1")
        call.skipped.add("distance")


def _select_rules(call, scalar):
    if call.given("flags") == call.given("predicate"):
        call.error("coop.select needs exactly one of flags (one per item) and predicate "
                   "(a function of an item); for a threshold known only at run time, "
                   "compute the flags")


# The counter dtypes a histogram takes (CUB's counters are any integer; these
# are the widths shared-memory atomics add).
_COUNTER_DTYPES = (types.int32, types.uint32, types.int64, types.uint64)


def _histogram_rules(call, scalar):
    if not call.given("bins"):
        call.error("coop.histogram needs bins=, the number of bins (a compile-time int)")
    bins = _integer_option(call, "bins")
    if bins < 1:
        call.error(f"coop.histogram's bins must be at least 1; got {bins}")
    samples = call.numba_type(call.args["value"])
    samples = getattr(samples, "dtype", samples)
    if isinstance(samples, types.Integer) and not samples.signed:
        call.attributes["unsigned"] = True
    if call.given("out"):
        for option in ("accumulate", "bins_per_thread"):
            if call.given(option):
                call.error(f"coop.histogram adds into out and returns nothing: {option} "
                           f"applies to fresh counters; remove {option} or out")
        out = call.numba_type(call.options["out"]).dtype
        if out not in _COUNTER_DTYPES:
            call.error(f"coop.histogram's out must hold counters of "
                       f"{', '.join(map(str, _COUNTER_DTYPES))}; got an array of {out}")
        if call.given("counter_dtype") and _counter_dtype(call) != out:
            call.error(f"coop.histogram's counter_dtype ({_counter_dtype(call)}) differs from "
                       f"out's dtype ({out}); out's dtype is the counters' (drop "
                       "counter_dtype)")
        return
    threads = math.prod(_block_dims(call.builder, call.where))
    slots = _counter_slots(call)
    if slots * threads < bins:
        call.error(f"coop.histogram's counters hold {slots} bins a thread ({slots * threads} "
                   f"in a block of {threads}); {bins} bins need bins_per_thread >= "
                   f"{-(-bins // threads)}")


def _counter_dtype(call):
    """The counters' dtype: accumulate's, else counter_dtype (int: int32), else int32."""
    if call.given("accumulate"):
        return call.numba_type(call.options["accumulate"]).dtype
    if not call.given("counter_dtype"):
        return types.int32
    given = call.numba_type(call.options["counter_dtype"])
    dtype = getattr(given, "instance_type", None)
    if getattr(given, "typing_key", None) is int:
        dtype = types.int32
    if dtype not in _COUNTER_DTYPES:
        call.error(f"coop.histogram's counter_dtype must be one of "
                   f"{', '.join('numpy.' + str(t) for t in _COUNTER_DTYPES)} (int: int32); "
                   f"got {given}")
    return dtype


def _counter_slots(call) -> int:
    """Counters a thread holds: accumulate's, else bins_per_thread, else ceil(bins / T)."""
    if call.given("accumulate"):
        accumulate = _payload_operand(call, call.options["accumulate"],
                                      "coop.histogram's accumulate")
        slots = ir.MemRefType(accumulate.type).shape[0]
        if call.given("bins_per_thread") and _integer_option(call, "bins_per_thread") != slots:
            call.error(f"coop.histogram's accumulate holds {slots} counters a thread; "
                       f"bins_per_thread={_integer_option(call, 'bins_per_thread')} differs "
                       "(drop bins_per_thread: accumulate decides it)")
        return slots
    if call.given("bins_per_thread"):
        slots = _integer_option(call, "bins_per_thread")
        if slots < 1:
            call.error(f"coop.histogram's bins_per_thread must be at least 1; got {slots}")
        return slots
    threads = math.prod(_block_dims(call.builder, call.where))
    return -(-_integer_option(call, "bins") // threads)


def _counters_payload(call):
    """Fresh counters for a histogram, in the entry block (promoted to registers)."""
    memref_type = ir.MemRefType.get([_counter_slots(call)],
                                    call.builder.get_mlir_type(_counter_dtype(call)))
    with call.builder.alloca_insertion_point():
        return memref.alloca(memref_type, [], [])


def _integer_option(call, name) -> int:
    value_type = call.numba_type(call.options[name])
    if not isinstance(value_type, types.IntegerLiteral):
        call.error(f"coop.{call.operation.name}'s {name} must be a compile-time int (a "
                   f"literal, or a global or closure variable); got a value of type "
                   f"{value_type} known only at run time")
    return value_type.literal_value


def _decode_rules(call, scalar):
    if not call.given("decoded_items_per_thread"):
        call.error(f"coop.{call.operation.name} needs decoded_items_per_thread=, the decoded "
                   "items each thread receives a window (a compile-time int)")
    items = _integer_option(call, "decoded_items_per_thread")
    if items < 1:
        call.error(f"coop.{call.operation.name}'s decoded_items_per_thread must be at least "
                   f"1; got {items}")
    _offset_dtype(call)


def _offset_dtype(call):
    """Decoded offsets' and totals' dtype: decoded_offset_dtype (uint32 or uint64), else
    uint32."""
    if not call.given("decoded_offset_dtype"):
        return types.uint32
    given = call.numba_type(call.options["decoded_offset_dtype"])
    dtype = getattr(given, "instance_type", None)
    if dtype not in (types.uint32, types.uint64):
        call.error(f"coop.{call.operation.name}'s decoded_offset_dtype must be numpy.uint32 or "
                   f"numpy.uint64 (for streams past 2**32 items); got {given}")
    return dtype


# Result kinds of the radix operations (_operations.py).
_RADIX_RESULTS = ("ranks", "sorted", "argsorted")
# CUB's 16-bit digit counters.
_MAX_RADIX_TILE = 65535


def _radix_key_dtype(call):
    """The keys' dtype: integers of 8 to 64 bits, bool, float16/32/64."""
    keys = call.numba_type(call.args["value"])
    dtype = getattr(keys, "dtype", keys)
    if isinstance(dtype, types.Boolean) or (
            isinstance(dtype, types.Integer) and dtype.bitwidth in (8, 16, 32, 64)) or \
            dtype in (types.float16, types.float32, types.float64):
        return dtype
    call.error(f"coop.{call.operation.name}'s keys must be integers, bools or float16/32/64 "
               f"(radix operations order their bits); got {dtype}. Sort other items by "
               "a key of those types with radix_sort_pairs")


def _radix_rules(call, scalar):
    name = call.operation.name
    dtype = _radix_key_dtype(call)
    if isinstance(dtype, types.Boolean) or isinstance(dtype, types.Integer) and not dtype.signed:
        call.attributes["unsigned"] = True
    key_bits = 8 if isinstance(dtype, types.Boolean) else dtype.bitwidth
    threads = math.prod(_block_dims(call.builder, call.where))
    items = 1 if scalar else ir.MemRefType(dict(call.operands)["value"].type).shape[0]
    tile = threads * items
    if tile > _MAX_RADIX_TILE:
        call.error(f"coop.{name} ranks a tile of {tile} keys ({threads} threads x "
                   f"{items}); CUB's 16-bit digit counters allow at most "
                   f"{_MAX_RADIX_TILE}: use fewer items per thread")
    if call.operation.result == "ranks":
        _rank_bits(call, key_bits)
        _digit_prefix_operand(call, threads)
        return
    if call.operation.name.startswith("topk_"):
        _topk_rules(call)
        return
    bounds = {}
    for option in ("begin_bit", "end_bit"):
        if call.given(option):
            given = call.numba_type(call.options[option])
            if isinstance(given, types.IntegerLiteral):
                bounds[option] = given.literal_value
    begin, end = bounds.get("begin_bit", 0), bounds.get("end_bit", key_bits)
    if not 0 <= begin < end <= key_bits:
        call.error(f"coop.{name} sorts by bits [begin_bit, end_bit) = [{begin}, {end}) of "
                   f"{key_bits}-bit keys ({dtype}); the range must be non-empty and inside "
                   f"[0, {key_bits}]")


def _topk_rules(call):
    """k: a runtime integer the caller reads the first min(k, valid_items) positions by
    (the sort orders the whole tile); sorted: a compile-time bool (the sort is stable, so
    its order and tie policy hold either way)."""
    name = call.operation.name
    if not call.given("k"):
        call.error(f"coop.{name} needs k=, how many keys to select (an int, the same in "
                   "every thread)")
    k = call.numba_type(call.options["k"])
    if not isinstance(k, types.Integer):
        call.error(f"coop.{name}'s k must be an integer; got {k}")
    if isinstance(k, types.IntegerLiteral) and k.literal_value < 0:
        call.error(f"coop.{name}'s k must be at least 0; got {k.literal_value}")
    _literal_option(call, call.operation.option("sorted"))
    call.skipped.add("k")


def _rank_bits(call, key_bits):
    """radix_rank_keys' digit: begin_bit and radix_bits attributes from
    begin_bit, end_bit and radix_bits (all compile-time)."""
    given = {name: _integer_option(call, name) if call.given(name) else None
             for name in ("begin_bit", "end_bit", "radix_bits")}
    try:
        begin, bits, algorithm = rank_digit(
            call.operation.name, given["begin_bit"], given["end_bit"], given["radix_bits"],
            key_bits, math.prod(_block_dims(call.builder, call.where)),
            call.attribute("algorithm"))
    except ValueError as error:
        message = str(error)
    else:
        call.attributes.update(begin_bit=begin, radix_bits=bits, algorithm=algorithm)
        return
    call.error(message)


def _digit_prefix_operand(call, threads):
    """exclusive_digit_prefix given as a payload to fill: its operand."""
    if not call.given("exclusive_digit_prefix"):
        return
    var = call.options["exclusive_digit_prefix"]
    given = call.numba_type(var)
    if isinstance(given, types.BooleanLiteral):
        return
    what = f"coop.{call.operation.name}'s exclusive_digit_prefix"
    if not isinstance(given, types.Array):
        call.error(f"{what} must be a compile-time bool (return the prefix) or a payload of "
                   f"int32 to fill; got {given}")
    if given.dtype != types.int32:
        call.error(f"{what} must hold int32 counts; got a payload of {given.dtype}")
    payload = _payload_operand(call, var, what)
    slots = prefix_slots(call.attributes["radix_bits"], threads)
    if ir.MemRefType(payload.type).shape[0] < slots:
        call.error(f"{what} holds {ir.MemRefType(payload.type).shape[0]} slots a thread; "
                   f"{1 << call.attributes['radix_bits']} bins over {threads} threads need "
                   f"{slots}")
    call.operands.append(("exclusive_digit_prefix", payload))


def _radix_outputs(call, keys):
    """The payloads a radix operation fills and returns, by role."""
    builder = call.builder
    items = ir.MemRefType(keys.type).shape[0]
    int32 = ir.IntegerType.get_signless(32)
    result = call.operation.result
    if result == "ranks":
        outputs = [("ranks", _fresh_payload(builder, keys, items, int32))]
        prefix = call.options.get("exclusive_digit_prefix")
        if prefix is not None and isinstance(call.numba_type(prefix), types.BooleanLiteral) \
                and call.numba_type(prefix).literal_value:
            threads = math.prod(_block_dims(builder, call.where))
            outputs.append(("exclusive_digit_prefix",
                            _fresh_payload(builder, keys,
                                           prefix_slots(call.attributes["radix_bits"], threads),
                                           int32)))
        return outputs
    outputs = [("output", _fresh_payload(builder, keys))]
    if result == "argsorted":
        outputs.append(("values_output", _fresh_payload(builder, keys, items, int32)))
    elif "values" in call.operation.positional:
        outputs.append(("values_output", _fresh_payload(builder, dict(call.operands)["values"])))
    return outputs


def _merge_rules(call, scalar):
    name = call.operation.name
    if call.given("valid_items") != call.given("oob_default"):
        call.error(f"coop.{name}'s valid_items needs oob_default, a key that orders last: the "
                   "keys past valid_items become it and sort behind the valid ones (CUB's "
                   "partial-tile sort)" if call.given("valid_items") else
                   f"coop.{name}'s oob_default applies with valid_items; pass both or neither")
    keys = call.numba_type(call.args["value"])
    dtype = getattr(keys, "dtype", keys)
    if isinstance(dtype, types.Integer) and not dtype.signed and not call.given("compare_op"):
        call.attributes["unsigned"] = True


# Rules of one operation that the table's option kinds do not express.
_RULES = {"shuffle": _shuffle_rules, "select": _select_rules,
          "histogram": _histogram_rules, "run_length_decode": _decode_rules,
          "run_length_decode_into": _decode_rules, "radix_rank_keys": _radix_rules,
          "radix_sort_keys": _radix_rules, "radix_sort_pairs": _radix_rules,
          "argsort": _radix_rules, "topk_max_keys": _radix_rules,
          "topk_min_keys": _radix_rules, "topk_max_pairs": _radix_rules,
          "topk_min_pairs": _radix_rules, "merge_sort_keys": _merge_rules,
          "merge_sort_pairs": _merge_rules}


def _read_only_argument(call, var) -> bool:
    """Whether `var` is a read-only array argument of the kernel itself, or a slice of one:
    global memory the kernel cannot write, which coop.load may read through the non-coherent
    cache. A device function's argument (it may be shared memory) and a captured global array
    (Numba's constant memory, read-only too) are not."""
    if call.numba_type(var).mutable or \
            call.builder.metadata.get("targetoptions", {}).get("device", True):
        return False
    func_ir = call.builder.func_ir
    seen = set()
    while var.name not in seen:
        seen.add(var.name)
        var = _root(func_ir, var)
        found = definitions(func_ir, var.name)
        if len(found) != 1:
            return False
        definition = found[0]
        if isinstance(definition, nir.Arg):
            return True
        if not (isinstance(definition, nir.Expr)
                and definition.op in ("getitem", "static_getitem")
                and isinstance(call.numba_type(definition.value), types.Array)):
            return False
        var = definition.value
    return False


def _is_shared_array(call, var, depth=0) -> bool:
    """Whether `var` is a shared array made in the kernel (a `cuda.shared.array` or a
    TempStorage's `reserve`, through copies, inlined helpers and slices): Numba passes
    it in the generic address space, which the op would take for global memory."""
    func_ir = call.builder.func_ir
    try:
        definition = func_ir.get_definition(_root(func_ir, var))
    except Exception:
        return False
    if not isinstance(definition, nir.Expr) or depth > 16:
        return False
    if definition.op in ("getitem", "static_getitem"):
        return _is_shared_array(call, definition.value, depth + 1)
    if definition.op != "call":
        return False
    if _resolve(func_ir, definition.func) is cuda.shared.array:
        return True
    try:
        method = func_ir.get_definition(definition.func)
    except Exception:
        return False
    return isinstance(method, nir.Expr) and method.op == "getattr" and \
        method.attr == "reserve" and \
        isinstance(call.numba_type(method.value), TempStorageType)


def _in_shared_space(array):
    """`array` (a generic memref of a shared array) in the workgroup address space."""
    memref_type = ir.MemRefType(array.type)
    shared = ir.MemRefType.get(memref_type.shape, memref_type.element_type,
                               memref_type.layout,
                               ir.Attribute.parse("#gpu.address_space<workgroup>"))
    return memref.memory_space_cast(shared, array)


def _memory_operand(call, role, var):
    memory_type = call.numba_type(var)
    name = call.operation.name
    if memory_type.ndim != 1:
        call.error(f"coop.{name}'s {role} must be a one-dimensional array; got a "
                   f"{memory_type.ndim}-D array (pass a contiguous row such as x[r], or "
                   f"the array reshaped to 1-D on the host)")
    if memory_type.layout != "C":
        call.error(f"coop.{name}'s {role} must be contiguous; got an array with layout "
                   f"{memory_type.layout!r}")
    if role == "destination" and not memory_type.mutable:
        call.error(f"coop.{name}'s destination is a read-only array; store into a writable "
                   "device array")
    return _unit_stride(call.builder.load_var(var))


def _value_operand(call, var, element, dtype):
    """The value an operation reads: a payload, or (where allowed) a scalar,
    which takes the dtype of the operation's array when it is a literal."""
    value_type = call.numba_type(var)
    if isinstance(value_type, types.Array):
        return _payload_operand(call, var, f"coop.{call.operation.name}'s value")
    if element is not None:
        return _item_operand(call, "value", var, element, dtype)
    return call.builder.load_var(var)


def _call_site(builder, site: Site, operands, storage_key, results=()):
    """Links the site's function (or, for a scratch-using site, a declaration
    the kernel plan replaces) and calls it."""
    data = site.data()
    name = data[0]
    facts = describe_site(data)
    if facts["uses_scratch"]:
        # Checked now, at the call's line; lowered once the kernel plan has
        # placed its scratch.
        lower_site(data, "check")
        name, text = site.declaration(name)
        link_into(builder.mlir_module, text)
    else:
        link_into(builder.mlir_module, lower_site(data, "lower", sm=target_sm(builder.metadata)))
    call = func.call(list(results), name, operands)
    if isinstance(call, ir.Value):  # a call with one result returns the result
        call = call.owner
    elif not isinstance(call, ir.OpView):  # several results: the list of them
        call = call[0].owner
    _kernel_plan.mark_site(call, site, facts, storage_key, builder.metadata)
    return call


def _literal_option(call, option):
    """A compile-time option: a literal of the allowed values, or the default."""
    if not call.given(option.name):
        return option.default
    allowed = option.choices if option.kind == "choice" else (False, True)
    value_type = call.numba_type(call.options[option.name])
    value = value_type.literal_value if isinstance(value_type, types.Literal) else None
    if option.kind == "choice" and isinstance(value, str):
        value = _spellings.choice(value)
    if not isinstance(value_type, types.Literal):
        call.error(f"{option.name} must be a compile-time constant, one of "
                   f"{', '.join(map(repr, allowed))} (a literal, or a global or closure "
                   f"variable); got a value of type {value_type} known only at run time")
    if value not in allowed:
        call.error(f"{option.name} must be one of {', '.join(map(repr, allowed))}; "
                   f"got {value_type.literal_value!r}")
    return value


def _operator_option(call, option, item):
    """The operator of a reduction or scan: a named one (a string literal),
    or a function of two items, linked into the kernel's module."""
    if not call.given(option.name):
        return option.default
    value_type = call.numba_type(call.options[option.name])
    if isinstance(value_type, types.StringLiteral) and \
            _spellings.operator_name(value_type.literal_value) in option.choices:
        return _spellings.operator_name(value_type.literal_value)
    if is_operator_function(value_type):
        return link_operator(call.builder, value_type, item)
    shown = value_type.literal_value if isinstance(value_type, types.Literal) else value_type
    call.error(f"{option.name} must be one of {', '.join(map(repr, option.choices))}; "
               f"got {shown!r}")


def _prefix_option(call, option, item):
    """A StatefulFunction seeding a block scan: its function, linked into the
    kernel's module."""
    group = call.numba_type(call.args["group"])
    if group.kind != "block":
        call.error(f"{option.name} is a block option: a {group.kind} group scans by "
                   "shuffles; pass block_aggregate=True and carry the running total "
                   "yourself")
    if call.given("initial_value"):
        call.error(f"{option.name} and initial_value both seed the scan; pass one (the "
                   "StatefulFunction's state can start at the initial value)")
    return link_prefix(call.builder, call.numba_type(call.options[option.name]), item)


def _index_operand(call, option, var):
    """A runtime integer option, as the i64 the site function takes."""
    value_type = call.numba_type(var)
    if isinstance(value_type, types.Boolean) or not isinstance(value_type, types.Integer):
        call.error(f"{option.name} must be an integer; got {value_type}")
    if not option.signed and isinstance(value_type, types.IntegerLiteral) \
            and value_type.literal_value < 0:
        call.error(f"{option.name} must not be negative; got {value_type.literal_value}")
    # Numba's own cast: a signed integer is sign-extended (a negative
    # shuffle distance stays negative), an unsigned one zero-extended.
    source = getattr(value_type, "literal_type", value_type)
    return call.builder.lower_cast(source, types.int64, call.builder.load_var(var))


def _item_operand(call, name, var, element, expected):
    """A runtime value of the payload's item type (`element` in MLIR,
    `expected` in Numba). A literal takes that type when it is exactly
    representable in it; a typed value of another type is an error, never a
    silent conversion."""
    value_type = call.numba_type(var)
    literal = _constant(call, var)
    if literal is not None:
        if not isinstance(literal, (bool, int, float)) or not _representable(literal, expected):
            call.error(f"{name} = {literal!r} is not exactly representable in the payload's "
                       f"item type {expected}; pass a value of type {expected}")
    elif value_type != expected:
        call.error(f"{name} has type {value_type} but the payload's items are {expected}; "
                   f"cast it, e.g. numpy.{expected}(...)")
    item = call.builder.get_mlir_type(expected)
    value = call.builder.mlir_convert(call.builder.load_var(var), item)
    # float16 items are kept as i16 words in arrays and payloads.
    return value if item == element else arith.bitcast(element, value)


def _constant(call, var):
    """A constant argument's value (Numba types float constants as float64,
    not as literals), or None."""
    value_type = call.numba_type(var)
    if isinstance(value_type, types.Literal):
        return value_type.literal_value
    try:
        definition = call.builder.func_ir.get_definition(_root(call.builder.func_ir, var))
    except Exception:
        return None
    return definition.value if isinstance(definition, nir.Const) else None


def _representable(literal, expected) -> bool:
    import numpy

    dtype = numpy.dtype(str(expected))
    if dtype.kind in "iu":
        if isinstance(literal, float) and not literal.is_integer():
            return False
        info = numpy.iinfo(dtype)
        return info.min <= literal <= info.max
    return float(dtype.type(literal)) == literal


def _identity_transpose(call, scalar: bool) -> bool:
    """Whether a load or store of one item a thread asks for a transpose-family algorithm
    on compiler-planned scratch: with one item a thread, blocked, striped and warp-striped
    order are the same, so the exchange through scratch (and its barriers) is the identity
    and direct accesses read and write the same elements. CUB exchanges anyway; a given
    temp_storage keeps the exchange, as written."""
    if call.operation.name not in ("load", "store") or call.given("temp_storage") or \
            call.attributes.get("algorithm") not in SCRATCH_ALGORITHMS:
        return False
    payload = dict(call.operands).get("payload" if call.operation.name == "load" else "value")
    return scalar or ir.MemRefType(payload.type).shape[0] == 1


def _storage(call):
    """The temp_storage option: (its dialect attributes, its descriptor's
    variable name), or (None, None) when the compiler plans the scratch."""
    if not call.given("temp_storage"):
        return None, None
    var = call.options["temp_storage"]
    storage_type = call.numba_type(var)
    if not isinstance(storage_type, TempStorageType):
        call.error(f"temp_storage must be a coop.TempStorage(...) made in the kernel; got "
                   f"{storage_type}")
    return storage_type.attributes, _root(call.builder.func_ir, var).name


def _fresh_payload(builder, like, items=None, element=None):
    """A new payload of `like`'s static type (of `items` items of `element`
    when given), allocated in the entry block so it is promoted to
    registers."""
    memref_type = ir.MemRefType(like.type)
    if items is not None:
        memref_type = ir.MemRefType.get([items], element or memref_type.element_type)
    with builder.alloca_insertion_point():
        return memref.alloca(memref_type, [], [])


def _payload_holding(builder, scalar):
    """A one-item payload holding `scalar`."""
    with builder.alloca_insertion_point():
        payload = memref.alloca(ir.MemRefType.get([1], scalar.type), [], [])
    memref.store(scalar, payload, [arith.constant(ir.IndexType.get(), 0)])
    return payload


def _payload_operand(call, var, what, items=None):
    payload = _static_payload(call.builder.load_var(var))
    payload_type = ir.MemRefType(payload.type)
    if not payload_type.has_static_shape:
        call.error(f"{what} must be a coop.ThreadData or a local array of compile-time size")
    if payload_type.memory_space is not None:
        # A cuda.shared.array: one array for the whole block, not per thread.
        call.error(f"{what} is a shared array, which the whole block shares; payloads are "
                   "per thread: use coop.ThreadData(items_per_thread) or cuda.local.array")
    if items is not None and payload_type.shape[0] != items:
        call.error(f"{what} must have one item per value item ({items}); got "
                   f"{payload_type.shape[0]}")
    return payload


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


for _marker, _operation in OPERATIONS.items():
    lowering_registry.lower(_marker, types.VarArg(types.Any))(_lowering(_operation))


def _reserve(builder, target, args, kwargs):
    """`storage.reserve(count, dtype, alignment=None)`: a coop.reserve site,
    placed by the kernel plan in the storage's region before the slices of
    the operations that use it; its value is the shared array."""
    storage_var, *rest = args
    given = dict(zip(("count", "dtype", "alignment"), rest), **dict(kwargs))
    filename, line, col = _location(target)
    array = builder.get_numba_type(target.name)
    count = builder.get_numba_type(given["count"].name).literal_value
    alignment = given.get("alignment")
    alignment_type = builder.get_numba_type(alignment.name) if alignment is not None else None
    item = builder.get_storage_type(array.dtype)
    result = ir.MemRefType.get([count], item,
                               memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
    storage_type = builder.get_numba_type(storage_var.name)
    attributes = [("count", count)]
    if isinstance(alignment_type, types.IntegerLiteral):
        attributes.append(("alignment", alignment_type.literal_value))
    site = Site(op="reserve", group=GroupType("block"), operands=(),
                attributes=tuple(sorted(attributes)), element_type=str(item),
                block_dims=_block_dims(builder, f"{filename}:{line}"),
                storage=storage_type.attributes, filename=filename, line=line, col=col,
                result_types=(str(result),))
    storage_key = _storage_key(builder.func_ir, target)
    made = _call_site(builder, site, [], storage_key, results=[result])
    builder.store_var(target, made.results[0])


def _storage_key(func_ir, target) -> str:
    """The variable of the TempStorage whose `reserve` assigns `target`: the
    key its uses share (the method's bound `self` is a variable of its own)."""
    for block in func_ir.blocks.values():
        for stmt in block.body:
            if isinstance(stmt, nir.Assign) and stmt.target.name == target.name and \
                    isinstance(stmt.value, nir.Expr) and stmt.value.op == "call":
                found = definitions(func_ir, _root(func_ir, stmt.value.func).name)
                if len(found) == 1 and isinstance(found[0], nir.Expr) and \
                        found[0].op == "getattr":
                    return _root(func_ir, found[0].value).name
    raise CoopCompileError(f"{target.loc}: internal error: no TempStorage.reserve call "
                           f"assigns {target.name}")


lowering_registry.lower("coop_temp_storage.reserve", TempStorageType,
                        types.VarArg(types.Any))(_reserve)
