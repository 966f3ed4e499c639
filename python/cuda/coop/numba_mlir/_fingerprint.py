"""Fingerprints for the kernel disk cache: text that changes whenever the code
a kernel compiles to can change.

A kernel's fingerprint covers its code object (bytecode, constants, names,
line table), its defaults, its closure values and the globals it reads, and
recurses into the Python functions, device functions and operators among
them. Library objects (Numba-CUDA-MLIR, cuda.coop, NumPy, the standard library)
are named, not walked: their code is covered by the library fingerprint. A
user module a kernel reads attributes from (`config.N`) contributes the values
of the attributes the kernel names. A value that has no stable description
(an object whose repr is its address) makes the kernel uncacheable, never a
stale hit.
"""

from __future__ import annotations

import builtins
import dataclasses
import enum
import functools
import hashlib
import sys
import types
from pathlib import Path

# Modules whose objects are named, not walked: their versions are in the
# library fingerprint.
LIBRARY_ROOTS = frozenset({"numba_cuda_mlir", "numba", "cuda", "numpy", "llvmlite"}) \
    | frozenset(sys.stdlib_module_names)


class Unfingerprintable(Exception):
    """A value the kernel reads has no stable description."""


@functools.cache
def library_fingerprint() -> str:
    """cuda.coop's build (its Python files and native libraries, by path,
    size and modification time), and the versions of Python, NumPy,
    Numba-CUDA-MLIR and CUDA. Computed once per process."""
    import numba_cuda_mlir
    import numpy
    from numba_cuda_mlir.tools import get_cuda_runtime_version

    import cuda.coop

    package = Path(cuda.coop.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".so", ".pyd", ".dylib", ".dll") and path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns}\n"
                          .encode())
    return repr((cuda.coop.__version__, digest.hexdigest(), sys.implementation.cache_tag,
                 numpy.__version__, numba_cuda_mlir.__version__, get_cuda_runtime_version()))


def kernel_fingerprint(function, options: dict) -> str:
    """The fingerprint of a kernel's Python function and its target options;
    Unfingerprintable names the value that has none."""
    walk = _Walk()
    walk.function(function)
    walk.value(options, "a target option")
    return walk.digest.hexdigest()


def _is_library(module_name: str | None) -> bool:
    return (module_name or "").partition(".")[0] in LIBRARY_ROOTS


def _code_names(code) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


