"""``cuda.coop.numba_mlir.TempStorage``: the qualified scratch descriptor.

A plain value holding the four compile-time facts of a ``coop.temp_storage``
(capacity, alignment, reuse barriers, sharing policy). Its rules live here
once: the constructor checks them in Python, and kernel typing checks a
``TempStorage(...)`` call's literals with the same function.
"""

from __future__ import annotations

from typing import Literal

from .. import _ods

SHARINGS = _ods.ENUMS["Sharing"]["cases"]
ATTRIBUTES = ("size_in_bytes", "alignment", "auto_sync", "sharing")


def _positive(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"TempStorage's {name} must be a positive integer or None; got "
                        f"{value!r}")
    if value <= 0:
        raise ValueError(f"TempStorage's {name} must be a positive integer; got {value}")
    return value


def temp_storage_facts(size_in_bytes: object = None, alignment: object = None,
                       auto_sync: object = False, sharing: object = "shared"
                       ) -> tuple[int | None, int | None, bool, str]:
    """The descriptor's facts, normalized (``auto_sync=None`` is False).

    TypeError or ValueError naming the argument and what it accepts.
    """
    size = _positive("size_in_bytes", size_in_bytes)
    align = _positive("alignment", alignment)
    if align is not None and align & (align - 1):
        raise ValueError(f"TempStorage's alignment must be a power of two; got {align}")
    if auto_sync is not None and not isinstance(auto_sync, bool):
        raise TypeError(f"TempStorage's auto_sync must be True, False or None; got "
                        f"{auto_sync!r}")
    if not isinstance(sharing, str) or sharing not in SHARINGS:
        raise ValueError(f"TempStorage's sharing must be 'shared' or 'exclusive'; got "
                         f"{sharing!r}")
    return size, align, bool(auto_sync), sharing


class TempStorage:
    """Shared-memory requirements for cooperative operations in one kernel.

    Parameters and rules follow ``cuda.coop.TempStorage``: ``size_in_bytes``
    (positive, or None to size from the uses), ``alignment`` (a positive power
    of two, or None), ``auto_sync`` (True for trailing reuse barriers; None
    becomes False), ``sharing`` ("shared" or "exclusive"). Construct it inside
    the kernel and pass it as ``temp_storage=``; its attributes are
    compile-time constants there too.
    """

    __slots__ = ("_size_in_bytes", "_alignment", "_auto_sync", "_sharing")

    def __init__(self, size_in_bytes: int | None = None, *, alignment: int | None = None,
                 auto_sync: bool | None = False,
                 sharing: Literal["shared", "exclusive"] = "shared") -> None:
        (self._size_in_bytes, self._alignment, self._auto_sync,
         self._sharing) = temp_storage_facts(size_in_bytes, alignment, auto_sync, sharing)

    @property
    def size_in_bytes(self) -> int | None:
        """The requested capacity in bytes; None lets the compiler size it."""
        return self._size_in_bytes

    @property
    def alignment(self) -> int | None:
        """The requested minimum alignment in bytes; None lets the compiler choose."""
        return self._alignment

    @property
    def auto_sync(self) -> bool:
        """Whether each scratch-using call gets a trailing reuse barrier."""
        return self._auto_sync

    @property
    def sharing(self) -> str:
        """"shared" (calls reuse one slice) or "exclusive" (a slice per call site)."""
        return self._sharing

    def reserve(self, count: int, dtype: object, alignment: int | None = None):
        """A shared array of ``count`` items of ``dtype`` (at ``alignment``
        bytes, or the item's) for the kernel's own use, carved out of this
        storage: the planner places it before the slices of the coop calls
        that use the storage, so none of them touches it, and it counts
        towards ``size_in_bytes``. The kernel synchronizes its own accesses
        (``cuda.syncthreads()``), as for any shared array. Inside a kernel
        only."""
        from .._markers import _outside_kernel

        _outside_kernel("TempStorage.reserve")

    def _facts(self) -> tuple[int | None, int | None, bool, str]:
        return self._size_in_bytes, self._alignment, self._auto_sync, self._sharing

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TempStorage) and self._facts() == other._facts()

    def __hash__(self) -> int:
        return hash(self._facts())

    def __repr__(self) -> str:
        return (f"TempStorage(size_in_bytes={self._size_in_bytes}, "
                f"alignment={self._alignment}, auto_sync={self._auto_sync}, "
                f"sharing={self._sharing!r})")
