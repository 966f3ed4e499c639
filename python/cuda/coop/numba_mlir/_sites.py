"""A cuda.coop call site of a Numba kernel, as coop dialect text.

The same description writes two things: the site's own function (lowered by
our passes and linked into Numba's module) and the site's op in the kernel's
skeleton, which the passes plan as a whole (`_kernel_plan.py`). A site that
uses scratch gets its function once the plan has placed it.
"""

from __future__ import annotations

import dataclasses
import hashlib

from ._operations import BY_NAME, Operation
from ._operators import OperatorFunction
from ._types import GroupType


@dataclasses.dataclass(frozen=True)
class Site:
    op: str                  # the operation's name in the table
    group: GroupType
    operands: tuple[tuple[str, str], ...]    # (role, type) of each value the call passes
    attributes: tuple[tuple[str, object], ...]  # compile-time options given
    element_type: str
    block_dims: tuple[int, int, int]
    storage: str | None      # the coop.temp_storage attributes, None when implicit
    filename: str
    line: int
    col: int
    result_types: tuple[str, ...] = ()   # the op's results (scalars)
    # The word type the caller's payloads keep items in when it is not the
    # item type (Numba's i16 for float16): the op's payloads (`value`,
    # `output`, typed with items in `operands`) are copies.
    item_storage: str | None = None

    @property
    def operation(self) -> Operation:
        return BY_NAME[self.op]

    def attribute(self, name: str):
        """A compile-time option's value, or its default (None for an
        attribute that is not an option)."""
        return dict(self.attributes).get(name, self.operation.default(name))

    def type_of(self, role: str) -> str:
        return dict(self.operands)[role]

    @property
    def uses_scratch(self) -> bool:
        return self.operation.uses_scratch(self)

    @property
    def value_types(self) -> list[str]:
        """Types of the values the call passes, in order (index operands as
        the i64 Numba passes)."""
        return [self._stored(role, t) for role, t in self.operands]

    @property
    def op_types(self) -> list[str]:
        """Types of the values as the site's op takes them."""
        return [t for _, t in self.operands]

    def _stored(self, role: str, op_type: str) -> str:
        """The type the caller passes for an operand the op takes as `op_type`."""
        if self.item_storage is None or role not in _COPIED_ROLES:
            return op_type
        return op_type.replace(f"x{self.element_type}>", f"x{self.item_storage}>")

    @property
    def index_positions(self) -> list[int]:
        """Positions in `value_types` of the values the op takes as index."""
        roles = self.operation.index_roles
        return [i for i, (role, _) in enumerate(self.operands) if role in roles]

    def op_lines(self, p: str, operands: list[str], storage: str | None,
                 attributes: str = "") -> list[str]:
        """The group ops and the site's op, SSA names prefixed by `p`;
        `operands` are the values of `value_types` (as index values where
        they are offsets or counts), `storage` the descriptor's value,
        `attributes` an attribute dictionary for the op."""
        lines = _group_ops(self.group, p)
        loc = f'loc("{self.filename}":{self.line}:{self.col})'
        names = {role: name for (role, _), name in zip(self.operands, operands)}
        names["result"] = f"%{p}r"
        lines.append(self.operation.assembly(self, names, f"%{p}g", storage, attributes, loc))
        return lines

    def function(self, placement: Placement | None = None) -> tuple[str, str]:
        """The site function's name and text. A scratch-using site is
        written with its `placement` in the kernel's scratch (the kernel
        plan's buffer, size, alignment and this site's offset); without one,
        the text only serves to check the call (`coop-plan-scratch`)."""
        params = [f"%a{i}: {t}" for i, t in enumerate(self.value_types)]
        operands = [f"%a{i}" for i in range(len(params))]
        body = []
        for i in self.index_positions:
            body.append(f"%i{i} = arith.index_cast %a{i} : i64 to index")
            operands[i] = f"%i{i}"
        copies = []
        for i, (role, op_type) in enumerate(self.operands):
            if self.item_storage is not None and role in _COPIED_ROLES:
                body += _copy_payload(f"%a{i}", f"%p{i}", self.value_types[i], op_type,
                                      role == "value", self.item_storage, self.element_type)
                if role == "output":
                    copies += _copy_payload(f"%p{i}", f"%a{i}", op_type, self.value_types[i],
                                            True, self.element_type, self.item_storage,
                                            allocate=False)
                operands[i] = f"%p{i}"
        if self.storage is not None:
            body.append(f"%ts = coop.temp_storage {self.storage}")
        attributes = ""
        x, y, z = self.block_dims
        function_attributes = [f"gpu.known_block_size = array<i32: {x}, {y}, {z}>"]
        if placement is not None:
            attributes = f"{{coop.scratch_offset = {placement.offset} : i64}}"
            function_attributes += [f"coop.scratch_size = {placement.size} : i64",
                                    f"coop.scratch_alignment = {placement.alignment} : i64",
                                    f'coop.scratch_symbol = "{placement.buffer}"']
            if placement.dynamic:
                function_attributes.append("coop.dynamic_shared_memory")
        body += self.op_lines("", operands, "%ts" if self.storage is not None else None,
                              attributes)
        body += copies
        signature = ", ".join(params)
        text = "\n    ".join(body)
        key = f"{signature}{text}{self.block_dims}{placement}"
        name = f"__coop_{self.op}_{hashlib.sha1(key.encode()).hexdigest()[:16]}"
        results, returned = self._results(), "return"
        if len(self.result_types) == 1:
            returned = f"return %r : {self.result_types[0]}"
        elif self.result_types:
            values = ", ".join(f"%r#{i}" for i in range(len(self.result_types)))
            returned = f"return {values} : {', '.join(self.result_types)}"
        # Operator and prefix functions are Numba's, linked into the kernel's
        # module before the site: the site only declares them.
        operators = "".join(value.declaration for _, value in self.attributes
                            if isinstance(value, OperatorFunction))
        return name, (f"{operators}func.func private @{name}({signature}){results} "
                      f"attributes {{{', '.join(function_attributes)}}} {{\n"
                      f"    {text}\n    {returned}\n}}\n")

    def declaration(self, name: str) -> tuple[str, str]:
        """A bodiless function, named after the unplaced site function
        `name`, for the call to name until the kernel plan places the site
        and supplies the real function."""
        name = name.replace("__coop_", "__coop_unplanned_", 1)
        return name, (f"func.func private @{name}({', '.join(self.value_types)})"
                      f"{self._results()}\n")

    def _results(self) -> str:
        if not self.result_types:
            return ""
        if len(self.result_types) == 1:
            return f" -> {self.result_types[0]}"
        return f" -> ({', '.join(self.result_types)})"


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where a site's scratch is in its kernel's buffer."""
    buffer: str      # the kernel's workgroup global
    size: int        # the buffer's bytes
    alignment: int
    dynamic: bool    # dynamic shared memory (past 48 KiB) instead of the global
    offset: int      # the site's slice


# Payload roles whose items the op reads or writes as items.
_COPIED_ROLES = ("value", "output")


def _copy_payload(source: str, target: str, source_type: str, target_type: str,
                  copy_items: bool, source_item: str, target_item: str,
                  allocate: bool = True) -> list[str]:
    """Lines that allocate `target` (a payload of `target_type`) and, with
    `copy_items`, fill it with `source`'s items bitcast to the target's item
    type. The copies stay in registers once promoted."""
    lines = [f"{target} = memref.alloca() : {target_type}"] if allocate else []
    if not copy_items:
        return lines
    count = int(source_type.split("<", 1)[1].split("x", 1)[0])
    for k in range(count):
        name = f"{target[1:]}_{k}"
        lines += [f"%{name}i = arith.constant {k} : index",
                  f"%{name}s = memref.load {source}[%{name}i] : {source_type}",
                  f"%{name}t = arith.bitcast %{name}s : {source_item} to {target_item}",
                  f"memref.store %{name}t, {target}[%{name}i] : {target_type}"]
    return lines


def barrier_function(group: GroupType, block_dims) -> tuple[str, str]:
    """A function with one barrier of `group`, for the reuse barriers the
    kernel plan places."""
    body = "\n    ".join(_group_ops(group, "") + [f"coop.barrier %g : {group.mlir}"])
    x, y, z = block_dims
    digest = hashlib.sha1(f"{body}{block_dims}".encode()).hexdigest()[:16]
    name = f"__coop_barrier_{digest}"
    return name, (f"func.func private @{name}() attributes "
                  f"{{gpu.known_block_size = array<i32: {x}, {y}, {z}>}} {{\n"
                  f"    {body}\n    return\n}}\n")


def _group_ops(group: GroupType, p: str) -> list[str]:
    """The dialect ops that make the group %{p}g."""
    if group.kind == "threads_within_warp":
        return [f"%{p}w = coop.this_warp",
                f"%{p}g = coop.group_by %{p}w : !coop.group<warp> -> {group.mlir}"]
    if group.kind == "warps_within_block":
        return [f"%{p}b = coop.this_block",
                f"%{p}g = coop.group_by %{p}b : !coop.group<block> -> {group.mlir}"]
    return [f"%{p}g = coop.this_{group.kind}"]
