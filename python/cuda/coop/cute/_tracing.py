"""A cuda.coop call in a CuTe DSL kernel, while CuTe traces it.

The call's arguments are CuTe values: register tensors (payloads), global
or shared tensors (the tile's memory), CuTe numbers (runtime scalars) and
Python constants (compile-time options). They become a site description
(`cuda.coop._sites.Site`, from the operation's entry in
`cuda.coop._operations`), whose bitcode `_bitcode.py` makes and calls. A
fresh payload the operation returns is a register tensor allocated here.
"""

from __future__ import annotations

import inspect
import math
import os
import sys

import cutlass
import cutlass.cute as cute
from cutlass._mlir import ir

from .. import _ods, _spellings
from .._errors import CoopCompileError
from .._groups import WARP_THREADS, ThreadGroup
from .._operations import BY_NAME, prefix_slots, rank_digit
from .._sites import Site
from . import _bitcode

SUPPORTED = ("load", "store", "exchange", "shuffle", "reduce", "sum", "scan", "inclusive_scan",
             "exclusive_scan", "inclusive_sum", "exclusive_sum", "select", "reduce_batched",
             "radix_sort_keys", "radix_sort_pairs", "argsort", "topk_max_keys", "topk_min_keys",
             "topk_max_pairs", "topk_min_pairs", "merge_sort_keys", "merge_sort_pairs",
             "histogram", "run_length_decode", "run_length_decode_into", "radix_rank_keys")
"""The operations a CuTe kernel can call (besides ``ThreadData``)."""

# Options whose values a bitcode site cannot take yet: each names why.
_UNSUPPORTED_OPTIONS = {
    "temp_storage": "each call in a CuTe kernel has a shared buffer of its own; leave "
                    "temp_storage out",
    "prefix_op": "a prefix callback would be a CuTe function our bitcode cannot call; "
                 "scan each tile and carry the running total in the kernel",
}

_ELEMENTS = {cutlass.Int8: "i8", cutlass.Int16: "i16", cutlass.Int32: "i32",
             cutlass.Int64: "i64", cutlass.Uint8: "i8", cutlass.Uint16: "i16",
             cutlass.Uint32: "i32", cutlass.Uint64: "i64", cutlass.Float16: "f16",
             cutlass.BFloat16: "bf16", cutlass.Float32: "f32", cutlass.Float64: "f64"}
_UNSIGNED = (cutlass.Uint8, cutlass.Uint16, cutlass.Uint32, cutlass.Uint64)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def trace(name: str, arguments: dict):
    """The result of the common API's call `name` with `arguments` in the
    CuTe kernel being traced; NotImplemented when CuTe is not tracing."""
    if not _tracing():
        return NotImplemented
    where = _caller()
    block = _block_dims(where)
    if name == "ThreadData":
        return _thread_data(arguments, where)
    if name not in SUPPORTED:
        raise CoopCompileError(f"{where}: coop.{name} is not available in CuTe kernels yet; "
                               f"they support {', '.join(SUPPORTED)} and ThreadData")
    return _Call(BY_NAME[name], arguments, where, block).emit()


def _caller() -> str:
    """file:line of the kernel's call (the first frame outside cuda.coop);
    frames, not inspect.stack(), which reads every frame's source."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PACKAGE):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


_STATED_BLOCK = "coop.block"  # on CuTe's kernel op: the block assume_block stated


def _launch(where: str):
    """CuTe's launch facts of the kernel being traced, and its kernel op."""
    from cutlass.cute.launch_facts import _current_kernel, _get_launch_facts

    try:
        return _get_launch_facts(), _current_kernel(None)
    except Exception as error:  # CuTe's DSLRuntimeError outside a kernel
        raise CoopCompileError(f"{where}: cuda.coop calls run inside a @cute.kernel (CuTe "
                               f"could not give this function's launch: {error})") from None


def _stated_block(kernel):
    """The block assume_block stated for `kernel`, or None."""
    if _STATED_BLOCK not in kernel.attributes:
        return None
    return tuple(ir.DenseI64ArrayAttr(kernel.attributes[_STATED_BLOCK]))


