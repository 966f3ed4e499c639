"""cuda.coop: CUB's cooperative block and warp primitives for Python GPU kernels.

The common API (groups, payloads, temporary storage, load and store) is
specified in the API reference; the compiler behind it is the ``coop`` MLIR
dialect, reachable from Python through :mod:`cuda.coop._compiler`.
"""

__version__ = "0.1.0"
