"""The whole-function planner: what cuda.coop needs settled before typing.

* Kernels with coop calls are specialized per launch configuration, so block
  dimensions are compile-time facts.
* `ThreadData(items_per_thread)` needs a compile-time count: a literal, or a
  kernel argument, which becomes a literal (one specialization per value).
* Its element type comes from `dtype=`, from the array of the load that
  fills it or the store that reads it (a kernel argument, a slice or row of
  one, a `cuda.shared.array`/`cuda.local.array` with its dtype), or from
  typed assignments: `items[i] = numpy.int32(x)` or `types.int32(x)`, a
  typed scalar kernel argument (`items[i] = v`), an element of an array whose
  element type is known (`items[i] = src[j]`). A typed value whose type
  differs from the payload's (whatever established it) is an error.
* `ThreadData` then becomes a Numba local array, and `items.items_per_thread`
  the constant count, wherever the payload goes: through aliases
  (`x = items`) and into inlined device helpers.
"""

from __future__ import annotations

from numba_cuda_mlir import cuda, types
from numba_cuda_mlir.errors import ForceLiteralArg, TypingError
from numba_cuda_mlir.extending import WholeFunctionPlanner, require_launch_config

from .. import _groups, _markers, _spellings
from ._numba import definitions, from_dtype, nir, rebuild_definitions
from .._operations import OPERATIONS
from ._operators import device_dispatcher, drop_dead_code_constants

COOP_FUNCTIONS = {
    _groups.this_thread, _groups.this_warp, _groups.this_block, _groups.this_cluster,
    _groups.this_grid, _markers.ThreadData, _markers.TempStorage, _markers.StatefulFunction,
    *OPERATIONS,
}
# Operations whose payload can take its dtype from their device array:
# marker -> (the array's position, the payload's position) in the call.
_DTYPE_SOURCES = {
    marker: (op.positional.index(op.memory_role), op.positional.index(
        "payload" if "payload" in op.positional else "value"))
    for marker, op in OPERATIONS.items() if op.memory_role is not None
}

# The least explicit alignment of a ThreadData's local array. Numba-CUDA-MLIR
# 0.6 takes only multiples of 8 and drops 8 itself (its nominal default),
# leaving the storage at its element type's alignment; 16 meets every
# request of 8 bytes or less.
_LEAST_PAYLOAD_ALIGNMENT = 16


def _resolve(func_ir, var):
    """The Python object a variable holds, when it is a global or attribute of one."""
    try:
        definition = func_ir.get_definition(var)
    except Exception:
        return None
    if isinstance(definition, (nir.Global, nir.FreeVar)):
        return definition.value
    if isinstance(definition, nir.Expr) and definition.op == "getattr":
        base = _resolve(func_ir, definition.value)
        return getattr(base, definition.attr, None) if base is not None else None
    return None


def _scalar_type(value):
    """The Numba scalar type a Numba or NumPy type object names, or None."""
    import numpy

    if isinstance(value, types.Number):
        return value
    if isinstance(value, type) and issubclass(value, numpy.number):
        return from_dtype(numpy.dtype(value))
    if isinstance(value, numpy.dtype):
        return from_dtype(value)
    return None


def _root(func_ir, var):
    """The variable `var` copies, through plain assignments (inlined helpers
    bind their parameters that way)."""
    seen = set()
    while var.name not in seen:
        seen.add(var.name)
        found = definitions(func_ir, var.name)
        if len(found) != 1 or not isinstance(found[0], nir.Var):
            return var
        var = found[0]
    return var


def _defining_assign(func_ir, var):
    """The one assignment that gives `var` (through plain copies) its value,
    or None."""
    var = _root(func_ir, var)
    found = [stmt for block in func_ir.blocks.values() for stmt in block.body
             if isinstance(stmt, nir.Assign) and stmt.target.name == var.name]
    return found[0] if len(found) == 1 else None


def _is_none(func_ir, var):
    """Whether a variable holds the constant None (`dtype=None`)."""
    try:
        definition = func_ir.get_definition(var)
    except Exception:
        return False
    return isinstance(definition, (nir.Const, nir.Global, nir.FreeVar)) \
        and definition.value is None


def _device_function(func_ir, var, operator: bool = False) -> bool:
    """Makes the Python function `var` holds a device dispatcher (an
    `operator` that is a named one, such as `operator.add` or `max`: that
    name); whether it did."""
    assign = _defining_assign(func_ir, var) if var is not None else None
    if assign is None:
        return False
    value = assign.value
    python_value = value.value if isinstance(value, (nir.Global, nir.FreeVar)) \
        else _resolve(func_ir, assign.target)
    name = _spellings.operator_name(python_value) if operator else None
    if name is not None and not isinstance(python_value, str):
        assign.value = nir.Const(name, value.loc)
        return True
    dispatcher = device_dispatcher(python_value)
    if dispatcher is None:
        return False
    assign.value = nir.Global(dispatcher.py_func.__name__, dispatcher, value.loc)
    return True


