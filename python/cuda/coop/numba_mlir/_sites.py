"""A coop.load or coop.store call site of a Numba kernel, as coop dialect text.

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
    op: str                  # "load" or "store"
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

    @property
    def uses_scratch(self) -> bool:
        return self.algorithm in SCRATCH_ALGORITHMS

    @property
    def value_types(self) -> list[str]:
        """Types of the values a call passes, in order: memory, payload,
        offset, valid_items, oob_default (the ones given)."""
        types = [self.memory_type, self.payload_type]
        types += ["i64"] * (self.has_offset + self.has_valid)
        if self.has_oob:
            types.append(self.element_type)
        return types

    def op_lines(self, p: str, operands: list[str], storage: str | None,
                 attributes: str = "") -> list[str]:
        """The group ops and the load/store, SSA names prefixed by `p`;
        `operands` are the values of `value_types` as index values where
        they are offsets or counts, `storage` the descriptor's value,
        `attributes` an attribute dictionary for the op."""
        lines = _group_ops(self.group, p)
        memory, payload, *rest = operands
        offset = rest.pop(0) if self.has_offset else None
        valid = rest.pop(0) if self.has_valid else None
        oob = rest.pop(0) if self.has_oob else None
        text = f"[{offset}]" if offset else ""
        alg = "" if self.algorithm == "direct" else f" algorithm = {self.algorithm}"
        guard = f" valid_items = {valid}" if valid else ""
        storage_text = f" temp_storage = {storage}" if storage else ""
        loc = f'loc("{self.filename}":{self.line}:{self.col})'
        group = self.group.mlir
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
        for i in range(2, len(operands) - self.has_oob):
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
        return name, (f"func.func private @{name}({signature}) attributes "
                      f"{{{', '.join(function_attributes)}}} {{\n"
                      f"    {text}\n    return\n}}\n")

    def declaration(self, name: str) -> tuple[str, str]:
        """A bodiless function, named after the unplaced site function
        `name`, for the call to name until the kernel plan places the site
        and supplies the real function."""
        name = name.replace("__coop_", "__coop_unplanned_", 1)
        return name, f"func.func private @{name}({', '.join(self.value_types)})\n"


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
