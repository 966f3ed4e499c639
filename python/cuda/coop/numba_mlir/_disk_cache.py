"""The disk cache of kernels compiled with ``cache=True`` while the backend is
registered: launch-specialized coop kernels, and the plain kernels Numba-CUDA-MLIR
stops caching once a planner is registered (docs/configuration.md).

An entry is keyed on everything that decides the kernel's code:

* the kernel's code: bytecode, constants, defaults, line table, and the value of
  every closure variable and global it reads, recursively through the
  functions, device functions and operators it calls (`_fingerprint.py`);
* its argument types, literal values included (items_per_thread), and for a
  coop kernel its block shape (the launch fact the planner reads);
* the target options and GPU target, the Python, NumPy, Numba-CUDA-MLIR and CUDA
  versions, and cuda.coop's own build (its Python files and native libraries).

A coop kernel's entry needs two files: an index, keyed without the launch and the
literal values, that says whether the kernel is launch-specialized and which
arguments it turns into literals, and the entry itself. Files are written whole
under a temporary name and renamed, so concurrent writers never leave a torn
file; one that is corrupt, truncated or foreign is a warning and a recompile,
and is rewritten.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import warnings
from pathlib import Path

from . import _numba
from ._errors import CoopCacheWarning
from ._fingerprint import Unfingerprintable, kernel_fingerprint, library_fingerprint

MAGIC = b"cuda.coop kernel cache 1\n"
# What a launch needs of a compile result, as Numba-CUDA-MLIR's own cache keeps it,
# plus the launch facts a coop kernel adds.
SAVED_METADATA = ("cubin", "ptx", "ltoir", "func_name", "mlir_module_optimized", "needs_nrt",
                  "nrt_inline", "gpu_target", "use_cooperative",
                  _numba.REQUIRED_DYNAMIC_SHARED_MEMORY_KEY)
# Set by the planner in the metadata of a coop kernel (its block dimensions).
COOP_KERNEL_KEY = "coop_block_dims"

_warned: set = set()


def enabled(dispatcher) -> bool:
    """Whether `dispatcher` was made with cache=True (and has a directory)."""
    return bool(dispatcher.targetoptions.get("cache")) and \
        _numba.cache_location(dispatcher) is not None


def compile_launch(dispatcher, targetoptions, func_args, override_argtypes, compile):
    """The compile result of a launch compile of `dispatcher`: a cache hit, or
    `compile()`'s result, saved."""
    from numba_cuda_mlir import types
    from numba_cuda_mlir.errors import ForceLiteralArg

    if targetoptions.get("extensions"):
        return compile()  # other extensions' inputs are not in the key
    try:
        argtypes = tuple(override_argtypes) if override_argtypes is not None \
            else _numba.argument_types(func_args)
    except Exception:  # noqa: BLE001 - Numba types the arguments and reports it
        return compile()
    base = _key(dispatcher, targetoptions, "launch", [_numba.unliteral(t) for t in argtypes])
    if base is None:
        return compile()
    directory, prefix = _numba.cache_location(dispatcher)
    index = _load(Path(directory) / f"{prefix}.coop-{base[:32]}.coopi", base)
    if index is not None:
        missing = {i for i in index["literals"] if not isinstance(argtypes[i], types.Literal)}
        block = _launch_block(targetoptions) if index["launch"] else None
        if index["launch"] and block is None:
            return compile()  # Numba-CUDA-MLIR says the launch is missing
        if missing:
            # As the planner would: the dispatcher records the positions and
            # compiles again with their literal types.
            raise ForceLiteralArg(missing)
        key = _entry_key(base, argtypes, block)
        entry = _load(Path(directory) / f"{prefix}.coop-{key[:32]}.coopc", key)
        if entry is not None:
            _numba.count_cache(dispatcher, argtypes, hit=True)
            return _numba.cached_result(entry["signature"], entry["metadata"])
    _numba.count_cache(dispatcher, argtypes, hit=False)
    result = compile()
    tracker = _numba.launch_tracker(targetoptions)
    launch = COOP_KERNEL_KEY in result.metadata or bool(tracker is not None and tracker.required)
    literals = tuple(i for i, t in enumerate(argtypes) if isinstance(t, types.Literal))
    if not _cacheable(result):
        return result
    _save(Path(directory), f"{prefix}.coop-{base[:32]}.coopi", base,
          {"launch": launch, "literals": literals})
    key = _entry_key(base, argtypes, _launch_block(targetoptions) if launch else None)
    _save(Path(directory), f"{prefix}.coop-{key[:32]}.coopc", key, _entry(result))
    return result


