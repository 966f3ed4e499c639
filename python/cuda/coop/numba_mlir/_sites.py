"""A coop.load or coop.store call site of a Numba kernel, as coop dialect text.

The same description writes two things: the site's own function (lowered by
our passes and linked into Numba's module) and the site's op in the kernel's
skeleton, which the passes plan as a whole (`_kernel_plan.py`).
"""

from __future__ import annotations

import dataclasses
import hashlib

from ._types import GroupType

SCRATCH_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")
SCRATCH_TYPE = "memref<?xi8, #gpu.address_space<workgroup>>"


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

    def function(self) -> tuple[str, str]:
        """The site function's name and text. A scratch-using site takes its
        slice of the kernel's scratch as its last argument (`coop.scratch`);
        the kernel plan decides where that slice is and which barriers
        protect its reuse."""
        params = [f"%a{i}: {t}" for i, t in enumerate(self.value_types)]
        operands = [f"%a{i}" for i in range(len(params))]
        body = []
        for i in range(2, len(operands) - self.has_oob):
            body.append(f"%i{i} = arith.index_cast %a{i} : i64 to index")
            operands[i] = f"%i{i}"
        if self.storage is not None:
            body.append(f"%ts = coop.temp_storage {self.storage}")
        body += self.op_lines("", operands, "%ts" if self.storage is not None else None)
        if self.uses_scratch:
            params.append(f"%scratch: {SCRATCH_TYPE} {{coop.scratch}}")
        signature = ", ".join(params)
        text = "\n    ".join(body)
        digest = hashlib.sha1(f"{signature}{text}{self.block_dims}".encode()).hexdigest()[:16]
        name = f"__coop_{self.op}_{digest}"
        x, y, z = self.block_dims
        return name, (f"func.func private @{name}({signature}) attributes "
                      f"{{gpu.known_block_size = array<i32: {x}, {y}, {z}>}} {{\n"
                      f"    {text}\n    return\n}}\n")


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