def _block_dims(where: str) -> tuple[int, int, int]:
    facts, kernel = _launch(where)
    if facts.exact_block_dim is not None:
        return tuple(facts.exact_block_dim)
    stated = _stated_block(kernel)
    if stated is not None:
        return stated
    raise CoopCompileError(f"{where}: the kernel's block shape is not known while it is "
                           "traced; launch it with a constant block=(x, y, z), or state it "
                           "first with cuda.coop.cute.assume_block(x, y, z), so the "
                           "cooperative calls are compiled for it")


def assume_block(x: int, y: int = 1, z: int = 1) -> None:
    """States the block shape of a kernel launched with a runtime `block=`,
    before its first cooperative call: the calls are compiled for it, and a
    launch with another block traps (CUDA's unspecified launch failure)
    before any of them runs. With a constant launch block it must be that
    block (a compile error otherwise) and costs nothing."""
    where = _caller()
    if not _tracing():
        raise CoopCompileError(f"{where}: assume_block runs inside a @cute.kernel, before "
                               "its cooperative calls")
    dims = (x, y, z)
    if any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in dims) or \
            math.prod(dims) > 1024:
        raise CoopCompileError(f"{where}: assume_block takes positive int extents of at most "
                               f"1024 threads in all; got {dims!r}")
    facts, kernel = _launch(where)
    if facts.exact_block_dim is not None:
        if tuple(facts.exact_block_dim) != dims:
            raise CoopCompileError(f"{where}: assume_block{dims} but the kernel is launched "
                                   f"with block={tuple(facts.exact_block_dim)}; state the "
                                   "launch's block or drop assume_block")
        return
    stated = _stated_block(kernel)
    if stated is not None:
        if stated != dims:
            raise CoopCompileError(f"{where}: assume_block{dims} after assume_block{stated} "
                                   "in one kernel; state its block once")
        return
    kernel.attributes[_STATED_BLOCK] = ir.DenseI64ArrayAttr.get(list(dims))
    _trap_unless_launched_with(dims)


def _tracing() -> bool:
    try:
        ir.InsertionPoint.current
    except ValueError:
        return False
    return True


def _trap_unless_launched_with(dims) -> None:
    """if (ntid.x, ntid.y, ntid.z) != dims: trap."""
    from cutlass._mlir.dialects import arith, llvm, nvvm, scf

    i32 = ir.IntegerType.get_signless(32)
    read = (nvvm.read_ptx_sreg_ntid_x, nvvm.read_ptx_sreg_ntid_y, nvvm.read_ptx_sreg_ntid_z)
    wrong = None
    for extent, dim in zip(read, dims):
        differs = arith.cmpi(arith.CmpIPredicate.ne, extent(i32),
                             arith.constant(i32, ir.IntegerAttr.get(i32, dim)))
        wrong = differs if wrong is None else arith.ori(wrong, differs)
    branch = scf.IfOp(wrong)
    with ir.InsertionPoint(branch.then_block):
        llvm.intr_trap()
        scf.YieldOp([])


def _thread_data(arguments: dict, where: str):
    items, dtype = arguments.get("items_per_thread"), arguments.get("dtype")
    if isinstance(items, bool) or not isinstance(items, int) or items <= 0:
        raise CoopCompileError(f"{where}: ThreadData's items_per_thread must be a positive "
                               f"int; got {items!r}")
    if dtype not in _ELEMENTS:
        raise CoopCompileError(f"{where}: ThreadData in a CuTe kernel needs its dtype, one of "
                               f"{', '.join(t.__name__ for t in _ELEMENTS)} (cutlass."
                               f"Int32, ...); got {dtype!r}")
    return cute.make_rmem_tensor((items,), dtype)


def _group_type(group, where: str, block) -> tuple[str, int]:
    """The group's !coop.group type and its partition's count (0 for a
    whole block or warp). A block shape the group states must be the
    launch's."""
    if not isinstance(group, ThreadGroup):
        raise CoopCompileError(f"{where}: the first argument is a group: coop.this_block(), "
                               f"coop.this_warp() or coop.this_warp().group_by(n); got "
                               f"{type(group).__name__}")
    stated = group.hierarchy.block_dim
    if stated is not None and tuple(stated) != tuple(block):
        raise CoopCompileError(f"{where}: the group states a block of {tuple(stated)} threads "
                               f"but the kernel is launched with {tuple(block)}; launch it "
                               "with the group's block or drop the stated one")
    if group.kind in ("block", "warp"):
        return f"!coop.group<{group.kind}>", 0
    mapping = group.mapping
    if group.kind in ("threads_within_warp", "warps_within_block"):
        suffix = "" if mapping.exhaustive else ", non_exhaustive"
        return f"!coop.group<{group.kind}, {mapping.count}{suffix}>", mapping.count
    raise CoopCompileError(f"{where}: a {group.kind} group is not supported in CuTe kernels; "
                           "use coop.this_block(), coop.this_warp() or a group_by of them")