def compile_signature(dispatcher, sig, compile):
    """`kernel.compile(sig)` of `dispatcher`: a cache hit, or `compile()`'s
    result, saved."""
    argtypes = _numba.signature_arguments(sig)
    if _numba.compiled_overload(dispatcher, argtypes) is not None \
            or dispatcher.targetoptions.get("extensions"):
        return compile()
    key = _key(dispatcher, dispatcher.targetoptions, "signature", argtypes)
    if key is None:
        return compile()
    directory, prefix = _numba.cache_location(dispatcher)
    path = Path(directory) / f"{prefix}.coop-{key[:32]}.coopc"
    entry = _load(path, key)
    if entry is not None:
        _numba.count_cache(dispatcher, argtypes, hit=True)
        return _numba.publish_cached(dispatcher, argtypes,
                                     _numba.cached_result(entry["signature"], entry["metadata"]))
    _numba.count_cache(dispatcher, argtypes, hit=False)
    wrapped = compile()
    if _cacheable(wrapped):
        _save(Path(directory), path.name, key, _entry(wrapped))
    return wrapped


def _key(dispatcher, targetoptions, path: str, argtypes) -> str | None:
    """The hex digest of everything but the launch and literal values; None
    (after a warning) when a value the kernel reads cannot be keyed on."""
    from numba_cuda_mlir.tools import resolve_gpu_target

    try:
        kernel = kernel_fingerprint(dispatcher.py_func, _options(targetoptions))
    except Unfingerprintable as error:
        name = getattr(dispatcher.py_func, "__qualname__", "?")
        _warn_once(("unkeyable", name, str(error)),
                   f"cuda.coop: kernel {name!r} is compiled without the disk cache: "
                   f"{error}, and the cache cannot tell when it changes. Pass it as an "
                   f"argument, or make it a number, string, tuple, NumPy array or function")
        return None
    target = resolve_gpu_target(targetoptions)
    digest = hashlib.sha256()
    for part in (library_fingerprint(), kernel, path, repr(sorted(target.items())),
                 repr([str(t) for t in argtypes])):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def _entry_key(base: str, argtypes, block) -> str:
    return hashlib.sha256(repr((base, [str(t) for t in argtypes], block)).encode()).hexdigest()


def _options(targetoptions: dict) -> dict:
    """The target options that decide the code: the dispatcher's, without
    the per-compile launch entries and the cache switch."""
    return {k: v for k, v in targetoptions.items()
            if not k.startswith("__") and k not in ("cache", "extensions")}


def _launch_block(targetoptions) -> tuple | None:
    """The block shape of this launch compile (asking for it, as the planner
    does); None for a compile without a launch."""
    config = targetoptions.get("__launch_config__")
    if config is None:
        tracker = _numba.launch_tracker(targetoptions)
        config = tracker.require() if tracker is not None else None
    return None if config is None else tuple(config["block"])


def _cacheable(result) -> bool:
    metadata = result.metadata
    options = metadata.get("targetoptions") or {}
    # Callbacks are Python objects bound to this process; linked files are
    # not part of the key (Numba-CUDA-MLIR refuses to cache both too).
    return not (metadata.get("setup_callbacks") or metadata.get("teardown_callbacks")
                or options.get("link") or metadata.get("cubin") is None)


def _entry(result) -> dict:
    metadata = {k: result.metadata[k] for k in SAVED_METADATA if k in result.metadata}
    metadata["targetoptions"] = {k: v for k, v in (result.metadata.get("targetoptions") or {}).items()
                                 if not k.startswith("__") and k != "extensions"}
    return {"signature": result.signature, "metadata": metadata}


def _load(path: Path, key: str):
    """The value stored under `key` at `path`, or None (a warning where the
    file is there but unusable)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        _warn_once(("read", str(path)), f"cuda.coop: cannot read the kernel cache file "
                   f"{path} ({error}); the kernel is compiled")
        return None
    try:
        if not data.startswith(MAGIC):
            raise ValueError("not a cuda.coop cache file of this version")
        digest, payload = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:]
        if hashlib.sha256(payload).digest() != digest:
            raise ValueError("its checksum does not match: truncated or corrupt")
        stored_key, value = pickle.loads(payload)
        if stored_key != key:
            raise ValueError("it holds another kernel's entry")
        return value
    except Exception as error:  # noqa: BLE001 - any unreadable file is a recompile
        warnings.warn(f"cuda.coop: ignoring the kernel cache file {path}: {error}; the "
                      f"kernel is compiled again and the file rewritten",
                      CoopCacheWarning, stacklevel=2)
        return None


def _save(directory: Path, name: str, key: str, value) -> None:
    """Writes `value` under `key` whole: a temporary file renamed over `name`,
    so readers and concurrent writers never see part of a file."""
    payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
    data = MAGIC + hashlib.sha256(payload).digest() + payload
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=name + ".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, directory / name)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as error:
        _warn_once(("write", str(directory)), f"cuda.coop: cannot write the kernel cache in "
                   f"{directory} ({error}); kernels are compiled at each start. Set "
                   f"NUMBA_CACHE_DIR to a writable directory")


def _warn_once(key, message: str) -> None:
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn(message, CoopCacheWarning, stacklevel=3)

