"""The kernel disk cache (`cache=True`) while the backend is registered, and
the backend's import cost.

Each compile that a user would do in a new process runs in a fresh
interpreter (compile-only, pretending sm_90): the first fills the cache beside
the kernels' module, a second loads from it. What changes the code must miss;
a corrupt, truncated or foreign file is a warning and a recompile; concurrent
writers leave whole files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import types as pytypes
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_cuda_mlir  # noqa: E402
import numba_compile  # noqa: E402,F401 -- compile-only mode (sm_90)
import numpy as np  # noqa: E402
from numba_cuda_mlir import cuda  # noqa: E402

from cuda.coop.numba_mlir import _disk_cache, _fingerprint, _numba  # noqa: E402
from cuda.coop.numba_mlir._errors import CoopCacheWarning  # noqa: E402

HERE = Path(__file__).resolve().parent

KERNELS = '''
import numpy as np
from numba_cuda_mlir import cuda, types
import cuda.coop.numba_mlir as coop

SCALE = 3


def larger(a, b):
    return a if a > b else b


@cuda.jit(device=True)
def bump(x):
    return x + 1


@cuda.jit(cache=True)
def tile_max(a, n):
    items = coop.ThreadData(n)
    coop.load(coop.this_block(), a, items)
    m = coop.reduce(coop.this_block(), items, larger)
    coop.store(coop.this_block(), a, items)
    if cuda.threadIdx.x == 0:
        a[0] = bump(m) * SCALE


@cuda.jit(cache=True)
def plain(a):
    a[cuda.threadIdx.x] += SCALE


@cuda.jit("void(float32[::1])", cache=True)
def eager(a):
    a[cuda.threadIdx.x] *= 2


COMPILES = [
    ("tile_max", (types.int32[::1], types.IntegerLiteral(4)), (128,)),
    ("plain", (types.int32[::1],), (128,)),
]
'''

CHILD = '''
import hashlib, json, sys, warnings
sys.path[:0] = [{test_dir!r}, {module_dir!r}]
import numba_compile as nc
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import kernels
    out = {{}}
    for name, argtypes, block in kernels.COMPILES:
        k = getattr(kernels, name)
        cres = nc.compile_for_launch(k, argtypes, block, with_ptx=False)
        out[name] = {{"hits": sum(k.stats.cache_hits.values()),
                     "misses": sum(k.stats.cache_misses.values()),
                     "cubin": hashlib.sha256(cres.metadata["cubin"]).hexdigest()}}
    out["eager"] = {{"hits": sum(kernels.eager.stats.cache_hits.values()),
                    "misses": sum(kernels.eager.stats.cache_misses.values()),
                    "cubin": hashlib.sha256(
                        next(iter(kernels.eager.overloads.values())).metadata["cubin"]
                    ).hexdigest()}}
out["warnings"] = [f"{{w.category.__name__}}: {{w.message}}" for w in caught]
print(json.dumps(out))
'''


def run_child(module_dir: Path, env: dict | None = None) -> dict:
    script = CHILD.format(test_dir=str(HERE), module_dir=str(module_dir))
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=300, env={**os.environ, **(env or {})})
    assert child.returncode == 0, child.stderr[-4000:]
    return json.loads(child.stdout.strip().splitlines()[-1])


def write_kernels(directory: Path, source: str = KERNELS) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "kernels.py").write_text(textwrap.dedent(source))
    return directory


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """A kernels module whose cache a first process filled, and that process's report."""
    directory = write_kernels(tmp_path_factory.mktemp("filled"))
    return directory, run_child(directory)


def copy_of(filled, tmp_path) -> Path:
    directory = tmp_path / "copy"
    shutil.copytree(filled[0], directory)
    return directory


def cache_files(directory: Path, kernel: str, suffix: str) -> list[Path]:
    return sorted((directory / "__pycache__").glob(f"kernels.{kernel}-*.coop-*{suffix}"))


def test_first_process_compiles_and_saves(filled):
    directory, first = filled
    for name in ("tile_max", "plain", "eager"):
        assert (first[name]["hits"], first[name]["misses"]) == (0, 1), name
    assert len(cache_files(directory, "tile_max", ".coopc")) == 1
    assert len(cache_files(directory, "tile_max", ".coopi")) == 1
    assert len(cache_files(directory, "eager", ".coopc")) == 1


def test_second_process_loads_every_kernel(filled, tmp_path):
    directory = copy_of(filled, tmp_path)
    second = run_child(directory)
    for name in ("tile_max", "plain", "eager"):
        assert (second[name]["hits"], second[name]["misses"]) == (1, 0), name
        assert second[name]["cubin"] == filled[1][name]["cubin"], name
    # No notice that launch-specialized kernels are never cached: ours are.
    assert second["warnings"] == [] and filled[1]["warnings"] == []


