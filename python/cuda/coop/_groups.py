"""Thread groups: which threads cooperate in an operation.

Descriptors are plain Python values: they can be built and inspected outside
a kernel (``coop.this_warp().group_by(8).static_size == 8``). Inside a kernel
a backend resolves their launch facts (the block dimensions).
"""

from __future__ import annotations

import dataclasses
import math

WARP_THREADS = 32

KINDS = ("thread", "warp", "block", "cluster", "grid", "threads_within_warp",
         "warps_within_block")
SOURCES = ("explicit", "this_thread", "this_warp", "this_block", "this_cluster",
           "this_grid", "group_by")


class ThreadHierarchy:
    """The launch dimensions known during group planning.

    The public constructor describes the current kernel launch with unresolved
    dimensions; backends supply exact extents when they resolve a group.
    """

    __slots__ = ("_block_dim", "_cluster_dim", "_grid_dim", "_implicit")

    def __init__(self) -> None:
        self._block_dim = self._cluster_dim = self._grid_dim = None
        self._implicit = True

    @classmethod
    def _resolved(cls, block_dim=None, cluster_dim=None, grid_dim=None) -> "ThreadHierarchy":
        """For backends: a hierarchy with the launch facts they know."""
        hierarchy = cls()
        hierarchy._block_dim = _dims("block_dim", block_dim)
        hierarchy._cluster_dim = _dims("cluster_dim", cluster_dim)
        hierarchy._grid_dim = _dims("grid_dim", grid_dim)
        hierarchy._implicit = False
        return hierarchy

    @property
    def block_dim(self) -> tuple[int, int, int] | None:
        """Threads along each axis of one block, once known."""
        return self._block_dim

    @property
    def cluster_dim(self) -> tuple[int, int, int] | None:
        """Blocks along each axis of one cluster, once needed and known."""
        return self._cluster_dim

    @property
    def grid_dim(self) -> tuple[int, int, int] | None:
        """Clusters along each axis of the grid (one block each without clusters)."""
        return self._grid_dim

    @property
    def implicit(self) -> bool:
        """Whether this still refers to the current launch without dimensions."""
        return self._implicit

    def __eq__(self, other) -> bool:
        return isinstance(other, ThreadHierarchy) and (
            self._block_dim, self._cluster_dim, self._grid_dim, self._implicit) == (
            other._block_dim, other._cluster_dim, other._grid_dim, other._implicit)

    def __hash__(self) -> int:
        return hash((self._block_dim, self._cluster_dim, self._grid_dim, self._implicit))

    def __repr__(self) -> str:
        if self._implicit:
            return "ThreadHierarchy(implicit)"
        return (f"ThreadHierarchy(block_dim={self._block_dim}, "
                f"cluster_dim={self._cluster_dim}, grid_dim={self._grid_dim})")


Hierarchy = ThreadHierarchy


def _dims(name, value):
    if value is None:
        return None
    if isinstance(value, int):
        value = (value,)
    dims = tuple(value) + (1,) * (3 - len(tuple(value)))
    if len(dims) != 3 or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0
                                 for d in dims):
        raise ValueError(f"{name} must be one to three positive integers; got {value!r}")
    return dims


@dataclasses.dataclass(frozen=True)
class GroupByMapping:
    """How ``group_by`` partitioned its parent: ``count`` units (threads of a
    warp, or warps of a block) per group."""

    count: int
    exhaustive: bool
    unit: str  # "thread" or "warp"


@dataclasses.dataclass(frozen=True)
class ThreadGroup:
    """The participants in a cooperative operation.

    Use the ``this_*`` factories. Constructing a descriptor does not
    synchronize threads or launch a kernel.
    """

    kind: str
    hierarchy: ThreadHierarchy = dataclasses.field(default_factory=ThreadHierarchy)
    parent: "ThreadGroup | None" = None
    mapping: GroupByMapping | None = None
    source: str = "explicit"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown thread group kind {self.kind!r}; expected one of "
                             + ", ".join(KINDS))
        if not isinstance(self.hierarchy, ThreadHierarchy):
            raise TypeError("hierarchy must be a cuda.coop.ThreadHierarchy")
        partitioned = self.kind in ("threads_within_warp", "warps_within_block")
        if partitioned != (self.mapping is not None):
            raise ValueError(f"a {self.kind!r} group {'needs' if partitioned else 'takes no'} "
                             "group_by mapping; build partitions with group_by()")

    @property
    def static_size(self) -> int | None:
        """Threads in the group, where known without running the kernel."""
        if self.kind == "thread":
            return 1
        if self.kind == "warp":
            return WARP_THREADS
        if self.kind == "threads_within_warp":
            return self.mapping.count
        if self.kind == "warps_within_block":
            return WARP_THREADS * self.mapping.count
        if self.kind == "block" and self.hierarchy.block_dim is not None:
            return math.prod(self.hierarchy.block_dim)
        return None

    def group_by(self, count: int, *, exhaustive: bool = True) -> "ThreadGroup":
        """Partition a physical warp by threads or a block by warps.

        ``this_warp().group_by(8)`` describes eight lanes; ``this_block()
        .group_by(2)`` describes 64 threads (two warps). An exhaustive
        partition must divide the parent's units; ``exhaustive=False``
        allows a remainder.
        """
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"group_by count must be an int; got {type(count).__name__}")
        if count <= 0:
            raise ValueError(f"group_by count must be positive; got {count}")
        if not isinstance(exhaustive, bool):
            raise TypeError(f"exhaustive must be a bool; got {type(exhaustive).__name__}")
        if self.mapping is not None:
            raise ValueError("nested partitions are unsupported: this group already comes "
                             "from group_by; partition this_warp() or this_block() directly")
        if self.kind == "warp":
            _check_partition("warp", WARP_THREADS, "lane", count, exhaustive)
            return ThreadGroup("threads_within_warp", self.hierarchy, self,
                               GroupByMapping(count, exhaustive, "thread"), "group_by")
        if self.kind == "block":
            size = self.static_size
            if size is not None:
                _check_partition("block", -(-size // WARP_THREADS), "warp", count, exhaustive)
            return ThreadGroup("warps_within_block", self.hierarchy, self,
                               GroupByMapping(count, exhaustive, "warp"), "group_by")
        raise ValueError(f"group_by partitions a warp (by threads) or a block (by warps); "
                         f"a {self.kind!r} group cannot be partitioned")


def _check_partition(parent: str, units: int, unit: str, count: int, exhaustive: bool):
    """Groups of `count` units must fit in the parent's `units`, and divide
    them when the partition is exhaustive."""
    if count > units:
        raise ValueError(f"groups of {count} {unit}s do not fit in a {parent} of "
                         f"{units} {unit}s")
    if exhaustive and units % count:
        raise ValueError(f"an exhaustive partition must divide the {parent}'s {units} "
                         f"{unit}s; {count} does not (pass exhaustive=False to allow a "
                         "remainder)")


def this_thread() -> ThreadGroup:
    """The calling thread as a one-thread group."""
    return ThreadGroup("thread", source="this_thread")


def this_warp() -> ThreadGroup:
    """The calling thread's physical warp (32 consecutive threads)."""
    return ThreadGroup("warp", source="this_warp")


def this_block() -> ThreadGroup:
    """All threads of the calling thread's block; its size comes from the launch."""
    return ThreadGroup("block", source="this_block")


def this_cluster() -> ThreadGroup:
    """The thread-block cluster containing the calling thread."""
    return ThreadGroup("cluster", source="this_cluster")


def this_grid() -> ThreadGroup:
    """All threads of the current grid."""
    return ThreadGroup("grid", source="this_grid")
