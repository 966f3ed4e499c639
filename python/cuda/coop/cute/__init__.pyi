# The typing contract of cuda.coop.cute: the common API of cuda.coop, whose
# every operation runs in CuTe DSL kernels (payloads are CuTe register
# tensors, memory global or shared CuTe tensors).
from .. import *  # noqa: F403

SUPPORTED: tuple[str, ...]
