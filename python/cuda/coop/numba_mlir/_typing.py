"""Typing of cuda.coop calls in Numba-CUDA-MLIR kernels.

Typing accepts the shapes of the calls; the rules of each operation are
checked when it is lowered (by the coop dialect's verifiers), so every
misuse gets the dialect's message naming the rule.
"""

from numba_cuda_mlir import types
from numba_cuda_mlir.errors import TypingError
from numba_cuda_mlir.extending import typeof_impl, typing_registry
from numba_cuda_mlir.numba_cuda.types import literal
from numba_cuda_mlir.numba_cuda.typing.templates import (
    AbstractTemplate,
    AttributeTemplate,
    bound_function,
    signature,
)

from .. import _groups, _markers
from .._operations import OPERATIONS
from ._operators import check_operator, check_predicate, check_prefix, is_operator_function
from ._temp_storage import ATTRIBUTES as _STORAGE_ATTRIBUTES
from ._temp_storage import TempStorage as QualifiedTempStorage
from ._temp_storage import temp_storage_facts
from ._types import GroupType, StatefulFunctionType, TempStorageType


@typeof_impl.register(_groups.ThreadGroup)
def _typeof_group(group, context):
    """A group made outside the kernel (at module level, in a closure): the
    same type as the one its factory calls make in the kernel."""
    mapping = group.mapping
    if mapping is None:
        return GroupType(group.kind)
    return GroupType(group.kind, mapping.count, mapping.exhaustive)


def _register_global(fn, template):
    typing_registry.register(template)
    typing_registry.register_global(fn, types.Function(template))


def _factory(kind, fn):
    class Template(AbstractTemplate):
        key = fn

        def generic(self, args, kws):
            if args or kws:
                raise TypingError(f"coop.{fn.__name__}() takes no arguments; the block's size "
                                  "comes from the launch (partition with .group_by(n))")
            return signature(GroupType(kind))

    _register_global(fn, Template)


for _kind, _fn in (("thread", _groups.this_thread), ("warp", _groups.this_warp),
                   ("block", _groups.this_block), ("cluster", _groups.this_cluster),
                   ("grid", _groups.this_grid)):
    _factory(_kind, _fn)


def _literal(value, what):
    """The compile-time value of an optional literal argument."""
    if value is None or isinstance(value, types.NoneType) or isinstance(value, types.Omitted):
        return getattr(value, "value", None)
    if isinstance(value, types.Literal):
        return value.literal_value
    raise TypingError(f"{what} must be a compile-time constant; got a value of type {value}")


@typing_registry.register_attr
class GroupAttributes(AttributeTemplate):
    key = GroupType

    @bound_function("coop_group.group_by")
    def resolve_group_by(self, group, args, kws):
        count = _literal(args[0] if args else kws.get("count"), "group_by's count")
        exhaustive = _literal(kws.get("exhaustive"), "group_by's exhaustive")
        exhaustive = True if exhaustive is None else exhaustive
        try:
            result = _groups.ThreadGroup(group.kind, mapping=None).group_by(
                count, exhaustive=exhaustive) if group.kind in ("warp", "block") else None
        except (TypeError, ValueError) as error:
            raise TypingError(str(error)) from None
        if result is None:
            raise TypingError(f"group_by partitions a warp (by threads) or a block (by "
                              f"warps); a {group.kind!r} group cannot be partitioned")
        return signature(GroupType(result.kind, count, exhaustive), *args, *kws.values())


class TempStorageTemplate(AbstractTemplate):
    """`TempStorage(...)` in a kernel, from either namespace: a descriptor
    whose facts are the call's literals, checked by the rules of
    `cuda.coop.numba_mlir.TempStorage` itself."""

    key = _markers.TempStorage

    def generic(self, args, kws):
        if len(args) > 1:
            raise TypingError("TempStorage takes size_in_bytes positionally and the rest "
                              "(alignment, auto_sync, sharing) as keywords")
        unknown = sorted(set(kws) - set(_STORAGE_ATTRIBUTES))
        if unknown:
            raise TypingError(f"TempStorage got unexpected keyword arguments "
                              f"{', '.join(unknown)}; it accepts "
                              f"{', '.join(_STORAGE_ATTRIBUTES)}")
        given = dict(zip(_STORAGE_ATTRIBUTES, args), **kws)
        values = {name: _literal(given.get(name), f"TempStorage's {name}")
                  for name in _STORAGE_ATTRIBUTES}
        if "auto_sync" not in given:
            values["auto_sync"] = False
        if "sharing" not in given:
            values["sharing"] = "shared"
        try:
            facts = temp_storage_facts(**values)
        except (TypeError, ValueError) as error:
            raise TypingError(str(error)) from None
        return signature(TempStorageType(*facts), *args, *kws.values())


