"""A cuda.coop call site of a kernel, described as data.

The description names the site's op in the coop dialect and gives its
operands (types, in the op's ODS order), attributes (MLIR attribute values
made from the op's ODS table, `cuda.coop._ods`), results, group, temp storage
and source location. Our C API builds the op from it through the op's
registered definition and lowers it into the site's function, which the
backend links into its kernel: Numba's module takes it as MLIR, after its
kernel plan (`numba_mlir/_kernel_plan.py`) placed the site's scratch; CuTe
DSL's takes it as LLVM bitcode (`cute/_sites.py`).
"""

from __future__ import annotations

import dataclasses
import hashlib

from . import _ods
from ._errors import CoopCompileError
from ._operations import BY_NAME, Operation


@dataclasses.dataclass(frozen=True, order=True)
class OperatorFunction:
    """A compiled function as a site names and declares it (MLIR types)."""
    symbol: str
    parameters: tuple[str, ...]
    result: str

    @property
    def function_type(self) -> str:
        return f"({', '.join(self.parameters)}) -> {self.result}"


@dataclasses.dataclass(frozen=True)
class Site:
    op: str                  # the operation's name in the table
    group: object            # the backend's group type; its `mlir` is the !coop.group
    operands: tuple[tuple[str, str], ...]    # (role, type) of each value the call passes
    attributes: tuple[tuple[str, object], ...]  # compile-time options given
    element_type: str
    block_dims: tuple[int, int, int]
    # The coop.temp_storage op's attributes (ODS name, value), None when implicit.
    storage: tuple[tuple[str, object], ...] | None
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

    @property
    def value_types(self) -> list[str]:
        """Types of the values the call passes, in order (index operands as
        the i64 Numba passes)."""
        return [self._stored(role, t) for role, t in self.operands]

    def _stored(self, role: str, op_type: str) -> str:
        """The type the caller passes for an operand the op takes as `op_type`."""
        if self.item_storage is None or role not in ITEM_ROLES:
            return op_type
        return op_type.replace(f"x{self.element_type}>", f"x{self.item_storage}>")

    def data(self, placement: Placement | None = None) -> tuple:
        """The site as `cuda.coop._compiler.lower_site` takes it: (function
        name, op, operands, attributes, result types, storage attributes,
        declared functions, block, file, line, column). The function's name
        tells apart sites that differ in anything, their location and their
        `placement` in the kernel's scratch included."""
        operation = self.operation
        spec = _ods.OPS[operation.dialect_op]
        by_ods = {operation.ods_name(role): (i, role, t)
                  for i, (role, t) in enumerate(self.operands)}
        operands = []
        for name, _ in spec["operands"]:
            if name == operation.ods_name("group"):
                operands.append((name, self.group.mlir, None, -1))
            elif name == operation.ods_name("temp_storage"):
                operands.append((name, "!coop.temp_storage" if self.storage is not None
                                 else None, None, -1))
            elif name in by_ods:
                # The site function takes the values in the call's order.
                i, role, op_type = by_ods[name]
                passed = self.value_types[i]
                if role in operation.index_roles:
                    operands.append((name, "index", passed, i))
                else:
                    operands.append((name, op_type, None if passed == op_type else passed, i))
            else:
                operands.append((name, None, None, -1))
        attributes = []
        for option, value in self.attributes:
            name = operation.ods_name(option, isinstance(value, OperatorFunction))
            text = attribute_value(spec, name, value, self)
            if text is not None:
                attributes.append((name, text))
        storage = ()
        if self.storage is not None:
            storage = tuple((name, text) for name, value in self.storage
                            if (text := attribute_value(_ods.OPS["coop.temp_storage"], name,
                                                        value, self)) is not None)
        functions = tuple((value.symbol, value.function_type) for _, value in self.attributes
                          if isinstance(value, OperatorFunction))
        body = (operation.dialect_op, tuple(operands), tuple(attributes), self.result_types,
                storage, functions, self.block_dims)
        location = (self.filename, self.line, self.col)
        digest = hashlib.sha1(repr((body, location, placement)).encode()).hexdigest()[:16]
        return (f"__coop_{self.op}_{digest}",) + body + location

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


def attribute_value(spec: dict, name: str, value, site) -> str | None:
    """`value` of attribute `name` of the op `spec` describes (an entry of
    `_ods.OPS`), in MLIR attribute syntax; None where the op leaves it out
    (an unset flag, an enum's default)."""
    attribute = dict(spec["attributes"]).get(name)
    if attribute is None:
        raise CoopCompileError(f"{site.filename}:{site.line}: internal error: the op has no "
                               f"attribute {name!r}")
    kind = attribute["kind"]
    if value is None or value is False:
        return None
    if kind == "enum":
        if value == attribute.get("default"):
            return None
        return f"#coop<{_ods.ENUMS[attribute['enum']]['mnemonic']} {value}>"
    if kind == "unit":
        return "unit"
    if kind == "symbol":
        return f'@"{value.symbol}"'
    if kind == "integer":
        return f"{int(value)} : i64"
    raise CoopCompileError(f"{site.filename}:{site.line}: internal error: no site value for "
                           f"an attribute of kind {kind!r}")


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where a site's scratch is in its kernel's buffer."""
    buffer: str      # the kernel's workgroup global
    size: int        # the buffer's bytes
    alignment: int
    dynamic: bool    # dynamic shared memory (past 48 KiB) instead of the global
    offset: int      # the site's slice


# Payload roles whose items the op reads or writes as items (and a caller
# may keep in storage words): the other payloads (ranks, positions, values,
# flags) have types of their own.
ITEM_ROLES = ("value", "output")


def barrier_site(group, block_dims) -> tuple:
    """A site of one barrier of `group`, for the reuse barriers the kernel
    plan places (`Site.data()`'s tuple, with no location of its own)."""
    body = ("coop.barrier", (("group", group.mlir, None, -1),), (), (), (), (),
            tuple(block_dims))
    digest = hashlib.sha1(repr(body).encode()).hexdigest()[:16]
    return (f"__coop_barrier_{digest}",) + body + ("", 0, 0)
