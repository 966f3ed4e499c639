"""Whole-kernel scratch planning for Numba kernels.

Each scratch-using call site is first a call of a declaration (`_sites.py`).
Before Numba optimizes a kernel, this module plans all its sites together
with our passes, without handing Numba's IR to our MLIR (DESIGN.md: the two
MLIRs do not share IR):

1. it writes the kernel's skeleton in the coop dialect: the same blocks and
   branches, each site as its coop.load/coop.store, the kernel's own block
   barriers, and the launch's block size;
2. our C API plans it (`coop-plan-scratch,coop-insert-barriers`) and returns
   the plan as data: every slice and the reuse barriers the plan needs (none
   between a transpose load and its matching store; a shared descriptor's
   uses share one slice);
3. it patches Numba's kernel: each call now names its site function lowered
   with the plan's offset into one workgroup buffer of the planned size, named
   by the site function's `coop.scratch_symbol` (or dynamic shared memory past
   48 KiB, requested from the launch), and a call to a barrier function goes
   where the plan put a barrier.
"""

from __future__ import annotations

import dataclasses

from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import func

from .. import _compiler
from ._errors import CoopCompileError
from ._numba import (REQUIRED_DYNAMIC_SHARED_MEMORY_KEY, link_target, link_whole_program,
                     mlir_context, translate_exact_blocks, wrap_optimize)
from ._passes import PLACED_PIPELINE, link_into, raise_diagnostics, run_passes, target_sm
from ._sites import Placement, Site, barrier_function
from ._types import GroupType

STORAGE_ATTR = "coop.storage"  # on a site's call: its descriptor, "" when implicit

_sites: dict[str, Site] = {}  # site function name -> the site it lowers


PLANNED_KEY = "coop_scratch_sites"  # compile metadata: the compile has sites to plan


BLOCK_KEY = "coop_block_dims"  # compile metadata: the launch's block of a coop kernel


EXACT_BLOCK_KEY = "coop_exact_block"  # compile metadata: the kernel gets `.reqntid`

# CUB's raking algorithms reduce or scan in one warp's branch (the raking
# warp): ptxas cannot prove that branch warp-uniform without knowing every
# warp full, and guards its shuffles with divergence checks and warp syncs.
# Only block groups take an algorithm (the verifier rejects it on a warp).
_RAKING = frozenset({"raking", "raking_memoize", "raking_commutative_only"})


def mark_site(call, site: Site, storage_key: str | None, metadata: dict) -> None:
    """Records a lowered call of `site` for the kernel plan."""
    metadata[BLOCK_KEY] = site.block_dims
    if site.attribute("algorithm") in _RAKING:
        metadata[EXACT_BLOCK_KEY] = True
    if not site.uses_scratch:
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
    some 1024-thread `warp_scans` (docs/performance.md, session 22).
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
    text = _skeleton(body, calls, sites, repeated=function.name != "gpu.func")
    plan = _plan_kernel(text, sites[0].filename, len(sites))
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


def _plan_kernel(text: str, filename: str, sites: int) -> KernelPlan:
    try:
        plan = _compiler.plan_kernel(text, source_name=filename, sites=sites)
    except _compiler.PipelineError as error:
        raise_diagnostics(error)
    offsets = {k: offset for k, offset in enumerate(plan["offsets"]) if offset is not None}
    return KernelPlan(size=plan["size"], alignment=plan["alignment"],
                      dynamic=plan["dynamic"], offsets=offsets,
                      barriers=[tuple(b) for b in plan["barriers"]])


def _skeleton(body, calls, sites, repeated: bool = False) -> str:
    """The kernel's control flow with only its sites and block barriers, in
    the coop dialect. `repeated` adds an edge from every return back to the
    start, for a function that may run more than once."""
    blocks = list(body.blocks)
    label = {block: f"^bb{i + repeated}" for i, block in enumerate(blocks)}
    site_of = {call.operation: k for k, call in enumerate(calls)}
    params, storages, lines = [], {}, []
    for k, site in enumerate(sites):
        types = [("index" if i in site.index_positions else t)
                 for i, t in enumerate(site.op_types)]
        params += [f"%s{k}_{i}: {t}" for i, t in enumerate(types)]
    conditions = 0
    if repeated:
        lines.append("cf.br ^bb1")
    for i, block in enumerate(blocks):
        if i or repeated:
            lines.append(f"{label[block]}:")
        for op in block.operations:
            operation = op.operation
            if operation in site_of:
                k = site_of[operation]
                site = sites[k]
                key = ir.StringAttr(operation.attributes[STORAGE_ATTR]).value
                storage = None
                if site.storage is not None:
                    storage = storages.setdefault(key, (f"%ts{len(storages)}", site.storage))[0]
                operands = [f"%s{k}_{j}" for j in range(len(site.op_types))]
                lines += site.op_lines(f"s{k}_", operands, storage,
                                       attributes=f"{{coop.site = {k} : i64}}")
            elif operation.name == "gpu.barrier":
                lines.append("gpu.barrier")
        terminator = block.operations[len(block.operations) - 1].operation
        successors = [label[s] for s in terminator.successors]
        if not successors and repeated:
            params.append(f"%c{conditions}: i32")
            lines.append(f"cf.switch %c{conditions} : i32, [default: ^exit, 1: ^bb1]")
            conditions += 1
        elif not successors:
            lines.append("return")
        elif len(successors) == 1:
            lines.append(f"cf.br {successors[0]}")
        else:
            params.append(f"%c{conditions}: i32")
            cases = ", ".join(f"{j}: {s}" for j, s in enumerate(successors[1:], 1))
            lines.append(f"cf.switch %c{conditions} : i32, [default: {successors[0]}, {cases}]")
            conditions += 1
    if repeated:
        lines += ["^exit:", "return"]
    descriptors = [f"{name} = coop.temp_storage {attrs}" for name, attrs in storages.values()]
    x, y, z = sites[0].block_dims
    return (f"func.func @kernel({', '.join(params)}) attributes "
            f"{{gpu.known_block_size = array<i32: {x}, {y}, {z}>}} {{\n  "
            + "\n  ".join(descriptors + lines) + "\n}\n")


def _patch(module, function, calls, sites, plan: KernelPlan, metadata: dict) -> None:
    """Points each call at its placed site function and adds the planned
    barriers."""
    # One buffer per kernel, named after it; every placed site function of
    # the kernel names it as its scratch symbol.
    buffer = "__coop_scratch_" + ir.StringAttr(function.attributes["sym_name"]).value
    if plan.dynamic:
        _check_dynamic_shared_memory(function, sites[0])
        metadata[REQUIRED_DYNAMIC_SHARED_MEMORY_KEY] = max(
            metadata.get(REQUIRED_DYNAMIC_SHARED_MEMORY_KEY, 0), plan.size)
    for k, (call, site) in enumerate(zip(calls, sites)):
        placement = Placement(buffer=buffer, size=plan.size, alignment=plan.alignment,
                              dynamic=plan.dynamic, offset=plan.offsets[k])
        name, text = site.function(placement)
        link_into(module, run_passes(text, site.filename, PLACED_PIPELINE, target_sm(metadata)))
        call.attributes["callee"] = ir.FlatSymbolRefAttr.get(name)
        del call.attributes[STORAGE_ATTR]

    for k, where, scope in plan.barriers:
        call = calls[k]
        group = sites[k].group if scope == "site" else GroupType("block")
        name, text = barrier_function(group, sites[k].block_dims)
        link_into(module, run_passes(text, sites[k].filename))
        at = call if where == "before" else _next_op(call)
        with ir.InsertionPoint(at), call.location:
            func.call([], name, [])


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
