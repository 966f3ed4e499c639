# The typing contract of cuda.coop (authoritative for overloads and results).
from typing import Any, Callable, Literal, Protocol, TypeVar, overload

_T = TypeVar("_T")
_CommonNumericT = TypeVar("_CommonNumericT", int, float)
_ThreadGroupT = TypeVar("_ThreadGroupT", bound="ThreadGroup")

BlockLoadStoreAlgorithm = Literal["direct", "striped", "vectorize", "transpose",
                                  "warp_transpose", "warp_transpose_timesliced"]
WarpLoadStoreAlgorithm = Literal["direct", "striped", "vectorize", "transpose"]
GroupKind = Literal["thread", "warp", "block", "cluster", "grid",
                    "threads_within_warp", "warps_within_block"]
IntegerValue = int
ValidItems = int
BlockExchangeMode = Literal["striped_to_blocked", "blocked_to_striped",
                            "warp_striped_to_blocked", "blocked_to_warp_striped",
                            "scatter_to_blocked", "scatter_to_striped",
                            "scatter_to_striped_guarded", "scatter_to_striped_flagged"]
WarpExchangeMode = Literal["striped_to_blocked", "blocked_to_striped", "scatter_to_striped"]
ShuffleMode = Literal["up", "down", "offset", "rotate"]
BinaryOpName = Literal["sum", "min", "max", "multiplies", "bit_and", "bit_or", "bit_xor"]
# A named operator, or a function of two items returning one.
BinaryOp = BinaryOpName | Callable[[Any, Any], Any]
# A block scan's prefix: a StatefulFunction, or a function of the tile's aggregate.
PrefixOp = StatefulFunction | Callable[[Any], Any]
ReduceAlgorithm = Literal["warp_reductions", "raking", "raking_commutative_only"]
ScanAlgorithm = Literal["raking", "raking_memoize", "warp_scans"]
ScanMode = Literal["inclusive", "exclusive"]
BatchLayout = Literal["striped", "blocked"]
HistogramAlgorithm = Literal["atomic", "sort"]
RadixRankAlgorithm = Literal["basic", "memoize", "match"]
# A histogram's counter dtype: numpy.int32, numpy.uint32, numpy.int64, numpy.uint64 or int.
CounterDType = type
# A select's predicate: a function of one item returning a bool.
Predicate = Callable[[Any], bool]

__version__: str

class CompilerMarkerError(RuntimeError): ...

class StatefulFunction:
    """A function with state, the ``prefix_op`` of block scans over many tiles."""
    function: Callable[[Any, Any], Any]
    state: Any
    def __init__(self, function: Callable[[Any, Any], Any], state: Any) -> None: ...
    def __call__(self, tile_aggregate: Any) -> Any: ...

class ThreadHierarchy:
    def __init__(self) -> None: ...
    @property
    def block_dim(self) -> tuple[int, int, int] | None: ...
    @property
    def cluster_dim(self) -> tuple[int, int, int] | None: ...
    @property
    def grid_dim(self) -> tuple[int, int, int] | None: ...
    @property
    def implicit(self) -> bool: ...

Hierarchy = ThreadHierarchy

class GroupByMapping:
    # A frozen dataclass at runtime: GroupByMapping(count, exhaustive, unit).
    def __init__(self, count: int, exhaustive: bool, unit: Literal["thread", "warp"]) -> None: ...
    @property
    def count(self) -> int: ...
    @property
    def exhaustive(self) -> bool: ...
    @property
    def unit(self) -> Literal["thread", "warp"]: ...

class ThreadGroup:
    kind: GroupKind
    hierarchy: ThreadHierarchy
    parent: ThreadGroup | None
    mapping: GroupByMapping | None
    source: str
    def __init__(self, kind: str, hierarchy: ThreadHierarchy = ..., parent: ThreadGroup | None = None,
                 mapping: GroupByMapping | None = None, source: str = "explicit") -> None: ...
    @property
    def static_size(self) -> int | None: ...
    def group_by(self: _ThreadGroupT, count: int, *, exhaustive: bool = True) -> _ThreadGroupT: ...

BlockGroup = ThreadGroup
WarpGroup = ThreadGroup