EDITS = {
    "kernel body": ("a[0] = bump(m) * SCALE", "a[0] = bump(m) * SCALE + 1", "tile_max"),
    "global value": ("SCALE = 3", "SCALE = 4", "tile_max"),
    "operator body": ("return a if a > b else b", "return b if b > a else a", "tile_max"),
    "device function body": ("return x + 1", "return x + 2", "tile_max"),
    "items_per_thread": ("types.IntegerLiteral(4)", "types.IntegerLiteral(8)", "tile_max"),
    "block shape": ("IntegerLiteral(4)), (128,)", "IntegerLiteral(4)), (256,)", "tile_max"),
    "target option": ("@cuda.jit(cache=True)\ndef plain", "@cuda.jit(cache=True, lineinfo=True)\n"
                      "def plain", "plain"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_change_misses(filled, tmp_path, edit):
    old, new, kernel = EDITS[edit]
    directory = copy_of(filled, tmp_path)
    assert old in KERNELS
    write_kernels(directory, KERNELS.replace(old, new))
    report = run_child(directory)
    assert (report[kernel]["hits"], report[kernel]["misses"]) == (0, 1)
    if edit != "block shape" and edit != "items_per_thread":
        assert report[kernel]["cubin"] != filled[1][kernel]["cubin"]
    untouched = "plain" if kernel == "tile_max" else "tile_max"
    if edit != "global value":  # SCALE is read by both kernels
        assert report[untouched]["hits"] == 1


def _corrupt(path: Path, how: str, other: Path) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(b"\x00not a cache file" * 10)
    else:
        path.write_bytes(other.read_bytes())


@pytest.mark.parametrize("how", ["truncated", "garbage", "foreign"])
def test_an_unusable_file_is_a_warning_and_a_recompile(filled, tmp_path, how):
    directory = copy_of(filled, tmp_path)
    entry, = cache_files(directory, "tile_max", ".coopc")
    other, = cache_files(directory, "plain", ".coopc")
    _corrupt(entry, how, other)
    report = run_child(directory)
    assert (report["tile_max"]["hits"], report["tile_max"]["misses"]) == (0, 1)
    assert report["tile_max"]["cubin"] == filled[1]["tile_max"]["cubin"]
    assert len(report["warnings"]) == 1, report["warnings"]
    warning = report["warnings"][0]
    assert warning.startswith("CoopCacheWarning: cuda.coop: ignoring the kernel cache file")
    assert {"truncated": "truncated or corrupt", "garbage": "not a cuda.coop cache file",
            "foreign": "another kernel's entry"}[how] in warning
    # The file was rewritten whole.
    data = entry.read_bytes()
    assert data.startswith(_disk_cache.MAGIC)
    assert hashlib.sha256(data[len(_disk_cache.MAGIC) + 32:]).digest() == \
        data[len(_disk_cache.MAGIC):len(_disk_cache.MAGIC) + 32]


def test_concurrent_writers_leave_whole_files(tmp_path):
    directory = write_kernels(tmp_path / "race")
    with ThreadPoolExecutor(3) as pool:
        reports = list(pool.map(lambda _: run_child(directory), range(3)))
    assert all(r["warnings"] == [] for r in reports)
    assert len({r["tile_max"]["cubin"] for r in reports}) == 1
    assert not list((directory / "__pycache__").glob("*.tmp"))
    after = run_child(directory)
    assert after["warnings"] == []
    assert all(after[name]["hits"] == 1 for name in ("tile_max", "plain", "eager"))


def test_numba_cache_dir_is_where_entries_go(tmp_path):
    directory = write_kernels(tmp_path / "module")
    report = run_child(directory, env={"NUMBA_CACHE_DIR": str(tmp_path / "elsewhere")})
    assert report["tile_max"]["misses"] == 1
    assert not (directory / "__pycache__").exists() or \
        not list((directory / "__pycache__").glob("*.coop*"))
    assert list((tmp_path / "elsewhere").rglob("kernels.tile_max-*.coopc"))


# -- fingerprints ---------------------------------------------------------------------------


def _function(source: str, name: str = "f", **namespace):
    scope = {"np": np, **namespace}
    exec(compile(textwrap.dedent(source), "<kernel>", "exec"), scope)
    return scope[name]


def _fp(function) -> str:
    return _fingerprint.kernel_fingerprint(function, {})


def test_fingerprint_is_the_same_for_the_same_code():
    source = "def f(a):\n    a[0] = LIMIT + helper(1)\n"
    helper = _function("def helper(x):\n    return x * 2\n", "helper")
    assert _fp(_function(source, LIMIT=3, helper=helper)) == \
        _fp(_function(source, LIMIT=3, helper=helper))


@pytest.mark.parametrize("change", ["code", "global", "closure", "module attribute", "callee",
                                    "device function", "array contents", "default"])
def test_fingerprint_changes_with_what_decides_the_code(change):
    def make(variant: int):
        config = pytypes.ModuleType("user_config")
        config.N = 4 + (variant if change == "module attribute" else 0)
        helper = _function(f"def helper(x):\n    return x * {2 + (variant if change == 'callee' else 0)}\n",
                           "helper")
        device = cuda.jit(device=True)(_function(
            f"def device(x):\n    return x + {1 + (variant if change == 'device function' else 0)}\n",
            "device"))
        table = np.arange(4) + (variant if change == "array contents" else 0)
        limit = 3 + (variant if change == "global" else 0)
        extra = " + 1" if change == "code" and variant else ""
        default = 7 + (variant if change == "default" else 0)
        closed = 5 + (variant if change == "closure" else 0)
        outer = _function(f"""
            def outer():
                c = {closed}
                def f(a, k={default}):
                    a[0] = LIMIT + helper(1) + device(2) + TABLE[1] + config.N + c + k{extra}
                return f
            """, "outer", LIMIT=limit, helper=helper, device=device, TABLE=table, config=config)
        return outer()

    assert _fp(make(0)) != _fp(make(1))


def test_an_unkeyable_value_is_a_warning_and_no_cache():
    class Opaque:
        pass

    kernel = _function("def f(a):\n    a[0] = SOURCE.value\n", SOURCE=Opaque())
    dispatcher = pytypes.SimpleNamespace(py_func=kernel)
    with pytest.warns(CoopCacheWarning, match="compiled without the disk cache: it reads "
                                              "global 'SOURCE', a .*Opaque"):
        assert _disk_cache._key(dispatcher, {}, "launch", ()) is None


def test_library_objects_are_named_not_walked():
    from cuda import coop

    kernel = _function("def f(a):\n    coop.sum(coop.this_block(), a)\n    np.add(1, 2)\n",
                       coop=coop)
    assert _fp(kernel)


# -- import cost ----------------------------------------------------------------------------

HEAVY = ("numba_cuda_mlir.mlir_lowering", "numba_cuda_mlir.lowering.numpy",
         "numba_cuda_mlir.extending", "cuda.coop._compiler", "cuda.coop.numba_mlir._lowering")


@pytest.mark.parametrize("order", ["backend first", "numba cuda first"])
def test_registering_imports_nothing_heavy_until_the_first_compile(order):
    first = ("import cuda.coop.numba_mlir as coop" if order == "backend first"
             else "import numba_cuda_mlir; import cuda.coop as coop")
    script = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
{first}
import cuda.coop
assert "numba-cuda-mlir" in cuda.coop._registration.registered()
heavy = [m for m in {HEAVY!r} if m in sys.modules]
assert not heavy, heavy
import numba_compile as nc
from numba_cuda_mlir import cuda, types
import cuda.coop.numba_mlir as coop

@cuda.jit
def k(a):
    items = coop.ThreadData(2)
    coop.load(coop.this_block(), a, items)
    coop.store(coop.this_block(), a, items)

cres = nc.compile_for_launch(k, (types.float32[::1],), (64,), with_ptx=False)
assert cres.metadata["cubin"]
assert coop.local is cuda.local and coop.shared is cuda.shared
"""
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=300)
    assert child.returncode == 0, child.stderr[-3000:]


def test_numba_cuda_mlir_is_the_version_the_hooks_were_checked_against():
    # The cache splices Numba-CUDA-MLIR's private compile paths (_numba.py,
    # install_compile_hooks); another version must be checked again.
    assert numba_cuda_mlir.__version__ == _numba.CHECKED_VERSION


# -- within a process -----------------------------------------------------------------------


def test_a_site_already_lowered_is_reused():
    """Two kernels with the same site (op, options, types, block) lower it once."""
    from numba_cuda_mlir import types

    import cuda.coop.numba_mlir as coop
    from cuda.coop.numba_mlir import _passes

    def make():
        @cuda.jit
        def kernel(a):
            items = coop.ThreadData(4)
            coop.load(coop.this_block(), a, items)
            total = coop.sum(coop.this_block(), items)
            if cuda.threadIdx.x == 0:
                a[0] = total

        return kernel

    numba_compile.compile_for_launch(make(), (types.int64[::1],), (96,), with_ptx=False)
    before = _passes._lower_site.cache_info()
    numba_compile.compile_for_launch(make(), (types.int64[::1],), (96,), with_ptx=False)
    after = _passes._lower_site.cache_info()
    assert after.misses == before.misses
    assert after.hits > before.hits


def test_the_key_covers_the_target_and_the_library(monkeypatch):
    kernel = _function("def f(a):\n    a[0] = 1\n")
    dispatcher = pytypes.SimpleNamespace(py_func=kernel)
    base = _disk_cache._key(dispatcher, {}, "launch", ())
    assert base == _disk_cache._key(dispatcher, {}, "launch", ())
    assert base != _disk_cache._key(dispatcher, {"chip": "sm_80"}, "launch", ())
    assert base != _disk_cache._key(dispatcher, {"lineinfo": True}, "launch", ())
    assert base != _disk_cache._key(dispatcher, {}, "signature", ())
    monkeypatch.setattr(_disk_cache, "library_fingerprint", lambda: "another build")
    assert base != _disk_cache._key(dispatcher, {}, "launch", ())
