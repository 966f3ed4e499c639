# The typing contract of cuda.coop.cute: the common API's operations, which
# all run in CuTe DSL kernels, with the signatures of cuda.coop (payloads are CuTe
# register tensors, memory global or shared CuTe tensors).
from .. import ThreadData as ThreadData
from .. import ThreadGroup as ThreadGroup
from .. import argsort as argsort
from .. import exchange as exchange
from .. import exclusive_scan as exclusive_scan
from .. import exclusive_sum as exclusive_sum
from .. import histogram as histogram
from .. import inclusive_scan as inclusive_scan
from .. import inclusive_sum as inclusive_sum
from .. import load as load
from .. import merge_sort_keys as merge_sort_keys
from .. import merge_sort_pairs as merge_sort_pairs
from .. import radix_rank as radix_rank
from .. import radix_rank_keys as radix_rank_keys
from .. import radix_sort_keys as radix_sort_keys
from .. import radix_sort_pairs as radix_sort_pairs
from .. import reduce as reduce
from .. import reduce_batched as reduce_batched
from .. import register as register
from .. import run_length_decode as run_length_decode
from .. import run_length_decode_into as run_length_decode_into
from .. import scan as scan
from .. import select as select
from .. import shuffle as shuffle
from .. import store as store
from .. import sum as sum
from .. import this_block as this_block
from .. import this_warp as this_warp
from .. import topk_max_keys as topk_max_keys
from .. import topk_max_pairs as topk_max_pairs
from .. import topk_min_keys as topk_min_keys
from .. import topk_min_pairs as topk_min_pairs

SUPPORTED: tuple[str, ...]
