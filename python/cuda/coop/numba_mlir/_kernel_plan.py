"""Whole-kernel scratch planning for Numba kernels.

Each scratch-using call site is first a call of a declaration (`_sites.py`).
Before Numba optimizes a kernel, this module plans all its sites together
with our passes, without handing Numba's IR to our MLIR (DESIGN.md: the two
MLIRs do not share IR):

1. it writes the kernel's skeleton in the coop dialect: the same blocks and
   branches, each site as its coop.load/coop.store, the kernel's own block
   barriers, and the launch's block size;
2. `coop-plan-scratch,coop-insert-barriers` place every slice and the reuse
   barriers the plan needs (none between a transpose load and its matching
   store; a shared descriptor's uses share one slice);
3. it patches Numba's kernel: each call now names its site function lowered
   with the plan's offset into one workgroup buffer of the planned size (or
   dynamic shared memory past 48 KiB, requested from the launch), and a call
   to a barrier function goes where the plan put a barrier.
"""

from __future__ import annotations

import dataclasses
import functools

from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import func
from numba_cuda_mlir._whole_function_planners import _REQUIRED_DYNAMIC_SHARED_MEMORY_KEY
from numba_cuda_mlir.lowering_utilities import context as numba_context
from numba_cuda_mlir.lowering_utilities import link

from ._errors import CoopCompileError
from ._passes import PLACED_PIPELINE, PLAN_PIPELINE, link_into, run_passes
from ._sites import Placement, Site, barrier_function
from ._types import GroupType

STORAGE_ATTR = "coop.storage"  # on a site's call: its descriptor, "" when implicit

_sites: dict[str, Site] = {}  # site function name -> the site it lowers


PLANNED_KEY = "coop_scratch_sites"  # compile metadata: the compile has sites to plan


def mark_site(call, site: Site, storage_key: str | None, metadata: dict) -> None:
    """Records a lowered call of `site` for the kernel plan."""
    if not site.uses_scratch:
        return
    _sites[ir.FlatSymbolRefAttr(call.attributes["callee"]).value] = site
    call.attributes[STORAGE_ATTR] = ir.StringAttr.get(storage_key or "")
    metadata[PLANNED_KEY] = True


def install() -> None:
    """Plans every kernel's scratch before Numba optimizes it: wraps
    numba_cuda_mlir.mlir_optimization.optimize, which Numba looks up at each
    call (../shared/numba-facts.md, splice point)."""
    import numba_cuda_mlir.mlir_optimization as optimization

    original = optimization.optimize
    if getattr(original, "_coop_plans_scratch", False):
        return

    def optimize(cres, *args, **kwargs):
        module = cres.metadata.get("mlir_module")
        # Only compiles that lowered a scratch site walk their module.
        if module is not None and cres.metadata.get(PLANNED_KEY):
            with numba_context.get_context(), ir.Location.unknown():
                plan_module(module, cres.metadata)
        return original(cres, *args, **kwargs)

    optimize._coop_plans_scratch = True
    optimization.optimize = optimize


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
    planned = run_passes(text, sites[0].filename, PLAN_PIPELINE)
    plan = _read_plan(planned)
    _patch(module, function, calls, sites, plan, metadata)


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
                 for i, t in enumerate(site.value_types)]
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
                operands = [f"%s{k}_{j}" for j in range(len(site.value_types))]
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


@dataclasses.dataclass
class _Plan:
    size: int = 0
    alignment: int = 16
    dynamic: bool = False
    offsets: dict[int, int] = dataclasses.field(default_factory=dict)  # site -> byte offset
    # (site, "before" or "after", barrier group type)
    barriers: list[tuple[int, str, str]] = dataclasses.field(default_factory=list)


def _read_plan(text: str) -> _Plan:
    """Slices and barriers of the planned skeleton. Inserted barriers sit
    right before a site (a reuse barrier) or right after it (auto_sync); where
    both are true, the two places are the same program point for scratch."""
    plan = _Plan()
    with _reading_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        function = module.body.operations[0].operation
        attributes = function.attributes
        if "coop.scratch_size" in attributes:
            plan.size = ir.IntegerAttr(attributes["coop.scratch_size"]).value
            plan.alignment = ir.IntegerAttr(attributes["coop.scratch_alignment"]).value
        plan.dynamic = "coop.dynamic_shared_memory" in attributes
        for block in function.regions[0].blocks:
            ops = [op.operation for op in block.operations]
            for i, op in enumerate(ops):
                if op.name.startswith("coop.") and "coop.site" in op.attributes:
                    site = ir.IntegerAttr(op.attributes["coop.site"]).value
                    plan.offsets[site] = ir.IntegerAttr(op.attributes["coop.scratch_offset"]).value
                if op.name != "coop.barrier":
                    continue
                group = str(op.operands[0].type)
                placed = _adjacent_site(ops, i, 1, "before") or _adjacent_site(ops, i, -1, "after")
                if placed is None:
                    raise CoopCompileError("internal error: a planned barrier is not next to a "
                                           "cuda.coop call")
                plan.barriers.append((*placed, group))
    return plan


@functools.cache
def _reading_context():
    """A context that reads our dialect's generic form as unregistered ops
    (Numba's MLIR does not know it); made once, it costs 10 ms."""
    context = ir.Context()
    context.allow_unregistered_dialects = True
    return context


def _adjacent_site(ops, i, step, where):
    """The site next to the barrier at `i` in direction `step`, skipping the
    ops that make groups and other inserted barriers."""
    i += step
    while 0 <= i < len(ops) and ops[i].name in ("coop.this_block", "coop.this_warp",
                                                 "coop.group_by", "coop.barrier"):
        i += step
    if 0 <= i < len(ops) and "coop.site" in ops[i].attributes:
        return ir.IntegerAttr(ops[i].attributes["coop.site"]).value, where
    return None


def _patch(module, function, calls, sites, plan: _Plan, metadata: dict) -> None:
    # One buffer per kernel; the conversion names a function's buffer after
    # the function, so each placed site function is pointed at the kernel's.
    buffer = "__coop_scratch_" + ir.StringAttr(function.attributes["sym_name"]).value
    if plan.dynamic:
        _check_dynamic_shared_memory(function, sites[0])
        metadata[_REQUIRED_DYNAMIC_SHARED_MEMORY_KEY] = max(
            metadata.get(_REQUIRED_DYNAMIC_SHARED_MEMORY_KEY, 0), plan.size)
    for k, (call, site) in enumerate(zip(calls, sites)):
        placement = Placement(buffer=buffer, size=plan.size, alignment=plan.alignment,
                              dynamic=plan.dynamic, offset=plan.offsets[k])
        name, text = site.function(placement)
        lowered = run_passes(text, site.filename, PLACED_PIPELINE)
        link_into(module, lowered.replace(f"__coop_scratch_{name}", buffer))
        call.attributes["callee"] = ir.FlatSymbolRefAttr.get(name)
        del call.attributes[STORAGE_ATTR]

    for k, where, group_type in plan.barriers:
        call = calls[k]
        group = sites[k].group if group_type == sites[k].group.mlir else GroupType("block")
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
    target = link._find_link_target(module.operation)
    for op in list(target.operations):
        name = op.operation.attributes["sym_name"] \
            if "sym_name" in op.operation.attributes else None
        if op.operation.name == "func.func" and name is not None and \
                ir.StringAttr(name).value.startswith("__coop_unplanned_"):
            op.operation.erase()