# Ops whose result is the calling thread's warp index (CuTe's warp_idx passes
# through make_warp_uniform; %warpid is the hardware's).
_WARP_INDEX_OPS = ("cute_nvgpu.arch.make_warp_uniform", "nvvm.read.ptx.sreg.warpid")


def _in_warp_specialized_branch() -> bool:
    """Whether the insertion point is inside an scf.if (of the kernel) whose
    condition is computed from the warp index."""
    op = ir.InsertionPoint.current.block.owner
    while op is not None and op.name not in ("cuda.kernel", "gpu.func", "func.func"):
        if op.name == "scf.if" and _depends_on_warp_index(op.operands[0]):
            return True
        op = op.parent
    return False


def _depends_on_warp_index(value, budget: int = 64) -> bool:
    pending, seen = [value], 0
    while pending and seen < budget:
        owner = pending.pop().owner
        seen += 1
        if isinstance(owner, ir.Block):
            continue
        if owner.name in _WARP_INDEX_OPS:
            return True
        pending.extend(owner.operands)
    return False


class _Call:
    """One call: its operands (role, site type, the value passed), its
    attributes and its result."""

    def __init__(self, operation, arguments, where, block):
        self.operation, self.where, self.block = operation, where, block
        names = list(inspect.signature(operation.marker).parameters)
        self.roles = {role: arguments[name]
                      for role, name in zip(operation.positional, names)}
        self.options = dict(operation.fixed)
        for option in operation.options:
            if option.name not in self.options:
                self.options[option.name] = arguments.get(option.name, option.default)
        self.group, count = _group_type(self.roles["group"], where, block)
        kind = self.roles["group"].kind
        if kind == "block" and _in_warp_specialized_branch():
            self.error("a block call in a branch on the warp index (a warp-specialized "
                       "branch) waits at a block barrier for warps that never reach it, and "
                       "the kernel hangs; call it where every thread of the block runs, or "
                       "use coop.this_warp() (or a group_by of it) inside the branch")
        self.threads = {"block": math.prod(block), "warp": WARP_THREADS,
                        "threads_within_warp": count,
                        "warps_within_block": WARP_THREADS * count}[kind]
        self.operands: list[tuple[str, str, object]] = []
        self.attributes: dict[str, object] = {}

    def error(self, message: str):
        raise CoopCompileError(f"{self.where}: coop.{self.operation.name}: {message}")

    def emit(self):
        operation = self.operation
        self.attributes.update(operation.fixed)
        for option in operation.options:
            value = self.options[option.name]
            if option.name in _UNSUPPORTED_OPTIONS and value not in (None, False):
                self.error(f"{option.name} is not supported in CuTe kernels: "
                           f"{_UNSUPPORTED_OPTIONS[option.name]}")
            if option.kind in ("predicate", "comparator") and value is not None:
                self.error(f"{option.name} would be a CuTe function, which our bitcode cannot "
                           "call; " + ("pass flags= instead" if option.kind == "predicate"
                                       else "sort by the keys' own order (descending= "
                                            "reverses it)"))
            if option.name in operation.result_options:
                continue
            if option.kind in ("choice", "flag"):
                self.attributes[option.name] = self._literal(option, value)
            elif option.kind == "integer" and value is not None:
                if isinstance(value, bool) or not isinstance(value, int):
                    self.error(f"{option.name} must be a compile-time int; got {value!r}")
                self.attributes[option.name] = value
        if operation.name.startswith("topk_"):
            k = self.options["k"]
            if isinstance(k, bool) or not isinstance(k, (int, cutlass.Integer)) or \
                    isinstance(k, int) and k < 0:
                self.error(f"needs k=, how many keys to select (a non-negative integer); "
                           f"got {k!r}")
        value = self.roles.get("value", self.roles.get("payload"))
        dtype, items = self._payload_facts(value, "the payload")
        element = _ELEMENTS[dtype]
        if operation.result == "ranks":
            self._rank_digit(dtype)
        for role in operation.positional[1:]:
            argument = self.roles[role]
            if role in ("source", "destination") and operation.result == "decoded_length":
                self.operands.append(self._memory(role, argument, dtype))
            elif role in ("source", "destination"):
                self.operands.append(self._memory(role, argument, dtype, items * self.threads))
            elif role in ("values", "lengths"):
                what = "the values" if role == "values" else "the run lengths"
                role_dtype, role_items = self._payload_facts(argument, what)
                if role_items != items:
                    self.error(f"{what} need one item per " +
                               ("key" if role == "values" else "run") +
                               f" ({items}); got {role_items}")
                self.operands.append(self._payload_operand(role, argument, role_dtype,
                                                           role_items))
            else:
                self.operands.append(self._payload_operand(role, argument, dtype, items))
        for option in operation.options:
            if option.kind == "operator":
                self.attributes[option.name] = self._operator(option)
        ods = _ods.OPS[operation.dialect_op]
        if dtype in _UNSIGNED and operation.ods_name("unsigned") in dict(ods["attributes"]):
            self.attributes["unsigned"] = True
        outputs = self._outputs(dtype, items)
        self.operands.extend(outputs)
        for option in operation.options:
            given = self.options[option.name]
            # A runtime option left at its default is the op's default; the
            # options that shape the result are not operands.
            if given is None or option.name in dict(operation.fixed) or \
                    option.name in operation.result_options or \
                    option.kind in ("index", "item") and given is option.default:
                continue
            if option.kind == "index":
                self.operands.append((option.name, "i64", cutlass.Int64(given)))
            elif option.kind == "item":
                self.operands.append((option.name, element, self._item(option, given, dtype)))
            elif option.kind in ("payload", "flags"):
                option_dtype, option_items = self._payload_facts(given, option.name,
                                                                 scalar=False)
                if option_items != items:
                    self.error(f"{option.name} needs one entry per item ({items}); got "
                               f"{option_items}")
                self.operands.append(self._payload_operand(option.name, given, option_dtype,
                                                           items))
            elif option.kind == "digit_prefix" and given is not False and given is not True:
                prefix_dtype, slots = self._payload_facts(given, option.name, scalar=False)
                needed = prefix_slots(self.attributes["radix_bits"], self.threads)
                if prefix_dtype is not cutlass.Int32 or slots < needed:
                    self.error(f"{option.name} must be a register tensor of at least {needed} "
                               f"Int32 slots a thread, or a compile-time bool")
                self.operands.append(self._payload_operand(option.name, given, prefix_dtype,
                                                           slots))
            elif option.kind == "counters":
                counter_dtype, slots = self._payload_facts(given, option.name, scalar=False)
                self.operands.append(self._payload_operand(option.name, given, counter_dtype,
                                                           slots))
            elif option.kind == "array":
                array_dtype = given.element_type if isinstance(given, cute.Tensor) else None
                self.operands.append(self._memory(option.name, given, array_dtype,
                                                  self.attributes.get("bins")))
        results = []
        if operation.result == "item" or operation.result == "fresh" and items is None:
            results.append(dtype)
        added = [flag for flag in operation.result_flags if self.attributes.get(flag)]
        results.extend(dtype for _ in added)
        if operation.counted:
            results.append(cutlass.Int32)
        if operation.result == "decoded_length" or operation.result == "decoded" and \
                self.options.get("total_decoded_size"):
            results.append(self._dtype_option("decoded_offset_dtype", cutlass.Uint32,
                                              (cutlass.Uint32, cutlass.Uint64)))
        site = Site(op=operation.name, group=_Group(self.group),
                    operands=tuple((role, site_type) for role, site_type, _ in self.operands),
                    attributes=tuple(sorted(self.attributes.items())),
                    element_type=element, block_dims=self.block, storage=None,
                    filename=self.where.rsplit(":", 1)[0],
                    line=int(self.where.rsplit(":", 1)[1]), col=0,
                    result_types=tuple(_ELEMENTS[t] for t in results))
        returned = _bitcode.call(site, [v for _, _, v in self.operands], results)
        if operation.result == "payload":
            return self.roles["payload"]
        made = [tensor for _, _, tensor in self._made] + list(returned)
        return tuple(made) if len(made) > 1 else made[0] if made else None

    def _payload_operand(self, role, value, dtype, items):
        if items is None:
            return role, _ELEMENTS[dtype], dtype(value)
        return role, f"memref<{items}x{_ELEMENTS[dtype]}>", _pointer(value.iterator)

    def _outputs(self, dtype, items):
        """The register tensors the operation fills and returns, as operands
        (`self._made` keeps them with their tensors)."""
        operation = self.operation
        made = []
        if items is None and operation.result in ("sorted", "argsorted", "batches", "decoded",
                                                   "decoded_length", "ranks"):
            self.error("takes a register tensor (coop.ThreadData(n, dtype)) in CuTe kernels; "
                       "got a scalar")
        if operation.result == "fresh" and items is not None:
            made.append(("output", dtype, items))
        elif operation.result == "batches":
            width = self.threads if self.roles["group"].kind == "threads_within_warp" \
                else WARP_THREADS
            made.append(("output", dtype, -(-items // width)))
        elif operation.result == "counters" and self.options.get("out") is None:
            made.append(("output", *self._counters()))
        elif operation.result == "decoded":
            decoded = self.attributes.get("decoded_items_per_thread")
            if not decoded or decoded < 1:
                self.error("needs decoded_items_per_thread=, the decoded items each thread "
                           "receives a window (a compile-time int >= 1)")
            made.append(("output", dtype, decoded))
        elif operation.result == "ranks":
            made.append(("ranks", cutlass.Int32, items))
            if self.options.get("exclusive_digit_prefix") is True:
                made.append(("exclusive_digit_prefix", cutlass.Int32,
                             prefix_slots(self.attributes["radix_bits"], self.threads)))
        elif operation.result in ("sorted", "argsorted"):
            made.append(("output", dtype, items))
            if operation.result == "argsorted":
                made.append(("values_output", cutlass.Int32, items))
            elif "values" in operation.positional:
                made.append(("values_output", self.roles["values"].element_type, items))
        elif operation.result not in ("item", "payload", "none", "fresh", "counters",
                                      "decoded_length"):
            self.error(f"returns {operation.result}, which CuTe kernels do not take yet")
        self._made = [(role, f"memref<{count}x{_ELEMENTS[t]}>",
                       cute.make_rmem_tensor((count,), t)) for role, t, count in made]
        return [(role, site_type, _pointer(tensor.iterator))
                for role, site_type, tensor in self._made]

    def _rank_digit(self, dtype):
        """A radix rank's digit attributes (begin_bit, radix_bits) and
        algorithm, from its compile-time options."""
        given = {}
        for name in ("begin_bit", "end_bit", "radix_bits"):
            value = self.options.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                self.error(f"{name} must be a compile-time int; got {value!r}")
            given[name] = value
        try:
            begin, bits, algorithm = rank_digit(
                self.operation.name, given["begin_bit"], given["end_bit"], given["radix_bits"],
                dtype.width, self.threads, self.attributes.get("algorithm"))
        except ValueError as error:
            raise CoopCompileError(f"{self.where}: {error}") from None
        self.attributes.update(begin_bit=begin, radix_bits=bits, algorithm=algorithm)

    def _dtype_option(self, name, default, allowed):
        given = self.options.get(name)
        if given is None:
            return default
        if given not in allowed:
            self.error(f"{name} must be one of {', '.join(t.__name__ for t in allowed)} "
                       f"(cutlass types); got {given!r}")
        return given

    def _counters(self):
        """(dtype, slots) of a histogram's fresh counters: accumulate's, else
        counter_dtype (Int32) and bins_per_thread (ceil(bins / threads))."""
        bins = self.attributes.get("bins")
        if not bins or bins < 1:
            self.error("needs bins=, the number of bins (a compile-time int >= 1)")
        accumulate = self.options.get("accumulate")
        if accumulate is not None:
            return self._payload_facts(accumulate, "accumulate", scalar=False)
        dtype = self._dtype_option("counter_dtype", cutlass.Int32,
                                   (cutlass.Int32, cutlass.Uint32, cutlass.Int64,
                                    cutlass.Uint64))
        slots = self.options.get("bins_per_thread") or -(-bins // self.threads)
        if slots * self.threads < bins:
            self.error(f"counters of {slots} bins a thread hold {slots * self.threads} in a "
                       f"block of {self.threads}; {bins} bins need bins_per_thread >= "
                       f"{-(-bins // self.threads)}")
        return dtype, slots

    def _literal(self, option, value):
        allowed = option.choices if option.kind == "choice" else (False, True)
        if option.kind == "choice" and isinstance(value, str):
            value = _spellings.choice(value)
        if value is None and option.kind == "choice":
            return None
        if value not in allowed:
            self.error(f"{option.name} must be a compile-time constant, one of "
                       f"{', '.join(map(repr, allowed))}; got {value!r}")
        return value

    def _operator(self, option):
        value = self.options[option.name]
        name = _spellings.operator_name(value)
        if name not in option.choices:
            self.error(f"{option.name} must be one of {', '.join(map(repr, option.choices))} "
                       f"(or an operator function that is one of them) in CuTe kernels; got "
                       f"{value!r}")
        return name

    def _item(self, option, value, dtype):
        if isinstance(value, (bool, int, float)):
            return dtype(value)
        if type(value) is not dtype:
            self.error(f"{option.name} has type {type(value).__name__} but the payload's "
                       f"items are {dtype.__name__}; convert it, e.g. {dtype.__name__}(...)")
        return value

    def _payload_facts(self, value, what, scalar=None):
        """(dtype, items) of a register tensor; (dtype, None) for a scalar."""
        if isinstance(value, cutlass.Numeric):
            if not (self.operation.scalar_value if scalar is None else scalar):
                self.error(f"{what} must be a register tensor (coop.ThreadData(n, dtype) or "
                           f"cute.make_rmem_tensor); got a scalar")
            if type(value) not in _ELEMENTS:
                self.error(f"{what} has unsupported type {type(value).__name__}")
            return type(value), None
        if not isinstance(value, cute.Tensor) or str(value.memspace) != "rmem":
            self.error(f"{what} must be a register tensor (coop.ThreadData(n, dtype) or "
                       f"cute.make_rmem_tensor); got {type(value).__name__}")
        dtype = value.element_type
        if dtype not in _ELEMENTS:
            self.error(f"{what} has items of unsupported type {dtype.__name__}")
        layout = value.layout
        if not cute.is_static(layout):
            self.error(f"{what} needs a static layout")
        items = cute.size(layout)
        if any(layout(i) != i for i in range(items)):
            self.error(f"{what} must hold its items contiguously in order (layout ({items}):(1)); "
                       f"got {layout}")
        return dtype, items

    def _memory(self, role, tensor, dtype, size=None):
        """Memory the op reads or writes: a pointer to its first element, and
        the site's memref of `size` items (the tensor's own static size when
        None)."""
        if not isinstance(tensor, cute.Tensor) or str(tensor.memspace) not in ("gmem", "smem"):
            self.error(f"the {role} must be a global or shared cute.Tensor; got "
                       f"{type(tensor).__name__}")
        if dtype is not None and tensor.element_type is not dtype:
            self.error(f"the {role} holds {tensor.element_type.__name__} but the payload "
                       f"holds {dtype.__name__}")
        dtype = tensor.element_type
        if size is None:
            size = cute.size(tensor.layout)
            if not isinstance(size, int):
                self.error(f"the {role} needs a static size (its layout is {tensor.layout})")
        stride = tensor.layout.stride
        stride = stride[0] if isinstance(stride, tuple) else stride
        if stride != 1:
            self.error(f"the {role} must have unit stride (its tile's items adjacent); got "
                       f"layout {tensor.layout}")
        pointer = tensor.iterator
        offset = self.options.get("offset")
        if offset is not None:
            # The site takes the tile's first element: the offset moves the pointer.
            pointer = pointer + offset
            self.options["offset"] = None
        return role, f"memref<{size}x{_ELEMENTS[dtype]}>", _pointer(pointer)


def _pointer(pointer):
    """A CuTe pointer as the !llvm.ptr CuTe itself lowers it to: a register
    tensor's is its alloca's generic address. (cute.ffi's own conversion
    takes the pointer's integer into the register space's address space,
    where a generic address is wrong: stores through it went astray.)"""
    return pointer.llvm_ptr


class _Group:
    """A site's group: `mlir` is its !coop.group type."""

    def __init__(self, mlir: str):
        self.mlir = mlir

    def __repr__(self) -> str:
        return self.mlir
