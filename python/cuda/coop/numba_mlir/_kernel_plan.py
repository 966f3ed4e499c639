"""Whole-kernel scratch planning for Numba kernels.

Each scratch-using call site is first a call of a declaration (`_sites.py`).
Before Numba optimizes a kernel, this module plans all its sites together
with our passes, without handing Numba's IR to our MLIR (the two MLIRs share
no IR: only IR that ours prints, in generic form, is parsed into Numba's;
docs/numba.md):

1. it describes the kernel's skeleton as data: the same blocks and
   branches, each site (`Site.data()`), the kernel's own block barriers, and
   which sites share a temp storage descriptor;
2. our C API builds the skeleton's function, plans it (`coop-plan-scratch`,
   `coop-insert-barriers`) and returns the plan as data: every slice and the
   reuse barriers the plan needs (none between a transpose load and its
   matching store, or between raking scans of one tile; a shared
   descriptor's uses share one slice);
3. it patches Numba's kernel: each call now names its site function lowered
   with the plan's offset into one workgroup buffer of the planned size, named
   by the site function's `coop.scratch_symbol` (or dynamic shared memory past
   48 KiB, requested from the launch), and a call to a barrier function goes
   where the plan put a barrier.
"""

from __future__ import annotations

import dataclasses
import math

from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import func

from .. import _compiler
from ._errors import CoopCompileError
from ._numba import (REQUIRED_DYNAMIC_SHARED_MEMORY_KEY, link_target, link_whole_program,
                     mlir_context, translate_exact_blocks, wrap_optimize)
from ._passes import link_into, lower_site, raise_diagnostics, target_sm
from .._sites import Placement, Site, barrier_site
from ._types import GroupType

STORAGE_ATTR = "coop.storage"  # on a site's call: its descriptor, "" when implicit

# A kernel's static shared memory may not exceed this (CUDA's limit without
# the dynamic opt-in); our plan's buffer counts against it with the kernel's
# own static shared arrays.
STATIC_SHARED_MEMORY_LIMIT = 48 * 1024

_sites: dict[str, Site] = {}  # site function name -> the site it lowers


PLANNED_KEY = "coop_scratch_sites"  # compile metadata: the compile has sites to plan


BLOCK_KEY = "coop_block_dims"  # compile metadata: the launch's block of a coop kernel


EXACT_BLOCK_KEY = "coop_exact_block"  # compile metadata: the kernel gets `.reqntid`

def mark_site(call, site: Site, facts: dict, storage_key: str | None, metadata: dict) -> None:
    """Records a lowered call of `site` for the kernel plan; `facts` are what
    its op says of itself (`_passes.describe_site`)."""
    metadata[BLOCK_KEY] = site.block_dims
    if facts["exact_block"]:
        metadata[EXACT_BLOCK_KEY] = True
    if not facts["uses_scratch"]:
        return
    _sites[ir.FlatSymbolRefAttr(call.attributes["callee"]).value] = site
    call.attributes[STORAGE_ATTR] = ir.StringAttr.get(storage_key or "")
    metadata[PLANNED_KEY] = True


def install() -> None:
    """Plans every coop kernel's scratch before Numba optimizes it and has
    its code generated for the whole program (`link_whole_program`) and its
    block (`bound_kernels`)."""

    def plan(cres):
        module = cres.metadata.get("mlir_module")
        # Only compiles that lowered a coop site walk their module.
        if module is None or BLOCK_KEY not in cres.metadata:
            return
        link_whole_program(cres)
        with mlir_context(), ir.Location.unknown():
            bound_kernels(module, cres.metadata[BLOCK_KEY],
                          exact=cres.metadata.get(EXACT_BLOCK_KEY, False))
            if cres.metadata.get(PLANNED_KEY):
                plan_module(module, cres.metadata)

    wrap_optimize(plan)
    translate_exact_blocks()