class _Walk:
    def __init__(self):
        self.digest = hashlib.sha256()
        self.seen: set = set()

    def token(self, *parts) -> None:
        self.digest.update(repr(parts).encode() + b"\0")

    def function(self, function) -> None:
        if id(function) in self.seen:
            self.token("again", function.__qualname__)
            return
        self.seen.add(id(function))
        code = function.__code__
        self.token("function", function.__module__, function.__qualname__)
        self.code(code)
        self.value(function.__defaults__, f"a default of {function.__qualname__}")
        self.value(function.__kwdefaults__, f"a default of {function.__qualname__}")
        for name, cell in zip(code.co_freevars, function.__closure__ or ()):
            try:
                contents = cell.cell_contents
            except ValueError:
                self.token("empty cell", name)
                continue
            self.token("closure", name)
            self.value(contents, f"closure variable {name!r}", _code_names(code))
        names = _code_names(code)
        for name in sorted(names):
            if name in function.__globals__:
                self.token("global", name)
                self.value(function.__globals__[name], f"global {name!r}", names)
            elif hasattr(builtins, name):
                self.token("builtin", name)

    def code(self, code) -> None:
        self.token("code", code.co_code, code.co_names, code.co_varnames, code.co_freevars,
                   code.co_cellvars, code.co_argcount, code.co_posonlyargcount,
                   code.co_kwonlyargcount, code.co_flags, code.co_firstlineno,
                   getattr(code, "co_linetable", None), getattr(code, "co_exceptiontable", None))
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self.code(const)
            else:
                self.value(const, "a constant")

    def value(self, value, what: str, names: set = frozenset()) -> None:
        """`names`: the attribute names the code reading `value` uses (for
        user modules and objects)."""
        if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
            self.token(type(value).__name__, value)
        elif isinstance(value, (tuple, list)):
            self.token(type(value).__name__, len(value))
            for item in value:
                self.value(item, what, names)
        elif isinstance(value, (set, frozenset)):
            parts = []
            for item in value:
                sub = _Walk()
                sub.seen = self.seen
                sub.value(item, what, names)
                parts.append(sub.digest.hexdigest())
            self.token(type(value).__name__, sorted(parts))
        elif isinstance(value, dict):
            self.token("dict", len(value))
            for key in sorted(value, key=repr):
                self.value(key, what, names)
                self.value(value[key], what, names)
        elif isinstance(value, enum.Enum):
            self.token("enum", type(value).__module__, type(value).__qualname__, value.name)
        elif isinstance(value, types.ModuleType):
            self.module(value, what, names)
        elif isinstance(value, types.FunctionType):
            if _is_library(value.__module__):
                self.token("library function", value.__module__, value.__qualname__)
            else:
                self.function(value)
        elif hasattr(value, "py_func") and hasattr(value, "targetoptions"):
            # A Numba dispatcher: a device function, or a jitted operator.
            self.token("dispatcher")
            self.function(value.py_func)
            self.value({k: v for k, v in value.targetoptions.items() if not k.startswith("__")},
                       what)
        elif isinstance(value, type):
            self.token("class", value.__module__, value.__qualname__)
            if not _is_library(value.__module__) and id(value) not in self.seen:
                self.seen.add(id(value))
                for key, member in sorted(vars(value).items()):
                    if isinstance(member, (types.FunctionType, staticmethod, classmethod)):
                        self.token("method", key)
                        self.value(getattr(member, "__func__", member), what, names)
        elif isinstance(value, (types.BuiltinFunctionType, types.MethodWrapperType)) or \
                type(value).__name__ == "ufunc":
            self.token("builtin", getattr(value, "__module__", None), getattr(value, "__name__",
                                                                              repr(value)))
        elif self._numpy(value, what):
            pass
        elif dataclasses.is_dataclass(value):
            self.token("dataclass", type(value).__module__, type(value).__qualname__)
            for field in dataclasses.fields(value):
                self.token("field", field.name)
                self.value(getattr(value, field.name), what, names)
        elif _is_library(getattr(value, "__module__", None)) and hasattr(value, "__qualname__"):
            # A library's callable object (a NumPy array function, a Numba intrinsic).
            self.token("library object", value.__module__, value.__qualname__)
        elif _is_library(type(value).__module__) and hasattr(value, "__dict__"):
            # A library's value object (a cuda.coop group, a Numba type).
            self.token("library value", type(value).__module__, type(value).__qualname__)
            self.value(vars(value), what, names)
        else:
            text = repr(value)
            if " at 0x" in text or text.startswith("<"):
                raise Unfingerprintable(f"it reads {what}, a {type(value).__qualname__}")
            self.token("repr", type(value).__module__, type(value).__qualname__, text)

    def module(self, module, what: str, names: set) -> None:
        self.token("module", module.__name__)
        if _is_library(module.__name__) or id(module) in self.seen:
            return
        self.seen.add(id(module))
        for name in sorted(names):
            if hasattr(module, name):
                self.token("attribute", name)
                self.value(getattr(module, name), f"{module.__name__}.{name}", names)

    def _numpy(self, value, what: str) -> bool:
        numpy = sys.modules.get("numpy")
        if numpy is None:
            return False
        if isinstance(value, numpy.ndarray):
            self.token("ndarray", value.dtype.str, value.shape,
                       hashlib.sha256(numpy.ascontiguousarray(value).tobytes()).hexdigest())
        elif isinstance(value, (numpy.generic, numpy.dtype)):
            self.token("numpy", repr(value), str(getattr(value, "dtype", value)))
        else:
            return False
        return True