def _calls(func_ir):
    for block in func_ir.blocks.values():
        for index, stmt in enumerate(block.body):
            if isinstance(stmt, nir.Assign) and isinstance(stmt.value, nir.Expr) \
                    and stmt.value.op == "call":
                yield block, index, stmt, _resolve(func_ir, stmt.value.func)


def _payloads_from(func_ir, name: str) -> set[str]:
    """`name` and the variables holding payloads of its size that coop calls
    make from it: a fresh payload like it, the payload `load` filled, and the
    first item of a (payload, item) result."""
    found = {name}
    changed = True
    while changed:
        changed = False
        for block in func_ir.blocks.values():
            for stmt in block.body:
                if not isinstance(stmt, nir.Assign) or stmt.target.name in found or \
                        not isinstance(stmt.value, nir.Expr):
                    continue
                expr = stmt.value
                derived = False
                if expr.op == "call":
                    operation = OPERATIONS.get(_resolve(func_ir, expr.func))
                    role = "payload" if operation is not None and \
                        operation.result == "payload" else "value"
                    if operation is not None and operation.result in ("fresh", "payload") \
                            and role in operation.positional:
                        position = operation.positional.index(role)
                        derived = position < len(expr.args) and \
                            _root(func_ir, expr.args[position]).name in found
                elif expr.op in ("static_getitem", "exhaust_iter"):
                    derived = (expr.op == "exhaust_iter" or expr.index == 0) and \
                        _root(func_ir, expr.value).name in found
                if derived:
                    found.add(stmt.target.name)
                    changed = True
    return found


