"""The spellings of operators, modes and algorithms that kernels written for
the official cuda.coop use, mapped to the names of the coop dialect (its
ODS enums, `cuda.coop._ods`).

* A mode or algorithm is matched without case, surrounding spaces, or the
  difference between ``-`` and ``_``: ``"Warp-Transpose "`` is
  ``"warp_transpose"``.
* An operator may be a name (``"+"``, ``"add"``, ``"plus"``, ``"mul"``,
  ``"minimum"``, ``"&"``, ...) or a Python or NumPy function that is one of
  the named operators (``operator.add``, ``min``, ``numpy.maximum``, ...):
  both become the named operator, so they get its fast lowering (warp
  shuffles, ``redux.sync``) rather than a call of a compiled function.
"""

from __future__ import annotations

import builtins
import operator

import numpy

OPERATOR_NAMES = {
    "sum": ("+", "add", "plus", "sum"),
    "multiplies": ("*", "mul", "multiply", "multiplies"),
    "min": ("min", "minimum"),
    "max": ("max", "maximum"),
    "bit_and": ("&", "bit_and", "bitwise_and"),
    "bit_or": ("|", "bit_or", "bitwise_or"),
    "bit_xor": ("^", "bit_xor", "bitwise_xor"),
}
"""Each named operator of the dialect and the names that spell it."""

OPERATOR_FUNCTIONS = {
    operator.add: "sum", numpy.add: "sum",
    operator.mul: "multiplies", numpy.multiply: "multiplies",
    builtins.min: "min", numpy.minimum: "min",
    builtins.max: "max", numpy.maximum: "max",
    operator.and_: "bit_and", numpy.bitwise_and: "bit_and",
    operator.or_: "bit_or", numpy.bitwise_or: "bit_or",
    operator.xor: "bit_xor", numpy.bitwise_xor: "bit_xor",
}
"""Python and NumPy functions that are a named operator."""

_OPERATOR_SPELLINGS = {spelling: name for name, spellings in OPERATOR_NAMES.items()
                       for spelling in spellings}


def choice(text: str) -> str:
    """A mode's or algorithm's name as the dialect spells it."""
    return text.strip().lower().replace("-", "_")


def operator_name(value) -> str | None:
    """The named operator a string or a function spells, or None."""
    if isinstance(value, str):
        return _OPERATOR_SPELLINGS.get(choice(value))
    try:
        return OPERATOR_FUNCTIONS.get(value)
    except TypeError:  # unhashable: not one of them
        return None
