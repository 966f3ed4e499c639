"""Python functions as the operators of reductions and scans, and as the
prefix functions of block scans (`StatefulFunction`).

The function is compiled by Numba as a device function into the kernel's
module; our site function only declares it and calls it, so its body never
crosses between the two MLIRs, and Numba's inliner puts it in place.

* Before typing (the planner), the operator argument becomes a Numba device
  dispatcher: a plain Python function, a builtin (`max`, `operator.add`), or
  a `lambda`/`def` in the kernel (which Numba has turned into a CUDA
  dispatcher Numba-CUDA-MLIR cannot lower).
* Typing compiles it for (T, T) and checks that it takes two items and
  returns one (a prefix function: for (state, T), returning one item). A
  result of the same kind (Numba widens `int32 + int32` to int64,
  `float32 * 0.5` to float64) is converted back to T, as C++'s
  `T op(T, T)` would; anything else is an error.
* Lowering links it (and a converting wrapper when needed) into the kernel's
  module and names it in the site.
"""

from __future__ import annotations

import inspect

from numba_cuda_mlir import cuda, types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import arith, func
from numba_cuda_mlir.errors import TypingError

from ._numba import (
    Dispatcher,
    MLIRDispatcher,
    NumbaCudaDispatcher,
    compile_device_callee,
    link_compiled,
    mangled_name,
    nir,
    rebuild_definitions,
)
from .._sites import OperatorFunction
from ._types import StatefulFunctionType

_DEVICE = {}  # Python function -> its device dispatcher (one symbol per function)


def device_dispatcher(value):
    """The device dispatcher to use for an operator argument's Python value,
    or None when it needs none (already one, or not a function)."""
    if isinstance(value, MLIRDispatcher):
        return None
    if isinstance(value, NumbaCudaDispatcher):
        value = value.py_func
    if not (inspect.isfunction(value) or inspect.isbuiltin(value)):
        return None
    if value not in _DEVICE:
        _DEVICE[value] = cuda.jit(device=True)(
            value if inspect.isfunction(value) else _calling(value))
    return _DEVICE[value]


def _calling(builtin):
    def builtin_operator(a, b):  # the builtin reaches Numba as a closure constant
        return builtin(a, b)
    return builtin_operator


def drop_dead_code_constants(func_ir) -> bool:
    """Removes the `const(code)` statements Numba leaves for a lambda or def
    that the planner replaced (Numba-CUDA-MLIR cannot lower them)."""
    used = {var.name for block in func_ir.blocks.values() for stmt in block.body
            for var in stmt.list_vars()
            if not (isinstance(stmt, nir.Assign) and var is stmt.target)}
    changed = False
    for block in func_ir.blocks.values():
        kept = [stmt for stmt in block.body
                if not (isinstance(stmt, nir.Assign) and isinstance(stmt.value, nir.Const)
                        and inspect.iscode(stmt.value.value) and stmt.target.name not in used)]
        if len(kept) != len(block.body):
            block.body[:] = kept
            changed = True
    if changed:
        rebuild_definitions(func_ir)
    return changed


def is_operator_function(value_type) -> bool:
    return isinstance(value_type, Dispatcher) and isinstance(value_type.dispatcher,
                                                             MLIRDispatcher)


def _symbol(dispatcher, argtypes):
    # The name Numba gives its own calls of the dispatcher: a direct call of
    # the same function in the kernel shares the compile.
    return mangled_name(f"{dispatcher.py_func.__qualname__}_{id(dispatcher)}", argtypes)


def _compile(dispatcher, argtypes):
    return compile_device_callee(dispatcher, argtypes, _symbol(dispatcher, argtypes))


def _same_kind(got, item) -> bool:
    return (isinstance(got, types.Integer) and isinstance(item, types.Integer)) or \
        (isinstance(got, types.Float) and isinstance(item, types.Float))


def check_operator(value_type, item, where: str) -> None:
    """A TypingError unless the operator takes two items and returns one."""
    _check(value_type.dispatcher, (item, item), item, where,
           f"two items ({item}, {item}) and return one")


def check_prefix(prefix_type, item, where: str) -> None:
    """A TypingError unless the StatefulFunction's function takes its state
    and an item and returns one (a plain function: an item)."""
    if not isinstance(prefix_type, StatefulFunctionType):
        _check(prefix_type.dispatcher, (item,), item, where,
               f"the tile's aggregate ({item}) and return the prefix")
        return
    _check(prefix_type.function.dispatcher, (prefix_type.state, item), item,
           f"{where}'s function",
           f"the state and the tile's aggregate ({prefix_type.state}, {item}) and return "
           "the prefix")


def _check(dispatcher, argtypes, item, where: str, takes: str) -> None:
    name, shown, returned = _returned(dispatcher, argtypes, where, takes)
    if returned != item and not _same_kind(returned, item):
        raise TypingError(f"{where} {name} must return the item type {item} for "
                          f"({shown}); it returns {returned}")


