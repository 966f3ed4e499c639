"""The table of cuda.coop operations: one entry per operation.

An entry says what the call takes (its positional roles and its options,
each with the kind of value it is), what it returns, and which op of the coop dialect its site is, with the ODS names of
roles and options that the op spells differently. The backends (Numba's
typing, lowering and planner; CuTe DSL's tracing), the site descriptions
(`_sites.py`) and the stub tests read the entry; nothing else names an
operation. The op's syntax, operands and attributes come from its ODS
definition (`cuda.coop._ods`, generated at build time), as do the names of
algorithms, modes and operators. Adding an operation is one entry here, one
ODS op and one conversion pattern file.

Option kinds:

* ``choice``: a compile-time string among ``choices`` (an algorithm, a mode);
* ``flag``: a compile-time bool;
* ``index``: a runtime integer (an offset, a count, a distance), passed as
  ``index``;
* ``item``: a runtime value of the payload's item type (a default, a fill);
* ``payload``: a payload with one entry per item of the value (ranks, flags);
* ``flags``: a payload of integers or bools, one per item of the value, or
  for a scalar value one integer or bool (a selection);
* ``predicate``: a function of one item returning a bool (a selection);
* ``comparator``: a function of two items returning a bool, "a orders
  before b" (a merge sort's order);
* ``storage``: a ``TempStorage``;
* ``integer``: a compile-time int (a reserved array's count, alignment, a
  histogram's bins);
* ``dtype``: a compile-time numeric type (``numpy.int32``, ``int``);
* ``counters``: a payload of counters from an earlier call, of any size;
* ``array``: a one-dimensional device array (global or shared) the
  operation updates;
* ``digit_prefix``: a compile-time bool (return a radix rank's digit
  prefix too) or an int32 payload to fill with it;
* ``operator``: a named operator among ``choices`` or a function of two
  items (reductions and scans);
* ``prefix``: a ``StatefulFunction`` whose function seeds each block scan
  (passed as its state, an operand), or a plain function of the tile's
  aggregate (no operand).

Positional roles: ``group``; ``source``/``destination`` (a device array);
``payload`` (a payload the operation fills); ``value`` (the payload, or for
operations that allow it a scalar, that the operation reads); ``lengths``
(a payload of integers, one per item of the value: run lengths); ``values``
(a payload of any items, one per item of the value, moved with it).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from . import _markers, _ods


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
    # value; "item": one item (a reduction); "payload": the payload it filled;
    # "batches": a new payload of the value's items, one slot per group
    # size's worth of the value's slots (a batched reduction's results; a
    # scalar value is one batch, and the result its scalar); "counters": a
    # new payload of counters (a histogram's), or none where an array
    # receives them; "decoded": a new payload of decoded_items_per_thread
    # items of the value's dtype (and, with total_decoded_size, the stream's
    # length); "decoded_length": the stream's length alone; "ranks": a new
    # payload of int32 ranks, one per item of the value (with
    # exclusive_digit_prefix=True a tuple with the digit prefix); "sorted": a
    # new payload like the value (with a values role a tuple with one like
    # the values); "argsorted": a tuple of that and the int32 input
    # positions. A scalar value makes scalars of each.
    result: str
    scalar_value: bool
    # The site's op in the coop dialect.
    dialect_op: str
    # Options that may also follow the positional roles, in order.
    positional_options: tuple[str, ...] = ()
    # Options the entry fixes (`sum` is `reduce` with binary_op="sum").
    fixed: tuple[tuple[str, object], ...] = ()
    # Flag options that each add one item to the result (a scan's tile
    # aggregate, the item a shuffle shifts out): a tuple (result, item).
    result_flags: tuple[str, ...] = ()
    # The operation also returns the int32 count of the items it kept (a
    # select's): the result is a tuple (result, count).
    counted: bool = False
    # Options that shape the result payload (its size, its dtype) instead of
    # becoming an operand or attribute of the op.
    result_options: tuple[str, ...] = ()
    # Other keyword spellings of options (the official cuda.coop's).
    aliases: tuple[tuple[str, str], ...] = ()
    # Roles and options whose ODS operand or attribute has another name: a
    # name, or for an operator (named, function) and for a prefix (the
    # state's operand, the function's attribute).
    ods: tuple[tuple[str, object], ...] = ()

    def ods_name(self, name: str, function: bool = False) -> str:
        """The ODS name of role or option `name`; `function`: of its value
        when that is a function (an operator's, a prefix's)."""
        renamed = dict(self.ods).get(name, name)
        if isinstance(renamed, tuple):
            return renamed[1] if function else renamed[0]
        return renamed

    def canonical_keywords(self, kws: dict) -> dict:
        """`kws` with aliases replaced by the option they spell; a
        ValueError when both are given."""
        spelled = dict(self.aliases)
        canonical = {}
        for name, value in kws.items():
            option = spelled.get(name, name)
            if option in canonical:
                raise ValueError(f"coop.{self.name} got {option} twice (as {option} and "
                                 f"{dict((v, k) for k, v in self.aliases)[option]}); pass one")
            canonical[option] = value
        return canonical

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


def _cases(enum: str) -> tuple[str, ...]:
    return _ods.ENUMS[enum]["cases"]


BLOCK_ALGORITHMS = _cases("Algorithm")
SCRATCH_ALGORITHMS = ("transpose", "warp_transpose", "warp_transpose_timesliced")
EXCHANGE_MODES = _cases("ExchangeMode")
SHUFFLE_MODES = _cases("ShuffleMode")
# Shuffle modes that move one scalar per thread and return it.
SCALAR_SHUFFLE_MODES = ("offset", "rotate")
BINARY_OPS = _cases("BinaryOp")
REDUCE_ALGORITHMS = _cases("ReduceAlgorithm")
SCAN_ALGORITHMS = _cases("ScanAlgorithm")
SCAN_MODES = _cases("ScanMode")
BATCH_LAYOUTS = _cases("BatchLayout")
HISTOGRAM_ALGORITHMS = _cases("HistogramAlgorithm")
RADIX_RANK_ALGORITHMS = _cases("RadixRankAlgorithm")


_TILE_OPTIONS = (Option("algorithm", "choice", "direct", BLOCK_ALGORITHMS),
                 Option("valid_items", "index"))
_STORAGE = Option("temp_storage", "storage")


OPERATIONS = {op.marker: op for op in (
    Operation("load", _markers.load, ("group", "source", "payload"),
              _TILE_OPTIONS + (Option("oob_default", "item"), Option("offset", "index"),
                               _STORAGE),
              result="payload", scalar_value=False, dialect_op="coop.load"),
    Operation("store", _markers.store, ("group", "destination", "value"),
              _TILE_OPTIONS + (Option("offset", "index"), _STORAGE),
              result="none", scalar_value=True, dialect_op="coop.store"),
    Operation("exchange", _markers.exchange, ("group", "value"),
              (Option("mode", "choice", "striped_to_blocked", EXCHANGE_MODES),
               Option("ranks", "payload"), Option("valid_flags", "payload"),
               Option("warp_time_slicing", "flag", False), _STORAGE),
              result="fresh", scalar_value=False, dialect_op="coop.exchange",
              ods=(("value", "input"),)),
    Operation("shuffle", _markers.shuffle, ("group", "value"),
              (Option("mode", "choice", "down", SHUFFLE_MODES), Option("distance", "index", 1, signed=True),
               Option("fill", "item"), Option("block_prefix", "flag", False),
               Option("block_suffix", "flag", False), _STORAGE),
              result="fresh", scalar_value=True, dialect_op="coop.shuffle",
              ods=(("value", "input"),), result_flags=("block_prefix", "block_suffix")),
)}

_REDUCE_OPTIONS = (Option("valid_items", "index"), Option("broadcast", "flag", True),
                   Option("algorithm", "choice", None, REDUCE_ALGORITHMS), _STORAGE)
_SCAN_OPTIONS = (Option("initial_value", "item"), Option("valid_items", "index"),
                 Option("block_aggregate", "flag", False),
                 Option("prefix_op", "prefix"),
                 Option("algorithm", "choice", None, SCAN_ALGORITHMS), _STORAGE)
_BINARY_OP = Option("binary_op", "operator", "sum", BINARY_OPS)
_SCAN_OP = Option("scan_op", "operator", "sum", BINARY_OPS)


def _reduction(name, marker, operator_fixed):
    options = _REDUCE_OPTIONS if operator_fixed else (_BINARY_OP,) + _REDUCE_OPTIONS
    return Operation(name, marker, ("group", "value"), options, result="item",
                     scalar_value=True, dialect_op="coop.reduce",
                     ods=(("value", "input"), ("binary_op", ("kind", "combiner")),
                          ("unsigned", "is_unsigned")),
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
                     scalar_value=True, dialect_op="coop.scan",
                     ods=(("value", "input"), ("scan_op", ("kind", "combiner")),
                          ("prefix_op", ("prefix_state", "prefix_callback")),
                          ("block_aggregate", "aggregate"), ("unsigned", "is_unsigned")),
                     positional_options=("scan_op",) if mode and not operator_fixed else (),
                     fixed=fixed, result_flags=("block_aggregate",),
                     aliases=(("block_prefix_callback_op", "prefix_op"),))


OPERATIONS.update({op.marker: op for op in (
    _reduction("reduce", _markers.reduce, operator_fixed=False),
    _reduction("sum", _markers.sum, operator_fixed=True),
    _scan("scan", _markers.scan),
    _scan("inclusive_scan", _markers.inclusive_scan, "inclusive"),
    _scan("exclusive_scan", _markers.exclusive_scan, "exclusive"),
    _scan("inclusive_sum", _markers.inclusive_sum, "inclusive", operator_fixed=True),
    _scan("exclusive_sum", _markers.exclusive_sum, "exclusive", operator_fixed=True),
    Operation("reduce_batched", _markers.reduce_batched, ("group", "value"),
              (_BINARY_OP, Option("output_layout", "choice", "striped", BATCH_LAYOUTS)),
              result="batches", scalar_value=True, dialect_op="coop.reduce_batched",
              ods=(("value", "input"), ("binary_op", ("kind", "combiner")),
                   ("output_layout", "layout"), ("unsigned", "is_unsigned"))),
)})

OPERATIONS.update({op.marker: op for op in (
    Operation("select", _markers.select, ("group", "value"),
              (Option("flags", "flags"), Option("predicate", "predicate"),
               Option("valid_items", "index"), _STORAGE),
              result="fresh", scalar_value=True, dialect_op="coop.select",
              ods=(("value", "input"),), counted=True),
)})

OPERATIONS.update({op.marker: op for op in (
    Operation("histogram", _markers.histogram, ("group", "value"),
              (Option("bins", "integer"), Option("bins_per_thread", "integer"),
               Option("counter_dtype", "dtype"),
               Option("algorithm", "choice", "atomic", HISTOGRAM_ALGORITHMS),
               Option("valid_items", "index"), Option("accumulate", "counters"),
               Option("out", "array"), _STORAGE),
              result="counters", scalar_value=True, dialect_op="coop.histogram",
              ods=(("value", "samples"), ("unsigned", "is_unsigned")),
              result_options=("bins_per_thread", "counter_dtype")),
)})

_DECODED_ITEMS = Option("decoded_items_per_thread", "integer")
_OFFSET_DTYPE = Option("decoded_offset_dtype", "dtype")

OPERATIONS.update({op.marker: op for op in (
    Operation("run_length_decode", _markers.run_length_decode, ("group", "value", "lengths"),
              (_DECODED_ITEMS, Option("decoded_window_offset", "index"),
               Option("total_decoded_size", "flag", False), _OFFSET_DTYPE, _STORAGE),
              result="decoded", scalar_value=True, dialect_op="coop.run_length_decode",
              ods=(("value", "run_values"), ("lengths", "run_lengths"),
                   ("decoded_window_offset", "window_offset")),
              result_options=("decoded_offset_dtype", "total_decoded_size")),
    Operation("run_length_decode_into", _markers.run_length_decode_into,
              ("group", "value", "lengths", "destination"),
              (_DECODED_ITEMS, Option("destination_offset", "index"), _OFFSET_DTYPE, _STORAGE),
              result="decoded_length", scalar_value=True,
              dialect_op="coop.run_length_decode",
              ods=(("value", "run_values"), ("lengths", "run_lengths"),
                   ("destination_offset", "window_offset")),
              result_options=("decoded_offset_dtype",)),
)})

_SORT_OPTIONS = (Option("begin_bit", "index"), Option("end_bit", "index"),
                 Option("descending", "flag", False), Option("blocked_to_striped", "flag", False),
                 Option("valid_items", "index"), _STORAGE)
_RADIX_ODS = (("value", "keys"), ("unsigned", "is_unsigned"))

OPERATIONS.update({op.marker: op for op in (
    Operation("radix_rank_keys", _markers.radix_rank_keys, ("group", "value"),
              (Option("begin_bit", "integer", 0), Option("end_bit", "integer"),
               Option("radix_bits", "integer"), Option("descending", "flag", False),
               Option("exclusive_digit_prefix", "digit_prefix", False),
               Option("algorithm", "choice", None, RADIX_RANK_ALGORITHMS)),
              result="ranks", scalar_value=True, dialect_op="coop.radix_rank",
              ods=_RADIX_ODS + (("exclusive_digit_prefix", "digit_prefix"),),
              result_options=("end_bit",)),
    Operation("radix_sort_keys", _markers.radix_sort_keys, ("group", "value"), _SORT_OPTIONS,
              result="sorted", scalar_value=True, dialect_op="coop.radix_sort", ods=_RADIX_ODS),
    Operation("radix_sort_pairs", _markers.radix_sort_pairs, ("group", "value", "values"),
              _SORT_OPTIONS, result="sorted", scalar_value=True, dialect_op="coop.radix_sort",
              ods=_RADIX_ODS),
    Operation("argsort", _markers.argsort, ("group", "value"),
              (Option("descending", "flag", False), Option("valid_items", "index"), _STORAGE),
              result="argsorted", scalar_value=True, dialect_op="coop.radix_sort",
              ods=_RADIX_ODS),
)})

_TOPK_OPTIONS = (Option("k", "index"), Option("valid_items", "index"),
                 Option("sorted", "flag", False), _STORAGE)


def _topk(name, marker, largest, pairs):
    # The first k positions of a stable sort, descending for the largest: the
    # spec's tie policy (the earlier input first) for free; k only bounds what
    # the caller reads.
    return Operation(name, marker, ("group", "value", "values") if pairs else ("group", "value"),
                     _TOPK_OPTIONS, result="sorted", scalar_value=True,
                     dialect_op="coop.radix_sort", ods=_RADIX_ODS,
                     fixed=(("descending", True),) if largest else (),
                     result_options=("k", "sorted"))


OPERATIONS.update({op.marker: op for op in (
    _topk("topk_max_keys", _markers.topk_max_keys, largest=True, pairs=False),
    _topk("topk_min_keys", _markers.topk_min_keys, largest=False, pairs=False),
    _topk("topk_max_pairs", _markers.topk_max_pairs, largest=True, pairs=True),
    _topk("topk_min_pairs", _markers.topk_min_pairs, largest=False, pairs=True),
)})

_MERGE_OPTIONS = (Option("compare_op", "comparator"), Option("descending", "flag", False),
                  Option("stable", "flag", False), Option("valid_items", "index"),
                  Option("oob_default", "item"), _STORAGE)
_MERGE_ODS = (("value", "keys"), ("compare_op", "compare"), ("unsigned", "is_unsigned"))

OPERATIONS.update({op.marker: op for op in (
    Operation("merge_sort_keys", _markers.merge_sort_keys, ("group", "value"), _MERGE_OPTIONS,
              result="sorted", scalar_value=True, dialect_op="coop.merge_sort", ods=_MERGE_ODS),
    Operation("merge_sort_pairs", _markers.merge_sort_pairs, ("group", "value", "values"),
              _MERGE_OPTIONS, result="sorted", scalar_value=True, dialect_op="coop.merge_sort",
              ods=_MERGE_ODS),
)})

def rank_digit(name: str, begin: int | None, end: int | None, radix: int | None,
               key_bits: int, threads: int, algorithm: str | None) -> tuple[int, int, str]:
    """A radix rank's digit and algorithm from its compile-time options
    (None: not given): (begin_bit, radix_bits, algorithm). CUB's choice of
    algorithm: the basic rank's counters grow with 2^bits; past 4 bits the
    match rank's (per warp) are smaller, and it needs whole warps. A
    ValueError names what is wrong."""
    begin = 0 if begin is None else begin
    if end is not None:
        if radix is not None and radix != end - begin:
            raise ValueError(f"coop.{name}'s radix_bits={radix} differs from end_bit - "
                             f"begin_bit = {end - begin}; give one of them")
    else:
        end = begin + (radix or 4)
    if not 1 <= end - begin <= 8:
        raise ValueError(f"coop.{name} ranks by a digit of 1 to 8 bits; got [begin_bit, "
                         f"end_bit) = [{begin}, {end})")
    if begin < 0 or end > key_bits:
        raise ValueError(f"coop.{name}'s digit bits [{begin}, {end}) lie outside the keys' "
                         f"{key_bits} bits")
    if algorithm is None:
        algorithm = "match" if end - begin > 4 and threads % 32 == 0 else "basic"
    elif algorithm == "match" and threads % 32:
        raise ValueError(f"coop.{name}'s algorithm 'match' ranks by warp-wide ballots and "
                         f"needs whole warps; a block of {threads} threads is not: use 'basic'")
    return begin, end - begin, algorithm


def prefix_slots(radix_bits: int, threads: int) -> int:
    """The slots of a radix rank's digit prefix each thread holds:
    max(1, ceil(2^bits / threads))."""
    return max(1, -(-(1 << radix_bits) // threads))


# `storage.reserve(count, dtype, alignment=None)`: a method of a TempStorage
# in the kernel, not a coop function, so it has no marker; its site is the
# coop.reserve op, which returns the array.
RESERVE = Operation("reserve", None, (), (Option("count", "integer"),
                                         Option("alignment", "integer"), _STORAGE),
                    result="array", scalar_value=False, dialect_op="coop.reserve")

BY_NAME = {op.name: op for op in (*OPERATIONS.values(), RESERVE)}
