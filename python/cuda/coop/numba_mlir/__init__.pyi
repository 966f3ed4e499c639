# The typing contract of cuda.coop.numba_mlir: the common API of cuda.coop,
# plus Numba-CUDA-MLIR's extensions (fixed-size local arrays as payloads,
# TempStorage as a class whose facts are attributes, the local and shared
# memory namespaces).
from typing import Any, Callable, Literal, TypeVar, overload

from numpy.typing import NDArray

from .. import BlockExchangeMode as _BlockExchangeMode
from .. import BlockGroup as _BlockGroup
from .. import BatchLayout as _BatchLayout
from .. import CounterDType as _CounterDType
from .. import HistogramAlgorithm as _HistogramAlgorithm
from .. import RadixRankAlgorithm as _RadixRankAlgorithm
from .. import BinaryOp as _BinaryOp
from .. import BlockLoadStoreAlgorithm as _BlockLoadStoreAlgorithm
from .. import PrefixOp as _PrefixOp
from .. import Predicate as _Predicate
from .. import ReduceAlgorithm as _ReduceAlgorithm
from .. import ScanAlgorithm as _ScanAlgorithm
from .. import ScanMode as _ScanMode
from .. import StatefulFunction as StatefulFunction
from .. import GroupByMapping as GroupByMapping
from .. import Hierarchy as Hierarchy
from .. import IntegerValue as _IntegerValue
from .. import TempStorageLike as TempStorageLike
from .. import ThreadDataLike as ThreadDataLike
from .. import ThreadGroup as ThreadGroup
from .. import ThreadHierarchy as ThreadHierarchy
from .. import ValidItems as _ValidItems
from .. import WarpExchangeMode as _WarpExchangeMode
from .. import WarpGroup as _WarpGroup
from .. import WarpLoadStoreAlgorithm as _WarpLoadStoreAlgorithm
from .. import register as register
from .. import this_block as this_block
from .. import this_cluster as this_cluster
from .. import this_grid as this_grid
from .. import this_thread as this_thread
from .. import this_warp as this_warp

_CommonNumericT = TypeVar("_CommonNumericT", int, float)
_T = TypeVar("_T")

class _MemoryNamespace:
    # numba_cuda_mlir.cuda.local / .shared: arrays of a compile-time shape.
    def array(self, shape: int | tuple[int, ...], dtype: Any, alignas: int = 8,
              **kwargs: Any) -> NDArray[Any]: ...

local: _MemoryNamespace
shared: _MemoryNamespace

def ThreadData(items_per_thread: int, dtype: object | None = None, *,
               alignment: int | None = None) -> ThreadDataLike[Any]: ...

class TempStorage:
    def __init__(self, size_in_bytes: int | None = None, *, alignment: int | None = None,
                 auto_sync: bool | None = False,
                 sharing: Literal["shared", "exclusive"] = "shared") -> None: ...
    @property
    def size_in_bytes(self) -> int | None: ...
    @property
    def alignment(self) -> int | None: ...
    @property
    def auto_sync(self) -> bool: ...
    @property
    def sharing(self) -> Literal["shared", "exclusive"]: ...
    def reserve(self, count: int, dtype: object, alignment: int | None = None) -> NDArray[Any]: ...

@overload
def load(group: _BlockGroup, source: object,
         output: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
         algorithm: _BlockLoadStoreAlgorithm = "direct", valid_items: _ValidItems | None = None,
         oob_default: _CommonNumericT | float | None = None,
         offset: _IntegerValue | None = None,
         temp_storage: TempStorageLike | None = None) -> Any: ...
@overload
def load(group: _WarpGroup, source: object,
         output: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
         algorithm: _WarpLoadStoreAlgorithm = "direct", valid_items: _ValidItems | None = None,
         oob_default: _CommonNumericT | float | None = None,
         offset: _IntegerValue | None = None, temp_storage: TempStorageLike | None = None) -> Any: ...
@overload
def store(group: _BlockGroup, destination: object,
          value: _CommonNumericT | ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
          algorithm: _BlockLoadStoreAlgorithm = "direct", valid_items: _ValidItems | None = None,
          offset: _IntegerValue | None = None,
          temp_storage: TempStorageLike | None = None) -> None: ...
@overload
def store(group: _WarpGroup, destination: object,
          value: _CommonNumericT | ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
          algorithm: _WarpLoadStoreAlgorithm = "direct", valid_items: _ValidItems | None = None,
          offset: _IntegerValue | None = None, temp_storage: TempStorageLike | None = None) -> Any: ...

