"""Python functions as the operators of reductions and scans.

The function is compiled by Numba as a device function into the kernel's
module; our site function only declares it and calls it, so its body never
crosses between the two MLIRs, and Numba's inliner puts it in place.

* Before typing (the planner), the operator argument becomes a Numba device
  dispatcher: a plain Python function, a builtin (`max`, `operator.add`), or
  a `lambda`/`def` in the kernel (which Numba has turned into a CUDA
  dispatcher Numba-CUDA-MLIR cannot lower).
* Typing compiles it for (T, T) and checks that it takes two items and
  returns one. A result of the same kind (Numba widens `int32 + int32` to
  int64, `float32 * 0.5` to float64) is converted back to T, as C++'s
  `T op(T, T)` would; anything else is an error.
* Lowering links it (and a converting wrapper when needed) into the kernel's
  module and names it in the site.
"""

from __future__ import annotations

import dataclasses
import inspect

from numba_cuda_mlir import cuda, types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import func
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

_DEVICE = {}  # Python function -> its device dispatcher (one symbol per function)


@dataclasses.dataclass(frozen=True, order=True)
class OperatorFunction:
    """A compiled operator as a site names it."""
    symbol: str


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


def _symbol(dispatcher, item):
    # The name Numba gives its own calls of the dispatcher: a direct call of
    # the same function in the kernel shares the compile.
    return mangled_name(f"{dispatcher.py_func.__qualname__}_{id(dispatcher)}", (item, item))


def _compile(dispatcher, item):
    return compile_device_callee(dispatcher, (item, item), _symbol(dispatcher, item))


def _same_kind(got, item) -> bool:
    return (isinstance(got, types.Integer) and isinstance(item, types.Integer)) or \
        (isinstance(got, types.Float) and isinstance(item, types.Float))


def check_operator(value_type, item, where: str) -> None:
    """A TypingError unless the operator takes two items and returns one."""
    dispatcher = value_type.dispatcher
    py_func = dispatcher.py_func
    name = getattr(py_func, "__qualname__", py_func)
    try:
        shape = inspect.signature(py_func)
        shape.bind(item, item)
    except (TypeError, ValueError):
        raise TypingError(f"{where} {name}{shape} must take two items ({item}, {item}) and "
                          f"return one") from None
    try:
        returned = _compile(dispatcher, item).signature.return_type
    except Exception as error:  # the operator's own typing error
        raise TypingError(f"{where} {name} does not compile for ({item}, {item}):\n"
                          f"{error}") from None
    if returned != item and not _same_kind(returned, item):
        raise TypingError(f"{where} {name} must return the item type {item} for "
                          f"({item}, {item}); it returns {returned}")


def link_operator(builder, value_type, item) -> OperatorFunction:
    """Links the compiled operator into the kernel's module (first, so the
    site's declaration of it is skipped) and returns what the site calls."""
    dispatcher = value_type.dispatcher
    symbol = _symbol(dispatcher, item)
    result = _compile(dispatcher, item)
    callee = link_compiled(builder, result, symbol)
    returned = result.signature.return_type
    if returned != item:
        symbol = _converting_wrapper(builder, symbol, callee, returned, item)
    return OperatorFunction(symbol)


def _converting_wrapper(builder, symbol, callee, returned, item) -> str:
    """`func.func private @<symbol>__as_<item>(T, T) -> T`: the operator with
    its result converted to the item type by Numba's own cast."""
    wrapper = f"{symbol}__as_{item}"
    body = builder.mlir_gpu_module.regions[0].blocks[0]
    if any(isinstance(op, func.FuncOp) and op.name.value == wrapper for op in body):
        return wrapper
    element = builder.get_mlir_type(item)
    callee_type = ir.FunctionType(callee.function_type.value)
    with ir.InsertionPoint(body):
        op = func.FuncOp(wrapper, ir.FunctionType.get([element, element], [element]))
        op.attributes["sym_visibility"] = ir.StringAttr.get("private")
        entry = op.add_entry_block()
    with ir.InsertionPoint(entry):
        raw = func.call(list(callee_type.results), symbol, list(entry.arguments))
        func.return_([builder.lower_cast(returned, item, raw)])
    return wrapper