class CoopPlanner(WholeFunctionPlanner):
    def run(self):
        func_ir = self.state.func_ir
        calls = list(_calls(func_ir))
        if not any(target in COOP_FUNCTIONS for *_, target in calls):
            return False
        if self.is_device_function:
            raise TypingError(
                "cuda.coop calls in a device function need the kernel's launch facts: "
                "inline the helper into its kernel with "
                "@cuda.jit(device=True, inline='always')")
        require_launch_config(self.state)
        # Inlining device helpers binds their parameters with new assignments
        # that the recorded definitions may not list yet.
        rebuild_definitions(func_ir)
        changed = self._operator_functions(func_ir, calls)
        if changed:
            # Dropping the code constants of replaced functions moved the
            # statements after them.
            calls = list(_calls(func_ir))
        changed |= self._literal_counts(func_ir, calls)
        for block, index, stmt, target in calls:
            if target is _markers.ThreadData:
                changed |= self._thread_data(func_ir, block, index, stmt, calls)
                # A payload already rewritten is a local array with a known
                # dtype, so its elements are typed values for the next ones.
                rebuild_definitions(func_ir)
        return changed

    def _operator_functions(self, func_ir, calls) -> bool:
        """Operator, predicate and comparator arguments and StatefulFunction functions
        that are Python functions become Numba device dispatchers (`_operators.py`)."""
        changed = False
        for _, _, stmt, target in calls:
            args, kws = stmt.value.args, dict(stmt.value.kws)
            if target is _markers.StatefulFunction:
                changed |= _device_function(func_ir, kws.get("function",
                                                             args[0] if args else None))
            operation = OPERATIONS.get(target)
            if operation is None:
                continue
            spelled = dict(operation.aliases)
            for option in operation.options:
                if option.kind not in ("operator", "prefix", "predicate", "comparator"):
                    continue
                given = [var for name, var in kws.items()
                         if spelled.get(name, name) == option.name]
                if option.name in operation.positional_options:
                    position = len(operation.positional) + \
                        operation.positional_options.index(option.name)
                    given += args[position:position + 1]
                for var in given:
                    changed |= _device_function(func_ir, var,
                                                operator=option.kind == "operator")
        if changed:
            drop_dead_code_constants(func_ir)
            rebuild_definitions(func_ir)
        return changed

    def _literal_counts(self, func_ir, calls) -> bool:
        """Kernel arguments that size payloads (ThreadData counts, local array
        shapes) become compile-time constants: the kernel is specialized per
        value, and the argument is replaced by its value so payloads have a
        static size."""
        wanted = set()
        for _, _, stmt, target in calls:
            if target is _markers.ThreadData or target is cuda.local.array:
                args = stmt.value.args
                kws = dict(stmt.value.kws)
                count = args[0] if args else kws.get("items_per_thread", kws.get("shape"))
                if count is None:
                    continue
                definition = func_ir.get_definition(count)
                if isinstance(definition, nir.Arg):
                    wanted.add(definition.index)
        need, changed = set(), False
        for block in func_ir.blocks.values():
            for i, stmt in enumerate(block.body):
                if isinstance(stmt, nir.Assign) and isinstance(stmt.value, nir.Arg) \
                        and stmt.value.index in wanted:
                    arg_type = self.state.args[stmt.value.index]
                    if isinstance(arg_type, types.IntegerLiteral):
                        block.body[i] = nir.Assign(nir.Const(arg_type.literal_value, stmt.loc),
                                                   stmt.target, stmt.loc)
                        changed = True
                    else:
                        need.add(stmt.value.index)
        if need:
            raise ForceLiteralArg(need)
        if changed:
            rebuild_definitions(func_ir)
        return changed

    def _count(self, func_ir, var, loc):
        definition = func_ir.get_definition(var)
        # A literal, or a global or closure variable holding an int.
        if isinstance(definition, (nir.Const, nir.Global, nir.FreeVar)) and \
                isinstance(definition.value, int) and not isinstance(definition.value, bool):
            return definition.value
        raise TypingError("ThreadData's items_per_thread must be a compile-time constant: "
                          "pass a literal or the kernel's items_per_thread argument", loc=loc)

    def _alignment(self, func_ir, var, loc):
        """The local array's alignment for ThreadData's alignment=: None, or
        at least the requested compile-time positive power of two."""
        if var is None or _is_none(func_ir, var):
            return None
        try:
            definition = func_ir.get_definition(var)
        except Exception:
            definition = None
        value = definition.value if isinstance(definition, (nir.Const, nir.Global, nir.FreeVar)) \
            else None
        if isinstance(value, bool) or not isinstance(value, int):
            got = f"got {value!r}" if definition is not None and value is not None \
                else "got a value known only at run time"
            raise TypingError("ThreadData's alignment must be a positive power of two given as "
                              f"a compile-time integer, such as alignment=16; {got}", loc=loc)
        if value <= 0 or value & (value - 1):
            raise TypingError(f"ThreadData's alignment must be a positive power of two; got "
                              f"{value}", loc=loc)
        return max(value, _LEAST_PAYLOAD_ALIGNMENT)

    def _dtype(self, func_ir, stmt, calls):
        """The payload's element type: (the dtype= variable, None) when it is
        explicit, else (None, the inferred type). Every typed value assigned to
        the payload must have that type."""
        call = stmt.value
        kws = dict(call.kws)
        explicit = kws.get("dtype") or (call.args[1] if len(call.args) > 1 else None)
        if explicit is not None and _is_none(func_ir, explicit):
            explicit = None
        items = stmt.target.name
        typed = self._typed_values(func_ir, items)
        if explicit is not None:
            declared = _scalar_type(_resolve(func_ir, explicit))
            if declared is not None:
                self._check_typed_values(typed, declared, "from its dtype=")
            return explicit, None
        for _, _, other, target in calls:
            if target not in _DTYPE_SOURCES:
                continue
            array, payload = _DTYPE_SOURCES[target]
            args = other.value.args
            if len(args) > max(array, payload) and _root(func_ir, args[payload]).name == items:
                dtype = self._array_dtype(func_ir, args[array])
                if dtype is not None:
                    self._check_typed_values(
                        typed, dtype,
                        f"the element type of its coop.{OPERATIONS[target].name}'s array")
                    return None, dtype
        if typed:
            found = {scalar for scalar, _ in typed}
            if len(found) > 1:
                raise TypingError(
                    "the values assigned to this ThreadData have different types ("
                    + ", ".join(sorted(map(str, found)))
                    + "): all items have one type; cast the values to one of them",
                    loc=typed[0][1])
            return None, found.pop()
        raise TypingError(
            "cannot infer the element type of this ThreadData: no coop.load fills it and "
            "no coop.store reads it from an array whose element type is known before "
            "typing (a kernel argument, a slice of one, or a cuda.shared/local array with "
            "its dtype); pass dtype=, e.g. "
            "coop.ThreadData(items_per_thread, dtype=numpy.int32)", loc=call.loc)

    def _array_dtype(self, func_ir, var, depth=0):
        """The element type of an array known before typing: a kernel
        argument, a slice or row of one, or a `cuda.shared.array` /
        `cuda.local.array` with its dtype spelled out. None otherwise."""
        if depth > 16:
            return None
        try:
            definition = func_ir.get_definition(_root(func_ir, var))
        except Exception:
            return None
        if isinstance(definition, nir.Arg):
            array_type = self.state.args[definition.index]
            return array_type.dtype if isinstance(array_type, types.Array) else None
        if not isinstance(definition, nir.Expr):
            return None
        if definition.op in ("getitem", "static_getitem"):
            return self._array_dtype(func_ir, definition.value, depth + 1)
        if definition.op == "call" and _resolve(func_ir, definition.func) in (
                cuda.shared.array, cuda.local.array):
            kws = dict(definition.kws)
            dtype = kws.get("dtype") or (definition.args[1] if len(definition.args) > 1
                                         else None)
            return _scalar_type(_resolve(func_ir, dtype)) if dtype is not None else None
        return None

    def _typed_values(self, func_ir, items):
        """(type, location) of each typed value stored into the payload (or an
        alias of it, as in an inlined helper): `items[i] = T(x)` with T a Numba
        or NumPy scalar type, `items[i] = v` with v a typed scalar kernel
        argument, `items[i] = a[j]` with a an array whose element type is
        known before typing."""
        found = []
        for block in func_ir.blocks.values():
            for stmt in block.body:
                if isinstance(stmt, (nir.SetItem, nir.StaticSetItem)) \
                        and _root(func_ir, stmt.target).name == items:
                    scalar = self._value_type(func_ir, stmt.value)
                    if scalar is not None:
                        found.append((scalar, stmt.loc))
        return found

    def _value_type(self, func_ir, var):
        """The scalar type of a value known before typing, or None."""
        try:
            definition = func_ir.get_definition(_root(func_ir, var))
        except Exception:
            return None
        if isinstance(definition, nir.Arg):
            arg_type = self.state.args[definition.index]
            if isinstance(arg_type, types.Number) and not isinstance(arg_type, types.Literal):
                return arg_type
            return None
        if not isinstance(definition, nir.Expr):
            return None
        if definition.op == "call":
            return _scalar_type(_resolve(func_ir, definition.func))
        if definition.op in ("getitem", "static_getitem"):
            return self._array_dtype(func_ir, definition.value)
        return None

    @staticmethod
    def _check_typed_values(typed, dtype, source):
        for scalar, loc in typed:
            if scalar != dtype:
                raise TypingError(
                    f"a value of type {scalar} is assigned to a ThreadData of element type "
                    f"{dtype} ({source}): all items have one type, and conflicting typed "
                    f"values are an error; cast the value to {dtype}", loc=loc)

    def _thread_data(self, func_ir, block, index, stmt, calls):
        call = stmt.value
        kws = dict(call.kws)
        count_var = call.args[0] if call.args else kws.get("items_per_thread")
        count = self._count(func_ir, count_var, call.loc)
        if count <= 0:
            raise TypingError(f"ThreadData's items_per_thread must be positive; got {count}",
                              loc=call.loc)
        dtype_var, dtype = self._dtype(func_ir, stmt, calls)
        scope, loc = block.scope, call.loc
        new = []
        # cuda.local.array, spelled as Numba types it: attributes of the module.
        module = scope.redefine("$coop_cuda", loc)
        new.append(nir.Assign(nir.Global("cuda", cuda, loc), module, loc))
        local = scope.redefine("$coop_local", loc)
        new.append(nir.Assign(nir.Expr.getattr(module, "local", loc), local, loc))
        local_array = scope.redefine("$coop_local_array", loc)
        new.append(nir.Assign(nir.Expr.getattr(local, "array", loc), local_array, loc))
        count_const = scope.redefine("$coop_count", loc)
        new.append(nir.Assign(nir.Const(count, loc), count_const, loc))
        if dtype_var is None:
            dtype_var = scope.redefine("$coop_dtype", loc)
            new.append(nir.Assign(nir.Global("dtype", dtype, loc), dtype_var, loc))
        alignment = self._alignment(func_ir, kws.get("alignment"), call.loc)
        call_kws = []
        if alignment is not None:
            alignment_const = scope.redefine("$coop_alignment", loc)
            new.append(nir.Assign(nir.Const(alignment, loc), alignment_const, loc))
            call_kws = [("alignment", alignment_const)]
        stmt.value = nir.Expr.call(local_array, [count_const, dtype_var], call_kws, loc)
        block.body[index:index] = new
        # items.items_per_thread is the constant count, also through an alias
        # (`x = items`, or the parameter of an inlined helper) and on the
        # payloads coop calls make from it or return (`exchange`'s result,
        # `load`'s, the first of a scan's (result, aggregate)).
        payloads = _payloads_from(func_ir, stmt.target.name)
        for other_block in func_ir.blocks.values():
            for i, other in enumerate(other_block.body):
                if isinstance(other, nir.Assign) and isinstance(other.value, nir.Expr) \
                        and other.value.op == "getattr" and other.value.attr == "items_per_thread" \
                        and _root(func_ir, other.value.value).name in payloads:
                    other_block.body[i] = nir.Assign(nir.Const(count, other.loc), other.target,
                                                     other.loc)
        return True