def check_predicate(value_type, item, where: str, arity: int = 1) -> None:
    """A TypingError unless the predicate takes an item (a comparison: two,
    `arity`) and returns a bool (or an integer, tested against zero as C++
    would)."""
    takes = f"one item ({item})" if arity == 1 else f"two items ({item}, {item})"
    name, shown, returned = _returned(value_type.dispatcher, (item,) * arity, where,
                                      f"{takes} and return a bool")
    if not isinstance(returned, (types.Boolean, types.Integer)):
        raise TypingError(f"{where} {name} must return a bool for ({shown}); it returns "
                          f"{returned}")


def _returned(dispatcher, argtypes, where: str, takes: str):
    """(the function's name, its argument types shown, the type it returns for
    `argtypes`); a TypingError when it cannot take them or does not compile."""
    py_func = dispatcher.py_func
    name = getattr(py_func, "__qualname__", py_func)
    shown = ", ".join(map(str, argtypes))
    try:
        shape = inspect.signature(py_func)
        shape.bind(*argtypes)
    except (TypeError, ValueError):
        raise TypingError(f"{where} {name}{shape} must take {takes}") from None
    try:
        returned = _compile(dispatcher, argtypes).signature.return_type
    except Exception as error:  # the function's own typing error
        raise TypingError(f"{where} {name} does not compile for ({shown}):\n{error}") from None
    return name, shown, returned


def link_predicate(builder, value_type, item, arity: int = 1) -> OperatorFunction:
    """Links a select's predicate (a merge sort's comparison: `arity` 2), as
    `link_operator`; the site calls it as `(T) -> i1` (`(T, T) -> i1`),
    through a wrapper that tests the result against zero where the function
    returns a wider bool (Numba's i8) or an integer."""
    dispatcher = value_type.dispatcher
    argtypes = (item,) * arity
    symbol = _symbol(dispatcher, argtypes)
    callee = link_compiled(builder, _compile(dispatcher, argtypes), symbol)
    truth = ir.IntegerType.get_signless(1)
    if ir.FunctionType(callee.function_type.value).results[0] != truth:
        symbol = _truth_wrapper(builder, symbol, callee)
    return OperatorFunction(symbol, (str(builder.get_mlir_type(item)),) * arity, str(truth))


def _truth_wrapper(builder, symbol, callee) -> str:
    """`func.func private @<symbol>__truth(...) -> i1`: the function's
    integer result compared with zero."""
    def truth(raw):
        return arith.cmpi(arith.CmpIPredicate.ne, raw, arith.constant(raw.type, 0))
    return _wrapper(builder, f"{symbol}__truth", symbol, callee,
                    ir.IntegerType.get_signless(1), truth)


def link_operator(builder, value_type, item) -> OperatorFunction:
    """Links the compiled operator into the kernel's module (first, so the
    site's declaration of it is skipped) and returns what the site calls."""
    return _link(builder, value_type.dispatcher, (item, item), item)


def link_prefix(builder, prefix_type, item) -> OperatorFunction:
    """Links a StatefulFunction's compiled function (or a plain prefix
    function), as `link_operator`."""
    if not isinstance(prefix_type, StatefulFunctionType):
        return _link(builder, prefix_type.dispatcher, (item,), item)
    return _link(builder, prefix_type.function.dispatcher, (prefix_type.state, item), item)


def _link(builder, dispatcher, argtypes, item) -> OperatorFunction:
    symbol = _symbol(dispatcher, argtypes)
    result = _compile(dispatcher, argtypes)
    callee = link_compiled(builder, result, symbol)
    returned = result.signature.return_type
    if returned != item:
        symbol = _converting_wrapper(builder, symbol, callee, returned, item)
    parameters = tuple(str(builder.get_mlir_type(t)) for t in argtypes)
    return OperatorFunction(symbol, parameters, str(builder.get_mlir_type(item)))


def _converting_wrapper(builder, symbol, callee, returned, item) -> str:
    """`func.func private @<symbol>__as_<item>(...) -> T`: the function with
    its result converted to the item type by Numba's own cast."""
    return _wrapper(builder, f"{symbol}__as_{item}", symbol, callee,
                    builder.get_mlir_type(item),
                    lambda raw: builder.lower_cast(returned, item, raw))


def _wrapper(builder, wrapper, symbol, callee, result_type, convert) -> str:
    """`func.func private @<wrapper>(...) -> result_type` in the kernel's
    module (once): calls `symbol` and returns `convert` of its result."""
    body = builder.mlir_gpu_module.regions[0].blocks[0]
    if any(isinstance(op, func.FuncOp) and op.name.value == wrapper for op in body):
        return wrapper
    callee_type = ir.FunctionType(callee.function_type.value)
    with ir.InsertionPoint(body):
        op = func.FuncOp(wrapper, ir.FunctionType.get(list(callee_type.inputs), [result_type]))
        op.attributes["sym_visibility"] = ir.StringAttr.get("private")
        entry = op.add_entry_block()
    with ir.InsertionPoint(entry):
        raw = func.call(list(callee_type.results), symbol, list(entry.arguments))
        func.return_([convert(raw)])
    return wrapper
