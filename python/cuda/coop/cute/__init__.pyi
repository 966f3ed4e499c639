# The typing contract of cuda.coop.cute: the common API's operations that run
# in CuTe DSL kernels, with the signatures of cuda.coop (payloads are CuTe
# register tensors, memory global or shared CuTe tensors).
from .. import ThreadData as ThreadData
from .. import ThreadGroup as ThreadGroup
from .. import exchange as exchange
from .. import exclusive_scan as exclusive_scan
from .. import exclusive_sum as exclusive_sum
from .. import inclusive_scan as inclusive_scan
from .. import inclusive_sum as inclusive_sum
from .. import load as load
from .. import reduce as reduce
from .. import register as register
from .. import scan as scan
from .. import shuffle as shuffle
from .. import store as store
from .. import sum as sum
from .. import this_block as this_block
from .. import this_warp as this_warp

SUPPORTED: tuple[str, ...]
