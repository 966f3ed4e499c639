# The typing contract of cuda.coop.cute: the common API of cuda.coop, whose
# every operation runs in CuTe DSL kernels (payloads are CuTe register
# tensors, memory global or shared CuTe tensors).
from .. import *  # noqa: F403

SUPPORTED: tuple[str, ...]

def assume_block(x: int, y: int = 1, z: int = 1) -> None:
    """States the block of a kernel launched with a runtime ``block=``, before
    its first cooperative call; a launch with another block traps."""