class ThreadDataLike(Protocol[_T]):
    @property
    def items_per_thread(self) -> int: ...
    def __getitem__(self, index: int) -> _T: ...
    def __setitem__(self, index: int, value: _T) -> None: ...

CommonThreadDataLike = ThreadDataLike

class TempStorageLike(Protocol):
    @property
    def size_in_bytes(self) -> int | None: ...
    @property
    def alignment(self) -> int | None: ...
    @property
    def auto_sync(self) -> bool: ...
    @property
    def sharing(self) -> Literal["shared", "exclusive"]: ...
    def reserve(self, count: int, dtype: object, alignment: int | None = None) -> Any: ...

def register(backend: Literal["numba-cuda-mlir", "numba_cuda_mlir"]) -> None: ...
def this_thread() -> ThreadGroup: ...
def this_warp() -> ThreadGroup: ...
def this_block() -> ThreadGroup: ...
def this_cluster() -> ThreadGroup: ...
def this_grid() -> ThreadGroup: ...
def ThreadData(items_per_thread: int, dtype: object | None = None, *,
               alignment: int | None = None) -> ThreadDataLike[Any]: ...
def TempStorage(size_in_bytes: int | None = None, *, alignment: int | None = None,
                auto_sync: bool | None = False,
                sharing: Literal["shared", "exclusive"] = "shared") -> TempStorageLike: ...
