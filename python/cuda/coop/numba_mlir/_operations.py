"""The table of cuda.coop operations: one entry per operation.

An entry says what the call takes (its positional roles and its options,
each with the kind of value it is), what it returns, whether it uses
scratch, and how its site is written in the coop dialect. Typing
(`_typing.py`), lowering (`_lowering.py`), site descriptions (`_sites.py`),
the planner (`_planner.py`) and the stub tests read the entry; nothing else
names an operation. Adding an operation is one entry here, one ODS op and
one conversion pattern file.

Option kinds:

* ``choice``: a compile-time string among ``choices`` (an algorithm, a mode);
* ``flag``: a compile-time bool;
* ``index``: a runtime integer (an offset, a count, a distance), passed as
  ``index``;
* ``item``: a runtime value of the payload's item type (a default, a fill);
* ``payload``: a payload with one entry per item of the value (ranks, flags);
* ``storage``: a ``TempStorage``.

Positional roles: ``group``; ``source``/``destination`` (a device array);
``payload`` (a payload the operation fills); ``value`` (the payload, or for
operations that allow it a scalar, that the operation reads).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from .. import _markers


@dataclasses.dataclass(frozen=True)
class Option:
    name: str
    kind: str
    default: object = None
    choices: tuple = ()
    signed: bool = False     # an index that may be negative


@dataclasses.dataclass(frozen=True)
class Operation:
    name: str
    marker: Callable
    positional: tuple[str, ...]
    options: tuple[Option, ...]
    # "none"; "fresh": a new payload like the value, or the moved scalar for a
    # scalar value.
    result: str
    scalar_value: bool
    # The site's coop op: (site, SSA names by role, the group's SSA name,
    # the storage's SSA name or None, extra attribute dictionary, location).
    assembly: Callable
    # Whether a site of the operation (by its compile-time options) takes a
    # slice of the kernel's scratch.
    uses_scratch: Callable

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    @property
    def index_roles(self) -> frozenset[str]:
        return frozenset(o.name for o in self.options if o.kind == "index")

    @property
    def memory_role(self) -> str | None:
        """The device array the payload's dtype can come from."""
        return next((r for r in self.positional if r in ("source", "destination")), None)


BLOCK_ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
                    "warp_transpose_timesliced")
SCRATCH_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")
EXCHANGE_MODES = ("striped_to_blocked", "blocked_to_striped", "warp_striped_to_blocked",
                  "blocked_to_warp_striped", "scatter_to_blocked", "scatter_to_striped",
                  "scatter_to_striped_guarded", "scatter_to_striped_flagged")
SHUFFLE_MODES = ("up", "down", "offset", "rotate")
# Shuffle modes that move one scalar per thread and return it.
SCALAR_SHUFFLE_MODES = ("offset", "rotate")


def _storage_text(storage):
    return f" temp_storage = {storage}" if storage else ""


def _tile_assembly(site, names, group, storage, attributes, loc):
    memory_role = "source" if site.op == "load" else "destination"
    memory, payload_role = names[memory_role], "payload" if site.op == "load" else "value"
    offset = f"[{names['offset']}]" if "offset" in names else ""
    algorithm = site.attribute("algorithm")
    text = "" if algorithm == "direct" else f" algorithm = {algorithm}"
    if "valid_items" in names:
        text += f" valid_items = {names['valid_items']}"
    if "oob_default" in names:
        text += f" oob_default = {names['oob_default']} : {site.element_type}"
    text += _storage_text(storage)
    payload, memory_type = names[payload_role], site.type_of(memory_role)
    if site.op == "load":
        head = f"coop.load {group}, {memory}{offset} into {payload}"
        types = f"{memory_type}, {site.type_of(payload_role)}"
    else:
        head = f"coop.store {group}, {payload} into {memory}{offset}"
        types = f"{site.type_of(payload_role)}, {memory_type}"
    return f"{head}{text} {attributes} : {site.group.mlir}, {types} {loc}"


def _exchange_assembly(site, names, group, storage, attributes, loc):
    text = f" mode = {site.attribute('mode')}"
    for role in ("ranks", "valid_flags"):
        if role in names:
            text += f" {role} = {names[role]} : {site.type_of(role)}"
    if site.attribute("warp_time_slicing"):
        text += " warp_time_slicing"
    text += _storage_text(storage)
    payload = site.type_of("value")
    return (f"coop.exchange {group}, {names['value']} into {names['output']}{text} "
            f"{attributes} : {site.group.mlir}, {payload}, {payload} {loc}")


def _shuffle_assembly(site, names, group, storage, attributes, loc):
    into = f" into {names['output']}" if "output" in names else ""
    text = f" mode = {site.attribute('mode')}"
    if "distance" in names:
        text += f" distance = {names['distance']}"
    if "fill" in names:
        text += f" fill = {names['fill']} : {site.element_type}"
    text += _storage_text(storage)
    value = site.type_of("value")
    if site.result_type:
        return (f"{names['result']} = coop.shuffle {group}, {names['value']}{text} "
                f"{attributes} : {site.group.mlir}, {value} -> {site.result_type} {loc}")
    return (f"coop.shuffle {group}, {names['value']}{into}{text} {attributes} : "
            f"{site.group.mlir}, {value}, {site.type_of('output')} {loc}")


_TILE_OPTIONS = (Option("algorithm", "choice", "direct", BLOCK_ALGORITHMS),
                 Option("valid_items", "index"))
_STORAGE = Option("temp_storage", "storage")


def _scratch_algorithm(site):
    return site.attribute("algorithm") in SCRATCH_ALGORITHMS


OPERATIONS = {op.marker: op for op in (
    Operation("load", _markers.load, ("group", "source", "payload"),
              _TILE_OPTIONS + (Option("oob_default", "item"), Option("offset", "index"),
                               _STORAGE),
              result="none", scalar_value=False, assembly=_tile_assembly,
              uses_scratch=_scratch_algorithm),
    Operation("store", _markers.store, ("group", "destination", "value"),
              _TILE_OPTIONS + (Option("offset", "index"), _STORAGE),
              result="none", scalar_value=True, assembly=_tile_assembly,
              uses_scratch=_scratch_algorithm),
    Operation("exchange", _markers.exchange, ("group", "value"),
              (Option("mode", "choice", "striped_to_blocked", EXCHANGE_MODES),
               Option("ranks", "payload"), Option("valid_flags", "payload"),
               Option("warp_time_slicing", "flag", False), _STORAGE),
              result="fresh", scalar_value=False, assembly=_exchange_assembly,
              uses_scratch=lambda site: True),
    Operation("shuffle", _markers.shuffle, ("group", "value"),
              (Option("mode", "choice", "down", SHUFFLE_MODES), Option("distance", "index", 1, signed=True),
               Option("fill", "item"), _STORAGE),
              result="fresh", scalar_value=True, assembly=_shuffle_assembly,
              uses_scratch=lambda site: True),
)}

BY_NAME = {op.name: op for op in OPERATIONS.values()}
