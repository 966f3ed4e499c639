"""Lowering call sites described as data (through cuda.coop._compiler) and
moving what our passes print into Numba's module: the only way our IR reaches
Numba's MLIR (the two MLIRs never share IR objects)."""

from __future__ import annotations

import functools

from numba_cuda_mlir._mlir import ir

from .. import _compiler
from ._errors import CoopCompileError
from ._numba import link_target


def target_sm(metadata: dict) -> int:
    """The compile's target compute capability as major * 10 + minor (the
    chip of its target options, else the device's), for the lowering's
    target-specific instructions (redux.sync from sm_80)."""
    from numba_cuda_mlir.tools import resolve_gpu_target

    major, minor = resolve_gpu_target(metadata.get("targetoptions") or {})["cc"][:2]
    return 10 * int(major) + int(minor)


def lower_site(site: tuple, stage: str, placement: tuple | None = None, sm: int = 0) -> str:
    """The site (`Site.data()`, or `barrier_site`'s) through `stage`: 'check'
    (verify and plan its scratch), 'lower' (plan and lower it alone) or
    'placed' (lower it at `placement`), printed in generic form; a misuse is
    a CoopCompileError with the diagnostics at the call's line."""
    try:
        return _lower_site(site, stage, placement, sm)
    except _compiler.PipelineError as error:
        raise_diagnostics(error)


def describe_site(site: tuple) -> dict:
    """What the site's op says of itself (`uses_scratch`, `exact_block`),
    once it is built and verified; a misuse is a CoopCompileError."""
    try:
        return _describe_site(site)
    except _compiler.PipelineError as error:
        raise_diagnostics(error)


@functools.lru_cache(maxsize=4096)
def _describe_site(site: tuple) -> dict:
    return _compiler.describe_site(site)


def raise_diagnostics(error: Exception):
    """A CoopCompileError with the errors of a failed `_compiler` call."""
    messages = "; ".join(f"{loc}: {msg}" for severity, loc, msg in error.diagnostics
                         if severity == "error")
    raise CoopCompileError(messages or str(error)) from None


@functools.lru_cache(maxsize=4096)
def _lower_site(site: tuple, stage: str, placement: tuple | None, sm: int) -> str:
    """Kernels are specialized per launch configuration and items_per_thread,
    so the same sites recur: lower each once per process."""
    return _compiler.lower_site(site, stage, placement, sm)


# Attributes our MLIR (22) prints under a name Numba's (23) renamed: redux.sync's
# kind is `#nvvm<redux_kind add>` in 22 and `#nvvm<reduction_kind add>` in 23.
RENAMED_ATTRIBUTES = (("#nvvm<redux_kind ", "#nvvm<reduction_kind "),)


@functools.cache
def _renamed() -> tuple:
    """The renames Numba's MLIR needs: those whose old spelling it rejects."""
    needed = []
    for old, new in RENAMED_ATTRIBUTES:
        try:
            ir.Attribute.parse(old + "add>")
        except Exception:  # noqa: BLE001 - the MLIR error type differs by version
            needed.append((old, new))
    return tuple(needed)


def _numba_spelling(text: str) -> str:
    for old, new in _renamed():
        text = text.replace(old, new)
    return text


def link_into(module, text: str) -> None:
    """Moves a lowered function and the globals it uses into Numba's
    gpu.module, skipping symbols it already has (sites recur). The module's
    symbols are looked up in a symbol table built in C++, not a set of names
    built by a walk of the module in Python (cProfile, 48 collective sites
    against 16: linking 0.47 -> 0.39 ms a site)."""
    parsed = ir.Module.parse(_numba_spelling(text))
    target = link_target(module)
    existing = ir.SymbolTable(target.owner)
    for op in list(parsed.body.operations):
        attributes = op.operation.attributes
        if "sym_name" in attributes and ir.StringAttr(attributes["sym_name"]).value in existing:
            continue
        target.append(op.operation.detach_from_parent())