def bound_kernels(module, block_dims, exact: bool) -> None:
    """Gives a coop kernel its launch bounds (`.maxntid` in PTX), as CUB's
    kernels have with __launch_bounds__: the kernel is specialized for its
    block, and ptxas then keeps its registers within what the block can
    launch with (without, a 1024-thread raking scan takes 75 registers and
    cannot launch).

    `exact` (a raking site) says more, `.reqntid`: the block is exact, as
    Numba-CUDA-MLIR compiles a coop kernel per launch configuration, and with
    every warp known full ptxas drops the divergence checks and warp syncs
    around the raking warp's shuffles (raking loops 2.5-8.6% faster, the
    8-byte ones back to 32 registers). Not for every kernel: ptxas then also
    predicates warp 0's fold of `warp_reductions` instead of branching
    around it (int32 reductions 9% slower) and takes a register more in
    some 1024-thread `warp_scans` (docs/numba.md).
    `translate_exact_blocks` carries `nvvm.reqntid` through Numba-CUDA-
    MLIR's LLVM 7 translation."""
    bounds = ir.DenseI32ArrayAttr.get(list(block_dims))
    # PTX takes one of the two directives, not both.
    name = "nvvm.reqntid" if exact else "nvvm.maxntid"

    def visit(op):
        if op.name == "gpu.func" and "kernel" in op.attributes:
            op.attributes[name] = bounds
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)


def plan_module(module, metadata: dict) -> None:
    functions = []

    def visit(op):
        if op.name in ("gpu.func", "func.func"):
            sites = _marked_calls(op)
            if sites:
                functions.append((op, sites))
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    for function, sites in functions:
        _plan_function(module, function, sites, metadata)
    if functions:
        _erase_declarations(module)


def _marked_calls(function) -> list:
    calls = []

    def visit(op):
        if op.name == "func.call" and STORAGE_ATTR in op.attributes:
            calls.append(op.opview)
        return ir.WalkResult.ADVANCE

    function.walk(visit)
    return calls


def _callee(call) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def _plan_function(module, function, calls, metadata: dict) -> None:
    sites = [_sites[_callee(call)] for call in calls]
    body = function.regions[0]
    for call, site in zip(calls, sites):
        if call.operation.parent != function:
            raise CoopCompileError(
                f"{site.filename}:{site.line}: cuda.coop cannot plan scratch for a call "
                f"nested in {call.operation.parent.name}; call it from the kernel's own "
                "control flow")
    # A kernel runs once per thread; any other function may be called again
    # while its scratch is still being read.
    skeleton = _skeleton(body, calls, sites)
    plan = _plan_kernel(skeleton, sites, function.name != "gpu.func")
    _patch(module, function, calls, sites, plan, metadata)


@dataclasses.dataclass(frozen=True)
class KernelPlan:
    """What our C API planned for a kernel skeleton."""
    size: int                # bytes of the kernel's scratch buffer
    alignment: int
    dynamic: bool            # dynamic shared memory (past 48 KiB)
    offsets: dict[int, int]  # site -> byte offset of its slice
    # (site, "before" | "after", "site" | "block"): a barrier of the site's
    # group or of the block, next to the site.
    barriers: list[tuple[int, str, str]]


def _plan_kernel(skeleton, sites, repeated: bool) -> KernelPlan:
    storage_of, blocks = skeleton
    try:
        plan = _compiler.plan_skeleton([site.data() for site in sites], storage_of, blocks,
                                       repeated=repeated, source_name=sites[0].filename)
    except _compiler.PipelineError as error:
        raise_diagnostics(error)
    offsets = {k: offset for k, offset in enumerate(plan["offsets"]) if offset is not None}
    return KernelPlan(size=plan["size"], alignment=plan["alignment"],
                      dynamic=plan["dynamic"], offsets=offsets,
                      barriers=[tuple(b) for b in plan["barriers"]])


def _skeleton(body, calls, sites) -> tuple[list[int], list[tuple]]:
    """The kernel's control flow with only its sites and block barriers:
    each site's temp storage descriptor (an index, -1 when implicit) and
    each block's entries (a site's index, -1 for a block barrier) and
    successors."""
    blocks = list(body.blocks)
    number = {block: i for i, block in enumerate(blocks)}
    site_of = {call.operation: k for k, call in enumerate(calls)}
    descriptors: dict[str, int] = {}
    storage_of = []
    for call, site in zip(calls, sites):
        key = ir.StringAttr(call.operation.attributes[STORAGE_ATTR]).value
        storage_of.append(descriptors.setdefault(key, len(descriptors))
                          if site.storage is not None else -1)
    described = []
    for block in blocks:
        entries = []
        for op in block.operations:
            operation = op.operation
            if operation in site_of:
                entries.append(site_of[operation])
            elif operation.name == "gpu.barrier":
                entries.append(-1)
        terminator = block.operations[len(block.operations) - 1].operation
        described.append((entries, [number[s] for s in terminator.successors]))
    return storage_of, described