class QualifiedTempStorageTemplate(TempStorageTemplate):
    """The class `cuda.coop.numba_mlir.TempStorage` called in a kernel."""

    key = QualifiedTempStorage


@typing_registry.register_attr
class TempStorageAttributes(AttributeTemplate):
    """`scratch.size_in_bytes`, `.alignment`, `.auto_sync`, `.sharing` in a
    kernel: the descriptor's compile-time facts, as literals (None when the
    compiler chooses)."""

    key = TempStorageType

    @bound_function("coop_temp_storage.reserve")
    def resolve_reserve(self, storage, args, kws):
        """`storage.reserve(count, dtype, alignment=None)`: a shared array of
        the kernel's own in the storage's region (its type: a 1-D array)."""
        unknown = sorted(set(kws) - {"count", "dtype", "alignment"})
        if unknown or not 2 <= len(args) + len(kws) <= 3:
            raise TypingError("TempStorage.reserve takes count, dtype and optionally "
                              "alignment: storage.reserve(256, numpy.int32, alignment=16)")
        given = dict(zip(("count", "dtype", "alignment"), args), **kws)
        count = _literal(given["count"], "TempStorage.reserve's count")
        if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
            raise TypingError(f"TempStorage.reserve's count must be a positive compile-time "
                              f"int; got {count!r}")
        dtype = getattr(given["dtype"], "dtype", None)
        if not isinstance(dtype, (types.Integer, types.Float)) or \
                isinstance(dtype, types.Boolean):
            raise TypingError(f"TempStorage.reserve's dtype must be a numeric type such as "
                              f"numpy.int32; got {given['dtype']}")
        alignment = _literal(given.get("alignment"), "TempStorage.reserve's alignment")
        item = max(1, dtype.bitwidth // 8)
        if alignment is not None and (isinstance(alignment, bool) or
                                      not isinstance(alignment, int) or alignment < item or
                                      alignment & (alignment - 1)):
            raise TypingError(f"TempStorage.reserve's alignment must be a power of two of at "
                              f"least the item's {item} bytes; got {alignment!r}")
        return signature(types.Array(dtype, 1, "C"), *args, *kws.values())

    def generic_resolve(self, storage, attr):
        if attr in _STORAGE_ATTRIBUTES:
            value = getattr(storage, attr)
            return types.none if value is None else literal(value)
        return None


_register_global(_markers.TempStorage, TempStorageTemplate)
_register_global(QualifiedTempStorage, QualifiedTempStorageTemplate)


_ROLE_TEXT = {"group": "the group", "source": "the array", "destination": "the array",
              "payload": "the payload", "value": "the value", "lengths": "the run lengths",
              "values": "the values"}


def _operation_template(operation):
    """The typing of one operation of the table: the shapes of its
    arguments and its result."""
    name = operation.name
    roles = [_ROLE_TEXT[role] for role in operation.positional]
    takes = ", ".join(roles[:-1]) + " and " + roles[-1]
    scalar_text = " (or a scalar)" if operation.scalar_value else ""

    class Template(AbstractTemplate):
        key = operation.marker

        def generic(self, args, kws):
            try:
                kws = operation.canonical_keywords(kws)
            except ValueError as error:
                raise TypingError(str(error)) from None
            count = len(operation.positional)
            extra = operation.positional_options
            if not count <= len(args) <= count + len(extra):
                also = f" (and optionally {', '.join(extra)})" if extra else ""
                raise TypingError(f"coop.{name} takes {takes}{also} positionally; got "
                                  f"{len(args)} positional arguments")
            doubled = sorted(set(extra[:len(args) - count]) & set(kws))
            if doubled:
                raise TypingError(f"coop.{name} got {', '.join(doubled)} both positionally "
                                  "and as a keyword")
            unknown = sorted(set(kws) - set(operation.option_names))
            if unknown:
                raise TypingError(f"coop.{name} got unexpected keyword arguments "
                                  f"{', '.join(unknown)}; it accepts "
                                  f"{', '.join(operation.option_names)}")
            given = dict(zip(operation.positional, args))
            if not isinstance(given["group"], GroupType):
                raise TypingError(f"coop.{name}'s first argument must be a thread group such "
                                  f"as coop.this_block(); got {given['group']}")
            for role, arg in given.items():
                if role in ("source", "destination") and not isinstance(arg, types.Array):
                    raise TypingError(f"coop.{name}'s {role} must be a device array; got {arg}")
                payload = isinstance(arg, types.Array) and arg.ndim == 1
                scalar = isinstance(arg, (types.Integer, types.Float)) \
                    and not isinstance(arg, types.Boolean)
                if role == "payload" and not payload or role == "value" and not (
                        payload or operation.scalar_value and scalar):
                    raise TypingError(f"coop.{name}'s {role} must be a coop.ThreadData or a "
                                      f"local array{scalar_text if role == 'value' else ''}; "
                                      f"got {arg}")
            lengths = given.get("lengths")
            one_run = not isinstance(given.get("value"), types.Array)
            if lengths is not None and not (
                    isinstance(lengths, types.Integer) if one_run else
                    isinstance(lengths, types.Array) and lengths.ndim == 1 and
                    isinstance(lengths.dtype, types.Integer)):
                raise TypingError(f"coop.{name}'s run lengths must be a coop.ThreadData or a "
                                  f"local array of integers, one per run (one integer for a "
                                  f"scalar run value); got {lengths}")
            value = given.get("value")
            item = value.dtype if isinstance(value, types.Array) else value
            values = given.get("values")
            if values is not None and not (
                    isinstance(values, types.Array) and values.ndim == 1
                    if isinstance(value, types.Array) else isinstance(values, types.Number)):
                raise TypingError(f"coop.{name}'s values must be a coop.ThreadData or a local "
                                  f"array, one value per key (one number for a scalar key); "
                                  f"got {values}")
            operands = dict(zip(extra, args[count:]), **kws)
            for option in operation.options:
                if option.kind == "operator" and option.name in operands:
                    _check_operator(operands[option.name], item, option,
                                    f"coop.{name}'s {option.name}")
                elif option.kind == "prefix" and option.name in operands:
                    _check_prefix(operands[option.name], item, f"coop.{name}'s {option.name}")
                elif option.kind in ("predicate", "comparator") and \
                        _given(operands.get(option.name)):
                    arity = 2 if option.kind == "comparator" else 1
                    if not is_operator_function(operands[option.name]):
                        takes = "one item" if arity == 1 else "two items"
                        raise TypingError(f"coop.{name}'s {option.name} must be a function "
                                          f"of {takes} returning a bool; got "
                                          f"{operands[option.name]}")
                    check_predicate(operands[option.name], item,
                                    f"coop.{name}'s {option.name}", arity)
                elif option.kind == "flags" and _given(operands.get(option.name)):
                    _check_flags(operands[option.name], value, f"coop.{name}'s {option.name}")
            result = types.none
            if operation.result in ("fresh", "batches"):
                result = value.copy(layout="C", readonly=False) \
                    if isinstance(value, types.Array) else value
            elif operation.result == "item":
                result = value.dtype if isinstance(value, types.Array) else value
            elif operation.result == "payload":
                result = given["payload"]
            elif operation.result == "counters":
                result = _counters_type(operands, item, name)
            elif operation.result in ("decoded", "decoded_length"):
                offset = operands.get("decoded_offset_dtype")
                offset = getattr(offset, "instance_type", types.uint32) if _given(offset) \
                    else types.uint32
                if not isinstance(offset, types.Integer):
                    offset = types.uint32
                result = offset
                if operation.result == "decoded":
                    result = value.copy(layout="C", readonly=False) \
                        if isinstance(value, types.Array) else types.Array(value, 1, "C")
                    if _literal(kws.get("total_decoded_size"),
                                f"coop.{name}'s total_decoded_size"):
                        result = types.Tuple((result, offset))
            elif operation.result in ("ranks", "sorted", "argsorted"):
                result = _radix_result_type(operation, value, values, operands)
            if any(_literal(kws.get(flag), f"coop.{name}'s {flag}")
                   for flag in operation.result_flags):
                result = types.Tuple((result, item))
            if operation.counted:
                result = types.Tuple((result, types.int32))
            return signature(result, *args, *kws.values())

    return Template


def _radix_result_type(operation, keys, values, operands):
    """A radix operation's result: ranks (and a digit prefix asked for by
    exclusive_digit_prefix=True), sorted keys (and their values or input
    positions); scalars for a scalar key."""
    payload = isinstance(keys, types.Array)

    def like(t):
        return t.copy(layout="C", readonly=False) if payload else t

    def int32s():
        return types.Array(types.int32, 1, "C") if payload else types.int32

    if operation.result == "ranks":
        prefix = operands.get("exclusive_digit_prefix")
        if not isinstance(prefix, types.Array) and _literal(
                prefix, f"coop.{operation.name}'s exclusive_digit_prefix"):
            return types.Tuple((int32s(), types.Array(types.int32, 1, "C")))
        return int32s()
    if operation.result == "argsorted":
        return types.Tuple((like(keys), int32s()))
    if values is not None:
        return types.Tuple((like(keys), like(values)))
    return like(keys)


def _counters_type(operands, samples, name):
    """A histogram's result: None with `out`; else counters of accumulate's dtype, else of
    counter_dtype (the lowering checks it), else int32."""
    if not isinstance(samples, types.Integer):
        raise TypingError(f"coop.{name}'s samples must be integers (bin numbers); got "
                          f"{samples} (compute each sample's bin first)")
    out = operands.get("out")
    if _given(out):
        if not (isinstance(out, types.Array) and out.ndim == 1):
            raise TypingError(f"coop.{name}'s out must be a one-dimensional device or shared "
                              f"array of counters; got {out}")
        return types.none
    accumulate = operands.get("accumulate")
    if _given(accumulate):
        if not (isinstance(accumulate, types.Array) and accumulate.ndim == 1 and
                isinstance(accumulate.dtype, types.Integer)):
            raise TypingError(f"coop.{name}'s accumulate must be counters from an earlier "
                              f"call (a payload of integers); got {accumulate}")
        return accumulate.copy(layout="C", readonly=False)
    dtype = operands.get("counter_dtype")
    counter = getattr(dtype, "instance_type", types.int32) if _given(dtype) else types.int32
    if not isinstance(counter, types.Integer):
        counter = types.int32
    return types.Array(counter, 1, "C")


def _given(value_type) -> bool:
    return value_type is not None and not isinstance(value_type, (types.NoneType, types.Omitted))


def _check_flags(flags, value, what):
    """Flags of a payload: a payload of integers or bools; of a scalar: one
    integer or bool."""
    if isinstance(value, types.Array):
        if not (isinstance(flags, types.Array) and flags.ndim == 1
                and isinstance(flags.dtype, (types.Integer, types.Boolean))):
            raise TypingError(f"{what} must be a payload of integers or bools with one entry "
                              f"per item (coop.ThreadData(n, dtype=numpy.int8) or a local "
                              f"array of bools); got {flags}")
    elif not isinstance(flags, (types.Integer, types.Boolean)):
        raise TypingError(f"{what} of a scalar value must be one integer or bool; got {flags}")


def _check_operator(value_type, item, option, what):
    """A named operator (checked when lowered) or a function of two items."""
    if isinstance(value_type, types.StringLiteral):
        return
    if is_operator_function(value_type):
        check_operator(value_type, item, what)
        return
    raise TypingError(f"{what} must be one of {', '.join(map(repr, option.choices))} or a "
                      f"function of two items; got {value_type}")


def _check_prefix(value_type, item, what):
    """None, a StatefulFunction whose function makes a prefix of an item, or
    a function of the tile's aggregate."""
    if isinstance(value_type, (types.NoneType, types.Omitted)):
        return
    if not (isinstance(value_type, StatefulFunctionType) or is_operator_function(value_type)):
        raise TypingError(f"{what} must be a coop.StatefulFunction(function, state) made in "
                          f"the kernel, or a function of the tile's aggregate; got "
                          f"{value_type}")
    check_prefix(value_type, item, what)


class StatefulFunctionTemplate(AbstractTemplate):
    """`StatefulFunction(function, state)` in a kernel: the function (a
    Python function the planner made a device function) and its state, a
    one-dimensional array."""

    key = _markers.StatefulFunction

    def generic(self, args, kws):
        unknown = sorted(set(kws) - {"function", "state"})
        if unknown or len(args) + len(kws) != 2:
            raise TypingError("StatefulFunction takes a function and its state: "
                              "coop.StatefulFunction(function, state)")
        given = dict(zip(("function", "state"), args), **kws)
        function, state = given["function"], given["state"]
        if not is_operator_function(function):
            raise TypingError(f"StatefulFunction's function must be a Python function "
                              f"function(state, tile_aggregate); got {function}")
        if not (isinstance(state, types.Array) and state.ndim == 1):
            raise TypingError(f"StatefulFunction's state must be a one-dimensional array, "
                              f"e.g. cuda.local.array(1, numpy.int32); got {state}")
        return signature(StatefulFunctionType(function, state), *args, *kws.values())


_register_global(_markers.StatefulFunction, StatefulFunctionTemplate)


for _operation in OPERATIONS.values():
    _register_global(_operation.marker, _operation_template(_operation))


class ThreadDataTemplate(AbstractTemplate):
    """The planner rewrites every `items = ThreadData(...)` into a local array
    before typing; a call it could not see gets this explanation."""

    key = _markers.ThreadData

    def generic(self, args, kws):
        raise TypingError("ThreadData must be assigned to a variable inside the kernel, "
                          "e.g. items = coop.ThreadData(items_per_thread)")


_register_global(_markers.ThreadData, ThreadDataTemplate)
