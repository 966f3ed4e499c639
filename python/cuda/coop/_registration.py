"""Activating a compiler backend: ``cuda.coop.register``."""

from __future__ import annotations

import importlib
import os
import sys
import warnings

# Backend name -> (adapter module, compiler module it needs, pip extras: one
# per CUDA major version, as (extra, CUDA version)).
BACKENDS = {
    "numba-cuda-mlir": ("cuda.coop.numba_mlir", "numba_cuda_mlir",
                        (("cuda-coop[numba-cuda-mlir-cu13]", "CUDA 13"),
                         ("cuda-coop[numba-cuda-mlir-cu12]", "CUDA 12"))),
    "cute": ("cuda.coop.cute", "cutlass", (("cuda-coop[cute]", "CUDA 12 and 13"),)),
}
# The compiler versions each adapter was built against (major.minor prefixes):
# their extension points are private and change between releases.
SUPPORTED_VERSIONS = {"numba-cuda-mlir": ("0.6.",), "cute": ("4.8.",)}
ALIASES = {"numba_cuda_mlir": "numba-cuda-mlir"}
DISABLE_AUTO = "CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION"

_registered: set[str] = set()


def registered() -> frozenset[str]:
    """The backends active in this process."""
    return frozenset(_registered)


def _install_hint(name: str) -> str:
    return " or ".join(f'pip install "{extra}" ({cuda})' for extra, cuda in BACKENDS[name][2])


def require_compiler(name: str) -> None:
    """Import the compiler backend `name` needs; ImportError naming the extras
    that install it when it is missing or not a supported version."""
    compiler = BACKENDS[name][1]
    try:
        compiler_module = importlib.import_module(compiler)
    except ImportError as error:
        raise ImportError(f"cuda.coop backend {name!r} needs the {compiler} package: "
                          f"{_install_hint(name)}") from error
    version = getattr(compiler_module, "__version__", "unknown")
    if not str(version).startswith(SUPPORTED_VERSIONS[name]):
        raise ImportError(f"cuda.coop backend {name!r} supports {compiler} "
                          f"{', '.join(v + 'x' for v in SUPPORTED_VERSIONS[name])}; found "
                          f"{version}: {_install_hint(name)}")


def register(backend: str) -> None:
    """Register cooperative primitives with the selected compiler backend.

    Safe to repeat; ``"numba_cuda_mlir"`` is an alias of ``"numba-cuda-mlir"``.
    Raises ValueError for an unknown backend and ImportError when the backend
    adapter or its compiler is unavailable or incompatible.
    """
    if not isinstance(backend, str):
        raise ValueError(f"backend must be a string such as 'numba-cuda-mlir'; got {backend!r}")
    name = ALIASES.get(backend, backend)
    if name not in BACKENDS:
        raise ValueError(f"unsupported cuda.coop backend {backend!r}; supported: "
                         + ", ".join(sorted(set(BACKENDS) | set(ALIASES))))
    if name in _registered:
        return
    adapter = BACKENDS[name][0]
    require_compiler(name)
    try:
        module = importlib.import_module(adapter)
    except ModuleNotFoundError as error:
        if error.name != adapter:
            raise
        raise ImportError(f"this cuda.coop build has no {name!r} backend adapter "
                          f"({adapter})") from error
    module._activate()
    _registered.add(name)


def auto_register() -> None:
    """Activate the backends whose compilers were imported before cuda.coop,
    unless CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION=1."""
    if os.environ.get(DISABLE_AUTO, "").strip() not in ("", "0"):
        return
    for name, (_, compiler, _) in BACKENDS.items():
        if compiler in sys.modules:
            try:
                register(name)
            except ImportError as error:
                warnings.warn(f"cuda.coop could not activate the {name!r} backend "
                              f"automatically: {error}", RuntimeWarning, stacklevel=3)