@overload
def load(group: BlockGroup, source: object, output: ThreadDataLike[_CommonNumericT], /, *,
         algorithm: BlockLoadStoreAlgorithm = "direct", valid_items: ValidItems | None = None,
         oob_default: _CommonNumericT | float | None = None, offset: IntegerValue | None = None,
         temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def load(group: WarpGroup, source: object, output: ThreadDataLike[_CommonNumericT], /, *,
         algorithm: WarpLoadStoreAlgorithm = "direct", valid_items: ValidItems | None = None,
         oob_default: _CommonNumericT | float | None = None, offset: IntegerValue | None = None,
         temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def store(group: BlockGroup, destination: object,
          value: _CommonNumericT | CommonThreadDataLike[_CommonNumericT], /, *,
          algorithm: BlockLoadStoreAlgorithm = "direct", valid_items: ValidItems | None = None,
          offset: IntegerValue | None = None, temp_storage: TempStorageLike | None = None) -> None: ...
@overload
def store(group: WarpGroup, destination: object,
          value: _CommonNumericT | CommonThreadDataLike[_CommonNumericT], /, *,
          algorithm: WarpLoadStoreAlgorithm = "direct", valid_items: ValidItems | None = None,
          offset: IntegerValue | None = None, temp_storage: TempStorageLike | None = None) -> None: ...

@overload
def exchange(group: BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
             mode: BlockExchangeMode = "striped_to_blocked",
             ranks: ThreadDataLike[int] | None = None,
             valid_flags: ThreadDataLike[Any] | None = None,
             warp_time_slicing: bool = False,
             temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exchange(group: WarpGroup, value: ThreadDataLike[_CommonNumericT], /, *,
             mode: WarpExchangeMode = "striped_to_blocked",
             ranks: ThreadDataLike[int] | None = None, valid_flags: None = None,
             warp_time_slicing: Literal[False] = False,
             temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def shuffle(block: BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
            mode: Literal["up", "down"] = "down", distance: Literal[1] = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def shuffle(block: BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
            mode: Literal["down"] = "down", distance: Literal[1] = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[True], block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def shuffle(block: BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
            mode: Literal["up"], distance: Literal[1] = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[True],
            temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def shuffle(block: BlockGroup, value: _CommonNumericT, /, *,
            mode: Literal["offset", "rotate"], distance: IntegerValue = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...

@overload
def reduce(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, binary_op: BinaryOp = "sum", *,
           valid_items: ValidItems | None = None, broadcast: bool = True,
           algorithm: ReduceAlgorithm | None = None,
           temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def reduce(group: ThreadGroup, value: _CommonNumericT, /, binary_op: BinaryOp = "sum", *,
           valid_items: ValidItems | None = None, broadcast: bool = True,
           algorithm: ReduceAlgorithm | None = None,
           temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
        valid_items: ValidItems | None = None, broadcast: bool = True,
        algorithm: ReduceAlgorithm | None = None,
        temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def sum(group: ThreadGroup, value: _CommonNumericT, /, *,
        valid_items: ValidItems | None = None, broadcast: bool = True,
        algorithm: ReduceAlgorithm | None = None,
        temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
         mode: ScanMode = "exclusive",
         scan_op: BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: ValidItems | None = None,
         block_aggregate: Literal[False] = False,
         prefix_op: PrefixOp | None = None,
         algorithm: ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
         mode: ScanMode = "exclusive",
         scan_op: BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: ValidItems | None = None,
         block_aggregate: Literal[True],
         prefix_op: PrefixOp | None = None,
         algorithm: ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def scan(group: ThreadGroup, value: _CommonNumericT, /, *,
         mode: ScanMode = "exclusive",
         scan_op: BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: ValidItems | None = None,
         block_aggregate: Literal[False] = False,
         prefix_op: PrefixOp | None = None,
         algorithm: ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def scan(group: ThreadGroup, value: _CommonNumericT, /, *,
         mode: ScanMode = "exclusive",
         scan_op: BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: ValidItems | None = None,
         block_aggregate: Literal[True],
         prefix_op: PrefixOp | None = None,
         algorithm: ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def inclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def exclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: PrefixOp | None = None,
                   algorithm: ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def inclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def exclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: PrefixOp | None = None,
                  algorithm: ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def select(group: ThreadGroup, values: ThreadDataLike[_CommonNumericT], /, *,
           flags: ThreadDataLike[Any] | None = None,
           predicate: Predicate | None = None,
           valid_items: ValidItems | None = None,
           temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], int]: ...
@overload
def select(group: ThreadGroup, values: _CommonNumericT, /, *,
           flags: int | bool | None = None,
           predicate: Predicate | None = None,
           valid_items: ValidItems | None = None,
           temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, int]: ...
@overload
def reduce_batched(warp_group: WarpGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                   binary_op: BinaryOp = "sum",
                   output_layout: BatchLayout = "striped") -> ThreadDataLike[_CommonNumericT]: ...
@overload
def reduce_batched(warp_group: WarpGroup, value: _CommonNumericT, /, *,
                   binary_op: BinaryOp = "sum",
                   output_layout: BatchLayout = "striped") -> _CommonNumericT: ...
@overload
def histogram(block: BlockGroup, samples: ThreadDataLike[int] | int, /, *,
              bins: int,
              bins_per_thread: int | None = None,
              counter_dtype: CounterDType = ...,
              algorithm: HistogramAlgorithm = "atomic",
              valid_items: ValidItems | None = None,
              accumulate: ThreadDataLike[int] | None = None,
              out: None = None,
              temp_storage: TempStorageLike | None = None) -> ThreadDataLike[int]: ...
@overload
def histogram(block: BlockGroup, samples: ThreadDataLike[int] | int, /, *,
              bins: int,
              bins_per_thread: None = None,
              counter_dtype: CounterDType = ...,
              algorithm: HistogramAlgorithm = "atomic",
              valid_items: ValidItems | None = None,
              accumulate: None = None,
              out: object,
              temp_storage: TempStorageLike | None = None) -> None: ...
@overload
def run_length_decode(block: BlockGroup, run_values: ThreadDataLike[_CommonNumericT],
                      run_lengths: ThreadDataLike[int], /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: Literal[False] = False,
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def run_length_decode(block: BlockGroup, run_values: ThreadDataLike[_CommonNumericT],
                      run_lengths: ThreadDataLike[int], /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: Literal[True],
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], int]: ...
@overload
def run_length_decode(block: BlockGroup, run_values: _CommonNumericT, run_lengths: int, /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: bool = False,
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> Any: ...
def run_length_decode_into(block: BlockGroup, run_values: ThreadDataLike[_CommonNumericT],
                           run_lengths: ThreadDataLike[int], destination: object, /, *,
                           decoded_items_per_thread: int,
                           destination_offset: int = 0,
                           decoded_offset_dtype: type = ...,
                           temp_storage: TempStorageLike | None = None) -> int: ...
@overload
def radix_rank_keys(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: Literal[False] | ThreadDataLike[int] = False,
                    algorithm: RadixRankAlgorithm | None = None) -> ThreadDataLike[int]: ...
@overload
def radix_rank_keys(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: Literal[True],
                    algorithm: RadixRankAlgorithm | None = None) -> tuple[ThreadDataLike[int], ThreadDataLike[int]]: ...
@overload
def radix_rank_keys(block: BlockGroup, keys: _CommonNumericT, /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: bool | ThreadDataLike[int] = False,
                    algorithm: RadixRankAlgorithm | None = None) -> Any: ...
radix_rank = radix_rank_keys
@overload
def radix_sort_keys(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    descending: bool = False,
                    blocked_to_striped: bool = False,
                    valid_items: ValidItems | None = None,
                    temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def radix_sort_keys(block: BlockGroup, keys: _CommonNumericT, /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    descending: bool = False,
                    blocked_to_striped: bool = False,
                    valid_items: ValidItems | None = None,
                    temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def radix_sort_pairs(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT],
                     values: ThreadDataLike[_T], /, *,
                     begin_bit: int = 0,
                     end_bit: int | None = None,
                     descending: bool = False,
                     blocked_to_striped: bool = False,
                     valid_items: ValidItems | None = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def radix_sort_pairs(block: BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                     begin_bit: int = 0,
                     end_bit: int | None = None,
                     descending: bool = False,
                     blocked_to_striped: bool = False,
                     valid_items: ValidItems | None = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def argsort(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
            descending: bool = False,
            valid_items: ValidItems | None = None,
            temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[int]]: ...
@overload
def argsort(block: BlockGroup, keys: _CommonNumericT, /, *,
            descending: bool = False,
            valid_items: ValidItems | None = None,
            temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, int]: ...
@overload
def topk_max_keys(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
                  k: int,
                  valid_items: ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def topk_max_keys(block: BlockGroup, keys: _CommonNumericT, /, *,
                  k: int,
                  valid_items: ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def topk_min_keys(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT], /, *,
                  k: int,
                  valid_items: ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def topk_min_keys(block: BlockGroup, keys: _CommonNumericT, /, *,
                  k: int,
                  valid_items: ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def topk_max_pairs(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT],
                   values: ThreadDataLike[_T], /, *,
                   k: int,
                   valid_items: ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def topk_max_pairs(block: BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                   k: int,
                   valid_items: ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def topk_min_pairs(block: BlockGroup, keys: ThreadDataLike[_CommonNumericT],
                   values: ThreadDataLike[_T], /, *,
                   k: int,
                   valid_items: ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def topk_min_pairs(block: BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                   k: int,
                   valid_items: ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def merge_sort_keys(group: ThreadGroup, keys: ThreadDataLike[_T], /, *,
                    compare_op: Callable[[Any, Any], bool] | None = None,
                    descending: bool = False,
                    stable: bool = False,
                    valid_items: ValidItems | None = None,
                    oob_default: Any = None,
                    temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_T]: ...
@overload
def merge_sort_keys(group: ThreadGroup, keys: _CommonNumericT, /, *,
                    compare_op: Callable[[Any, Any], bool] | None = None,
                    descending: bool = False,
                    stable: bool = False,
                    valid_items: ValidItems | None = None,
                    oob_default: Any = None,
                    temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def merge_sort_pairs(group: ThreadGroup, keys: ThreadDataLike[_T], values: ThreadDataLike[Any], /, *,
                     compare_op: Callable[[Any, Any], bool] | None = None,
                     descending: bool = False,
                     stable: bool = False,
                     valid_items: ValidItems | None = None,
                     oob_default: Any = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_T], ThreadDataLike[Any]]: ...
@overload
def merge_sort_pairs(group: ThreadGroup, keys: _CommonNumericT, values: Any, /, *,
                     compare_op: Callable[[Any, Any], bool] | None = None,
                     descending: bool = False,
                     stable: bool = False,
                     valid_items: ValidItems | None = None,
                     oob_default: Any = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, Any]: ...
