"""A cuda.coop call site of a Numba kernel (load, store, exchange, shuffle),
as coop dialect text.

The same description writes two things: the site's own function (lowered by
our passes and linked into Numba's module) and the site's op in the kernel's
skeleton, which the passes plan as a whole (`_kernel_plan.py`). A site that
uses scratch gets its function once the plan has placed it.
"""

from __future__ import annotations

import dataclasses
import hashlib

from ._types import GroupType

SCRATCH_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")


@dataclasses.dataclass(frozen=True)
class Site:
    op: str                  # "load", "store", "exchange" or "shuffle"
    group: GroupType
    algorithm: str
    memory_type: str         # the array's memref type
    payload_type: str        # the payload's static memref type
    element_type: str
    block_dims: tuple[int, int, int]
    has_offset: bool
    has_valid: bool
    has_oob: bool
    storage: str | None      # the coop.temp_storage attributes, None when implicit
    filename: str
    line: int
    col: int
    # exchange and shuffle
    mode: str = ""
    ranks_type: str | None = None    # exchange: the ranks payload's memref type
    flags_type: str | None = None    # exchange: the valid_flags payload's memref type
    time_slicing: bool = False
    has_distance: bool = False       # shuffle
    has_fill: bool = False           # shuffle

    @property
    def uses_scratch(self) -> bool:
        return self.op in ("exchange", "shuffle") or self.algorithm in SCRATCH_ALGORITHMS

    @property
    def scalar_result(self) -> bool:
        """A shuffle of scalars returns the moved value."""
        return self.op == "shuffle" and self.mode in ("offset", "rotate")

    @property
    def value_types(self) -> list[str]:
        """Types of the values a call passes, in order. load/store: memory,
        payload, offset, valid_items, oob_default; exchange: input, output,
        ranks, valid_flags; shuffle: input, output (payloads), distance,
        fill (the ones given)."""
        if self.op == "exchange":
            return [self.payload_type, self.payload_type] + [
                t for t in (self.ranks_type, self.flags_type) if t is not None]
        if self.op == "shuffle":
            types = [self.payload_type] + ([] if self.scalar_result else [self.payload_type])
            types += ["i64"] * self.has_distance
            return types + [self.element_type] * self.has_fill
        types = [self.memory_type, self.payload_type]
        types += ["i64"] * (self.has_offset + self.has_valid)
        if self.has_oob:
            types.append(self.element_type)
        return types

    @property
    def index_positions(self) -> range:
        """Positions in `value_types` of the i64 values the op takes as index."""
        if self.op == "shuffle":
            first = 1 if self.scalar_result else 2
            return range(first, first + self.has_distance)
        if self.op == "exchange":
            return range(0)
        return range(2, 2 + self.has_offset + self.has_valid)

    def op_lines(self, p: str, operands: list[str], storage: str | None,
                 attributes: str = "") -> list[str]:
        """The group ops and the load/store, SSA names prefixed by `p`;
        `operands` are the values of `value_types` as index values where
        they are offsets or counts, `storage` the descriptor's value,
        `attributes` an attribute dictionary for the op."""
        lines = _group_ops(self.group, p)
        loc = f'loc("{self.filename}":{self.line}:{self.col})'
        group = self.group.mlir
        storage_text = f" temp_storage = {storage}" if storage else ""
        if self.op == "exchange":
            source, output, *rest = operands
            ranks = f" ranks = {rest.pop(0)} : {self.ranks_type}" if self.ranks_type else ""
            flags = f" valid_flags = {rest.pop(0)} : {self.flags_type}" if self.flags_type else ""
            sliced = " warp_time_slicing" if self.time_slicing else ""
            lines.append(f"coop.exchange %{p}g, {source} into {output} mode = {self.mode}"
                         f"{ranks}{flags}{sliced}{storage_text} {attributes} : {group}, "
                         f"{self.payload_type}, {self.payload_type} {loc}")
            return lines
        if self.op == "shuffle":
            source, *rest = operands
            into = "" if self.scalar_result else f" into {rest.pop(0)}"
            distance = f" distance = {rest.pop(0)}" if self.has_distance else ""
            fill = f" fill = {rest.pop(0)} : {self.element_type}" if self.has_fill else ""
            types = f"{group}, {self.payload_type}"
            types += f" -> {self.element_type}" if self.scalar_result \
                else f", {self.payload_type}"
            result = f"%{p}r = " if self.scalar_result else ""
            lines.append(f"{result}coop.shuffle %{p}g, {source}{into} mode = {self.mode}"
                         f"{distance}{fill}{storage_text} {attributes} : {types} {loc}")
            return lines
        memory, payload, *rest = operands
        offset = rest.pop(0) if self.has_offset else None
        valid = rest.pop(0) if self.has_valid else None
        oob = rest.pop(0) if self.has_oob else None
        text = f"[{offset}]" if offset else ""
        alg = "" if self.algorithm == "direct" else f" algorithm = {self.algorithm}"
        guard = f" valid_items = {valid}" if valid else ""
        if self.op == "load":
            oob_text = f" oob_default = {oob} : {self.element_type}" if oob else ""
            lines.append(f"coop.load %{p}g, {memory}{text} into {payload}{alg}{guard}{oob_text}"
                         f"{storage_text} {attributes} : {group}, {self.memory_type}, "
                         f"{self.payload_type} "
                         f"{loc}")
        else:
            lines.append(f"coop.store %{p}g, {payload} into {memory}{text}{alg}{guard}"
                         f"{storage_text} {attributes} : {group}, {self.payload_type}, "
                         f"{self.memory_type} "
                         f"{loc}")
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
        if self.storage is not None:
            body.append(f"%ts = coop.temp_storage {self.storage}")
        attributes = ""
        x, y, z = self.block_dims
        function_attributes = [f"gpu.known_block_size = array<i32: {x}, {y}, {z}>"]
        if placement is not None:
            attributes = f"{{coop.scratch_offset = {placement.offset} : i64}}"
            function_attributes += [f"coop.scratch_size = {placement.size} : i64",
                                    f"coop.scratch_alignment = {placement.alignment} : i64"]
            if placement.dynamic:
                function_attributes.append("coop.dynamic_shared_memory")
        body += self.op_lines("", operands, "%ts" if self.storage is not None else None,
                              attributes)
        signature = ", ".join(params)
        text = "\n    ".join(body)
        key = f"{signature}{text}{self.block_dims}{placement}"
        name = f"__coop_{self.op}_{hashlib.sha1(key.encode()).hexdigest()[:16]}"
        results, returned = "", "return"
        if self.scalar_result:
            results, returned = f" -> {self.element_type}", f"return %r : {self.element_type}"
        return name, (f"func.func private @{name}({signature}){results} attributes "
                      f"{{{', '.join(function_attributes)}}} {{\n"
                      f"    {text}\n    {returned}\n}}\n")

    def declaration(self, name: str) -> tuple[str, str]:
        """A bodiless function, named after the unplaced site function
        `name`, for the call to name until the kernel plan places the site
        and supplies the real function."""
        name = name.replace("__coop_", "__coop_unplanned_", 1)
        results = f" -> {self.element_type}" if self.scalar_result else ""
        return name, f"func.func private @{name}({', '.join(self.value_types)}){results}\n"


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where a site's scratch is in its kernel's buffer."""
    buffer: str      # the kernel's workgroup global
    size: int        # the buffer's bytes
    alignment: int
    dynamic: bool    # dynamic shared memory (past 48 KiB) instead of the global
    offset: int      # the site's slice


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
