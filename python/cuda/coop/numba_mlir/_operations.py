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
* ``storage``: a ``TempStorage``;
* ``operator``: a named operator among ``choices`` or a function of two
  items (reductions and scans);
* ``prefix``: a ``StatefulFunction`` whose function seeds each block scan
  (passed as its state, an operand).

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
    # "none"; "fresh": a new payload like the value, or a scalar for a scalar
    # value; "item": one item (a reduction).
    result: str
    scalar_value: bool
    # The site's coop op: (site, SSA names by role, the group's SSA name,
    # the storage's SSA name or None, extra attribute dictionary, location).
    assembly: Callable
    # Whether a site of the operation (by its compile-time options) takes a
    # slice of the kernel's scratch.
    uses_scratch: Callable
    # Options that may also follow the positional roles, in order.
    positional_options: tuple[str, ...] = ()
    # Options the entry fixes (`sum` is `reduce` with binary_op="sum").
    fixed: tuple[tuple[str, object], ...] = ()
    # A flag option that adds the tile's aggregate to the result: a tuple
    # (result, aggregate).
    aggregate_flag: str | None = None

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def default(self, name: str):
        """An option's default; None for an attribute that is not an option
        (the entry's fixed ones are set explicitly)."""
        option = self.option(name)
        return option.default if option else None

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    @property
    def index_roles(self) -> frozenset[str]:
        return frozenset(o.name for o in self.options if o.kind == "index")

    @property
    def combines(self) -> bool:
        """Whether the operation applies an operator to its items (so it
        needs their arithmetic type, not only their bits)."""
        return any(o.kind == "operator" for o in self.options) or any(
            name in ("binary_op", "scan_op") for name, _ in self.fixed)

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
BINARY_OPS = ("sum", "min", "max", "multiplies", "bit_and", "bit_or", "bit_xor")
REDUCE_ALGORITHMS = ("warp_reductions", "raking", "raking_commutative_only")
SCAN_ALGORITHMS = ("raking", "raking_memoize", "warp_scans")
SCAN_MODES = ("inclusive", "exclusive")


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
    if dict(site.attributes).get("read_only"):
        text += " read_only"
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
    if site.result_types:
        return (f"{names['result']} = coop.shuffle {group}, {names['value']}{text} "
                f"{attributes} : {site.group.mlir}, {value} -> {site.result_types[0]} {loc}")
    return (f"coop.shuffle {group}, {names['value']}{into}{text} {attributes} : "
            f"{site.group.mlir}, {value}, {site.type_of('output')} {loc}")


def _results(site, names):
    """`%r = `, `%r:2 = ` or nothing, by the site's results."""
    count = len(site.result_types)
    if count == 0:
        return ""
    return f"{names['result']} = " if count == 1 else f"{names['result']}:{count} = "


def _operator_text(site, operator_option):
    """The operator of a reduction or scan: a named one or a function."""
    operator = site.attribute(operator_option)
    if isinstance(operator, str):
        return f" op = {operator}"
    return f' combiner = @"{operator.symbol}"'


def _reduce_assembly(site, names, group, storage, attributes, loc):
    text = _operator_text(site, "binary_op")
    if "valid_items" in names:
        text += f" valid_items = {names['valid_items']}"
    if site.attribute("algorithm"):
        text += f" algorithm = {site.attribute('algorithm')}"
    if site.attribute("broadcast"):
        text += " broadcast"
    if site.attribute("unsigned"):
        text += " unsigned"
    text += _storage_text(storage)
    return (f"{_results(site, names)}coop.reduce {group}, {names['value']}{text} "
            f"{attributes} : {site.group.mlir}, {site.type_of('value')} -> "
            f"{site.result_types[0]} {loc}")


def _scan_assembly(site, names, group, storage, attributes, loc):
    into = f" into {names['output']}" if "output" in names else ""
    text = f" mode = {site.attribute('mode')}" + _operator_text(site, "scan_op")
    if "initial_value" in names:
        text += f" initial_value = {names['initial_value']} : {site.element_type}"
    if "prefix_op" in names:
        text += (f' prefix = @"{site.attribute("prefix_op").symbol}"({names["prefix_op"]} : '
                 f'{site.type_of("prefix_op")})')
    if site.attribute("algorithm"):
        text += f" algorithm = {site.attribute('algorithm')}"
    if site.attribute("block_aggregate"):
        text += " aggregate"
    if site.attribute("unsigned"):
        text += " unsigned"
    text += _storage_text(storage)
    types = f"{site.group.mlir}, {site.type_of('value')}"
    if into:
        types += f", {site.type_of('output')}"
    if site.result_types:
        types += f" -> {', '.join(site.result_types)}"
    return (f"{_results(site, names)}coop.scan {group}, {names['value']}{into}{text} "
            f"{attributes} : {types} {loc}")


def _block_group(site):
    return site.group.kind == "block"


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

_REDUCE_OPTIONS = (Option("valid_items", "index"), Option("broadcast", "flag", True),
                   Option("algorithm", "choice", None, REDUCE_ALGORITHMS), _STORAGE)
_SCAN_OPTIONS = (Option("initial_value", "item"), Option("block_aggregate", "flag", False),
                 Option("prefix_op", "prefix"),
                 Option("algorithm", "choice", None, SCAN_ALGORITHMS), _STORAGE)
_BINARY_OP = Option("binary_op", "operator", "sum", BINARY_OPS)
_SCAN_OP = Option("scan_op", "operator", "sum", BINARY_OPS)


def _reduction(name, marker, operator_fixed):
    options = _REDUCE_OPTIONS if operator_fixed else (_BINARY_OP,) + _REDUCE_OPTIONS
    return Operation(name, marker, ("group", "value"), options, result="item",
                     scalar_value=True, assembly=_reduce_assembly, uses_scratch=_block_group,
                     positional_options=() if operator_fixed else ("binary_op",),
                     fixed=(("binary_op", "sum"),) if operator_fixed else ())


def _scan(name, marker, mode=None, operator_fixed=False):
    options = _SCAN_OPTIONS
    if operator_fixed:
        # The sums start at 0 (exclusive) and take no initial value.
        options = tuple(o for o in options if o.name != "initial_value")
    else:
        options = (_SCAN_OP,) + options
    if mode is None:
        options = (Option("mode", "choice", "exclusive", SCAN_MODES),) + options
    fixed = ((("mode", mode),) if mode else ()) + ((("scan_op", "sum"),) if operator_fixed
                                                   else ())
    return Operation(name, marker, ("group", "value"), options, result="fresh",
                     scalar_value=True, assembly=_scan_assembly, uses_scratch=_block_group,
                     positional_options=("scan_op",) if mode and not operator_fixed else (),
                     fixed=fixed, aggregate_flag="block_aggregate")


OPERATIONS.update({op.marker: op for op in (
    _reduction("reduce", _markers.reduce, operator_fixed=False),
    _reduction("sum", _markers.sum, operator_fixed=True),
    _scan("scan", _markers.scan),
    _scan("inclusive_scan", _markers.inclusive_scan, "inclusive"),
    _scan("exclusive_scan", _markers.exclusive_scan, "exclusive"),
    _scan("inclusive_sum", _markers.inclusive_sum, "inclusive", operator_fixed=True),
    _scan("exclusive_sum", _markers.exclusive_sum, "exclusive", operator_fixed=True),
)})

BY_NAME = {op.name: op for op in OPERATIONS.values()}