def _patch(module, function, calls, sites, plan: KernelPlan, metadata: dict) -> None:
    """Points each call at its placed site function and adds the planned
    barriers."""
    # One buffer per kernel, named after it; every placed site function of
    # the kernel names it as its scratch symbol.
    buffer = "__coop_scratch_" + ir.StringAttr(function.attributes["sym_name"]).value
    _check_own_shared_arrays(module, sites[0], plan)
    if plan.dynamic:
        _check_dynamic_shared_memory(function, sites[0])
        metadata[REQUIRED_DYNAMIC_SHARED_MEMORY_KEY] = max(
            metadata.get(REQUIRED_DYNAMIC_SHARED_MEMORY_KEY, 0), plan.size)
    for k, (call, site) in enumerate(zip(calls, sites)):
        placement = Placement(buffer=buffer, size=plan.size, alignment=plan.alignment,
                              dynamic=plan.dynamic, offset=plan.offsets[k])
        data = site.data(placement)
        link_into(module, lower_site(data, "placed", dataclasses.astuple(placement),
                                     target_sm(metadata)))
        call.attributes["callee"] = ir.FlatSymbolRefAttr.get(data[0])
        del call.attributes[STORAGE_ATTR]

    for k, where, scope in plan.barriers:
        call = calls[k]
        group = sites[k].group if scope == "site" else GroupType("block")
        barrier = barrier_site(group, sites[k].block_dims)
        link_into(module, lower_site(barrier, "lower"))
        at = call if where == "before" else _next_op(call)
        with ir.InsertionPoint(at), call.location:
            func.call([], barrier[0], [])


def _check_own_shared_arrays(module, site: Site, plan: KernelPlan) -> None:
    """The kernel's own static shared arrays share the 48 KiB of static
    shared memory with our buffer, and cannot sit beside dynamic shared
    memory: Numba-CUDA-MLIR's (a zero-size shared variable, which ptxas
    places among the static ones, not after them) overlapped a static
    array on an H100, so scratch past 48 KiB needs a kernel without them."""
    own = _static_shared_bytes(module)
    if not own or (not plan.dynamic and own + plan.size <= STATIC_SHARED_MEMORY_LIMIT):
        return
    raise CoopCompileError(
        f"{site.filename}:{site.line}: cuda.coop's scratch for this kernel ({plan.size} "
        f"bytes) and the kernel's own static shared arrays ({own} bytes) exceed the 48 KiB "
        "of static shared memory, and scratch in dynamic shared memory would overlap those "
        "arrays; use fewer items per thread, a smaller block or smaller shared arrays")


def _static_shared_bytes(module) -> int:
    """Bytes of the module's own static shared arrays (Numba's workgroup
    `memref.global`s; ours are not linked yet), each at its alignment. Every
    array of the module counts, the kernel's and its device functions'."""
    total = 0
    for op in link_target(module).operations:
        operation = op.operation
        if operation.name != "memref.global":
            continue
        kind = ir.MemRefType(ir.TypeAttr(operation.attributes["type"]).value)
        if kind.memory_space is None or "workgroup" not in str(kind.memory_space):
            continue
        alignment = (ir.IntegerAttr(operation.attributes["alignment"]).value
                     if "alignment" in operation.attributes else 1)
        total = -(-total // alignment) * alignment
        total += math.prod(kind.shape) * max(1, kind.element_type.width // 8)
    return total


def _check_dynamic_shared_memory(function, site: Site) -> None:
    uses = []

    def visit(op):
        if op.name == "gpu.dynamic_shared_memory":
            uses.append(op)
        return ir.WalkResult.ADVANCE

    function.walk(visit)
    if uses:
        raise CoopCompileError(
            f"{site.filename}:{site.line}: cuda.coop's scratch for this kernel is past 48 KiB, "
            "so it needs dynamic shared memory, which the kernel also uses for its own "
            "dynamic shared arrays; use fewer items per thread or a smaller block, or "
            "static shared arrays")


def _next_op(call):
    ops = list(call.operation.block.operations)
    index = next(i for i, op in enumerate(ops) if op.operation == call.operation)
    return ops[index + 1]


def _erase_declarations(module) -> None:
    """Erases the stand-in declarations; every call now names its placed
    site function."""
    for op in list(link_target(module).operations):
        name = op.operation.attributes["sym_name"] \
            if "sym_name" in op.operation.attributes else None
        if op.operation.name == "func.func" and name is not None and \
                ir.StringAttr(name).value.startswith("__coop_unplanned_"):
            op.operation.erase()