@overload
def exchange(group: _BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
             mode: _BlockExchangeMode = "striped_to_blocked",
             ranks: ThreadDataLike[int] | NDArray[Any] | None = None,
             valid_flags: ThreadDataLike[Any] | NDArray[Any] | None = None,
             warp_time_slicing: bool = False,
             temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exchange(group: _BlockGroup, value: NDArray[Any], /, *,
             mode: _BlockExchangeMode = "striped_to_blocked",
             ranks: ThreadDataLike[int] | NDArray[Any] | None = None,
             valid_flags: ThreadDataLike[Any] | NDArray[Any] | None = None,
             warp_time_slicing: bool = False,
             temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def exchange(group: _WarpGroup, value: ThreadDataLike[_CommonNumericT], /, *,
             mode: _WarpExchangeMode = "striped_to_blocked",
             ranks: ThreadDataLike[int] | NDArray[Any] | None = None, valid_flags: None = None,
             warp_time_slicing: Literal[False] = False,
             temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def shuffle(block: _BlockGroup, value: ThreadDataLike[_CommonNumericT], /, *,
            mode: Literal["up", "down"] = "down", distance: Literal[1] = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def shuffle(block: _BlockGroup, value: NDArray[Any], /, *,
            mode: Literal["up", "down"] = "down", distance: Literal[1] = 1,
            fill: float | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def shuffle(block: _BlockGroup, value: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
            mode: Literal["down"] = "down", distance: Literal[1] = 1,
            fill: _CommonNumericT | float | None = None,
            block_prefix: Literal[True], block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> tuple[Any, Any]: ...
@overload
def shuffle(block: _BlockGroup, value: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
            mode: Literal["up"], distance: Literal[1] = 1,
            fill: _CommonNumericT | float | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[True],
            temp_storage: TempStorageLike | None = None) -> tuple[Any, Any]: ...
@overload
def shuffle(block: _BlockGroup, value: _CommonNumericT, /, *,
            mode: Literal["offset", "rotate"], distance: _IntegerValue = 1,
            fill: _CommonNumericT | None = None,
            block_prefix: Literal[False] = False, block_suffix: Literal[False] = False,
            temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...

@overload
def reduce(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, binary_op: _BinaryOp = "sum", *,
           valid_items: _ValidItems | None = None, broadcast: bool = True,
           algorithm: _ReduceAlgorithm | None = None,
           temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def reduce(group: ThreadGroup, value: NDArray[Any], /, binary_op: _BinaryOp = "sum", *,
           valid_items: _ValidItems | None = None, broadcast: bool = True,
           algorithm: _ReduceAlgorithm | None = None,
           temp_storage: TempStorageLike | None = None) -> Any: ...
@overload
def reduce(group: ThreadGroup, value: _CommonNumericT, /, binary_op: _BinaryOp = "sum", *,
           valid_items: _ValidItems | None = None, broadcast: bool = True,
           algorithm: _ReduceAlgorithm | None = None,
           temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
        valid_items: _ValidItems | None = None, broadcast: bool = True,
        algorithm: _ReduceAlgorithm | None = None,
        temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def sum(group: ThreadGroup, value: NDArray[Any], /, *,
        valid_items: _ValidItems | None = None, broadcast: bool = True,
        algorithm: _ReduceAlgorithm | None = None,
        temp_storage: TempStorageLike | None = None) -> Any: ...
@overload
def sum(group: ThreadGroup, value: _CommonNumericT, /, *,
        valid_items: _ValidItems | None = None, broadcast: bool = True,
        algorithm: _ReduceAlgorithm | None = None,
        temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[False] = False,
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[True],
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def scan(group: ThreadGroup, value: _CommonNumericT, /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[False] = False,
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def scan(group: ThreadGroup, value: _CommonNumericT, /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: _CommonNumericT | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[True],
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def scan(group: ThreadGroup, value: NDArray[Any], /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: float | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[False] = False,
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def scan(group: ThreadGroup, value: NDArray[Any], /, *,
         mode: _ScanMode = "exclusive",
         scan_op: _BinaryOp = "sum",
         initial_value: float | None = None,
         valid_items: _ValidItems | None = None,
         block_aggregate: Literal[True],
         prefix_op: _PrefixOp | None = None,
         algorithm: _ScanAlgorithm | None = None,
         temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], Any]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def inclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: NDArray[Any], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: float | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def inclusive_scan(group: ThreadGroup, value: NDArray[Any], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: float | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], Any]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def exclusive_scan(group: ThreadGroup, value: _CommonNumericT, /, scan_op: _BinaryOp = "sum", *,
                   initial_value: _CommonNumericT | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: NDArray[Any], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: float | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[False] = False,
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def exclusive_scan(group: ThreadGroup, value: NDArray[Any], /, scan_op: _BinaryOp = "sum", *,
                   initial_value: float | None = None,
                   valid_items: _ValidItems | None = None,
                   block_aggregate: Literal[True],
                   prefix_op: _PrefixOp | None = None,
                   algorithm: _ScanAlgorithm | None = None,
                   temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], Any]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def inclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: NDArray[Any], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def inclusive_sum(group: ThreadGroup, value: NDArray[Any], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], Any]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], _CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def exclusive_sum(group: ThreadGroup, value: _CommonNumericT, /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _CommonNumericT]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: NDArray[Any], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[False] = False,
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> NDArray[Any]: ...
@overload
def exclusive_sum(group: ThreadGroup, value: NDArray[Any], /, *,
                  valid_items: _ValidItems | None = None,
                  block_aggregate: Literal[True],
                  prefix_op: _PrefixOp | None = None,
                  algorithm: _ScanAlgorithm | None = None,
                  temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], Any]: ...
@overload
def select(group: ThreadGroup, values: ThreadDataLike[_CommonNumericT], /, *,
           flags: ThreadDataLike[Any] | NDArray[Any] | None = None,
           predicate: _Predicate | None = None,
           valid_items: _ValidItems | None = None,
           temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], int]: ...
@overload
def select(group: ThreadGroup, values: _CommonNumericT, /, *,
           flags: int | bool | None = None,
           predicate: _Predicate | None = None,
           valid_items: _ValidItems | None = None,
           temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, int]: ...
@overload
def select(group: ThreadGroup, values: NDArray[Any], /, *,
           flags: ThreadDataLike[Any] | NDArray[Any] | None = None,
           predicate: _Predicate | None = None,
           valid_items: _ValidItems | None = None,
           temp_storage: TempStorageLike | None = None) -> tuple[NDArray[Any], int]: ...
@overload
def reduce_batched(warp_group: _WarpGroup, value: ThreadDataLike[_CommonNumericT], /, *,
                   binary_op: _BinaryOp = "sum",
                   output_layout: _BatchLayout = "striped") -> ThreadDataLike[_CommonNumericT]: ...
@overload
def reduce_batched(warp_group: _WarpGroup, value: _CommonNumericT, /, *,
                   binary_op: _BinaryOp = "sum",
                   output_layout: _BatchLayout = "striped") -> _CommonNumericT: ...
@overload
def reduce_batched(warp_group: _WarpGroup, value: NDArray[Any], /, *,
                   binary_op: _BinaryOp = "sum",
                   output_layout: _BatchLayout = "striped") -> NDArray[Any]: ...
@overload
def histogram(block: _BlockGroup, samples: ThreadDataLike[int] | NDArray[Any] | int, /, *,
              bins: int,
              bins_per_thread: int | None = None,
              counter_dtype: _CounterDType = ...,
              algorithm: _HistogramAlgorithm = "atomic",
              valid_items: _ValidItems | None = None,
              accumulate: ThreadDataLike[int] | NDArray[Any] | None = None,
              out: None = None,
              temp_storage: TempStorageLike | None = None) -> ThreadDataLike[int]: ...
@overload
def histogram(block: _BlockGroup, samples: ThreadDataLike[int] | NDArray[Any] | int, /, *,
              bins: int,
              bins_per_thread: None = None,
              counter_dtype: _CounterDType = ...,
              algorithm: _HistogramAlgorithm = "atomic",
              valid_items: _ValidItems | None = None,
              accumulate: None = None,
              out: NDArray[Any],
              temp_storage: TempStorageLike | None = None) -> None: ...
@overload
def run_length_decode(block: _BlockGroup, run_values: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                      run_lengths: ThreadDataLike[int] | NDArray[Any], /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: Literal[False] = False,
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def run_length_decode(block: _BlockGroup, run_values: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                      run_lengths: ThreadDataLike[int] | NDArray[Any], /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: Literal[True],
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], int]: ...
@overload
def run_length_decode(block: _BlockGroup, run_values: _CommonNumericT, run_lengths: int, /, *,
                      decoded_items_per_thread: int,
                      decoded_window_offset: int = 0,
                      total_decoded_size: bool = False,
                      decoded_offset_dtype: type = ...,
                      temp_storage: TempStorageLike | None = None) -> Any: ...
def run_length_decode_into(block: _BlockGroup, run_values: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                           run_lengths: ThreadDataLike[int] | NDArray[Any], destination: NDArray[Any], /, *,
                           decoded_items_per_thread: int,
                           destination_offset: int = 0,
                           decoded_offset_dtype: type = ...,
                           temp_storage: TempStorageLike | None = None) -> int: ...
@overload
def radix_rank_keys(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: Literal[False] | ThreadDataLike[int] = False,
                    algorithm: _RadixRankAlgorithm | None = None) -> ThreadDataLike[int]: ...
@overload
def radix_rank_keys(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: Literal[True],
                    algorithm: _RadixRankAlgorithm | None = None) -> tuple[ThreadDataLike[int], ThreadDataLike[int]]: ...
@overload
def radix_rank_keys(block: _BlockGroup, keys: _CommonNumericT, /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    radix_bits: int | None = None,
                    descending: bool = False,
                    exclusive_digit_prefix: bool | ThreadDataLike[int] = False,
                    algorithm: _RadixRankAlgorithm | None = None) -> Any: ...
radix_rank = radix_rank_keys
@overload
def radix_sort_keys(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    descending: bool = False,
                    blocked_to_striped: bool = False,
                    valid_items: _ValidItems | None = None,
                    temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def radix_sort_keys(block: _BlockGroup, keys: _CommonNumericT, /, *,
                    begin_bit: int = 0,
                    end_bit: int | None = None,
                    descending: bool = False,
                    blocked_to_striped: bool = False,
                    valid_items: _ValidItems | None = None,
                    temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def radix_sort_pairs(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                     values: ThreadDataLike[_T] | NDArray[Any], /, *,
                     begin_bit: int = 0,
                     end_bit: int | None = None,
                     descending: bool = False,
                     blocked_to_striped: bool = False,
                     valid_items: _ValidItems | None = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def radix_sort_pairs(block: _BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                     begin_bit: int = 0,
                     end_bit: int | None = None,
                     descending: bool = False,
                     blocked_to_striped: bool = False,
                     valid_items: _ValidItems | None = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def argsort(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
            descending: bool = False,
            valid_items: _ValidItems | None = None,
            temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[int]]: ...
@overload
def argsort(block: _BlockGroup, keys: _CommonNumericT, /, *,
            descending: bool = False,
            valid_items: _ValidItems | None = None,
            temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, int]: ...
@overload
def topk_max_keys(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
                  k: int,
                  valid_items: _ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def topk_max_keys(block: _BlockGroup, keys: _CommonNumericT, /, *,
                  k: int,
                  valid_items: _ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def topk_min_keys(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any], /, *,
                  k: int,
                  valid_items: _ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_CommonNumericT]: ...
@overload
def topk_min_keys(block: _BlockGroup, keys: _CommonNumericT, /, *,
                  k: int,
                  valid_items: _ValidItems | None = None,
                  sorted: bool = False,
                  temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def topk_max_pairs(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                   values: ThreadDataLike[_T] | NDArray[Any], /, *,
                   k: int,
                   valid_items: _ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def topk_max_pairs(block: _BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                   k: int,
                   valid_items: _ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def topk_min_pairs(block: _BlockGroup, keys: ThreadDataLike[_CommonNumericT] | NDArray[Any],
                   values: ThreadDataLike[_T] | NDArray[Any], /, *,
                   k: int,
                   valid_items: _ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_CommonNumericT], ThreadDataLike[_T]]: ...
@overload
def topk_min_pairs(block: _BlockGroup, keys: _CommonNumericT, values: _T, /, *,
                   k: int,
                   valid_items: _ValidItems | None = None,
                   sorted: bool = False,
                   temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, _T]: ...
@overload
def merge_sort_keys(group: ThreadGroup, keys: ThreadDataLike[_T] | NDArray[Any], /, *,
                    compare_op: Callable[[Any, Any], bool] | None = None,
                    descending: bool = False,
                    stable: bool = False,
                    valid_items: _ValidItems | None = None,
                    oob_default: Any = None,
                    temp_storage: TempStorageLike | None = None) -> ThreadDataLike[_T]: ...
@overload
def merge_sort_keys(group: ThreadGroup, keys: _CommonNumericT, /, *,
                    compare_op: Callable[[Any, Any], bool] | None = None,
                    descending: bool = False,
                    stable: bool = False,
                    valid_items: _ValidItems | None = None,
                    oob_default: Any = None,
                    temp_storage: TempStorageLike | None = None) -> _CommonNumericT: ...
@overload
def merge_sort_pairs(group: ThreadGroup, keys: ThreadDataLike[_T] | NDArray[Any], values: ThreadDataLike[Any] | NDArray[Any], /, *,
                     compare_op: Callable[[Any, Any], bool] | None = None,
                     descending: bool = False,
                     stable: bool = False,
                     valid_items: _ValidItems | None = None,
                     oob_default: Any = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[ThreadDataLike[_T], ThreadDataLike[Any]]: ...
@overload
def merge_sort_pairs(group: ThreadGroup, keys: _CommonNumericT, values: Any, /, *,
                     compare_op: Callable[[Any, Any], bool] | None = None,
                     descending: bool = False,
                     stable: bool = False,
                     valid_items: _ValidItems | None = None,
                     oob_default: Any = None,
                     temp_storage: TempStorageLike | None = None) -> tuple[_CommonNumericT, Any]: ...
