"""Kernels loaded from the disk cache compute what compiled ones do (GPU).

A program launches coop kernels (items_per_thread an argument, two values and
two block shapes) and plain ones with cache=True, in a fresh process; a second
process loads every kernel and must get the same, correct results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba_cuda_mlir")

PROGRAM = '''
import json, sys
import numpy as np
from numba_cuda_mlir import cuda
import cuda.coop.numba_mlir as coop


def larger(a, b):
    return a if a > b else b


@cuda.jit(cache=True)
def tile_sums(src, out, items_per_thread):
    items = coop.ThreadData(items_per_thread, dtype=src.dtype)
    base = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    coop.load(coop.this_block(), src[base:], items)
    total = coop.sum(coop.this_block(), items)
    peak = coop.reduce(coop.this_block(), items, larger)
    items = coop.inclusive_sum(coop.this_block(), items)
    coop.store(coop.this_block(), src[base:], items)
    if cuda.threadIdx.x == 0:
        out[2 * cuda.blockIdx.x] = total
        out[2 * cuda.blockIdx.x + 1] = peak


@cuda.jit(cache=True)
def plain(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 3 + 1


@cuda.jit("void(float32[::1])", cache=True)
def eager(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2


results = {}
rng = np.random.default_rng(7)
for block, ipt in ((128, 4), (256, 4), (128, 2)):
    blocks = 3
    src = rng.integers(-50, 50, blocks * block * ipt).astype(np.int32)
    d_src, d_out = cuda.to_device(src), cuda.device_array(2 * blocks, np.int32)
    tile_sums[blocks, block](d_src, d_out, ipt)
    tiles = src.reshape(blocks, block * ipt)
    assert (d_out.copy_to_host() == np.stack([tiles.sum(1), tiles.max(1)], 1).ravel()).all()
    assert (d_src.copy_to_host() == np.cumsum(tiles, axis=1).ravel()).all()
    results[f"{block}x{ipt}"] = d_out.copy_to_host().tolist()
a = cuda.to_device(np.arange(1000, dtype=np.int32))
plain[4, 256](a)
assert (a.copy_to_host() == np.arange(1000) * 3 + 1).all()
f = cuda.to_device(np.arange(300, dtype=np.float32))
eager[2, 256](f)
assert (f.copy_to_host() == np.arange(300) * 2).all()
hits = {k.__name__: sum(k.stats.cache_hits.values()) for k in (tile_sums, plain, eager)}
print(json.dumps({"results": results, "hits": hits}))
'''


def run(directory: Path) -> dict:
    child = subprocess.run([sys.executable, str(directory / "program.py")], capture_output=True,
                           text=True, timeout=300, cwd=directory,
                           env={**os.environ, "PYTHONWARNINGS": "error::RuntimeWarning"})
    assert child.returncode == 0, child.stderr[-4000:]
    return json.loads(child.stdout.strip().splitlines()[-1])


@pytest.mark.gpu
def test_kernels_from_the_cache_compute_the_same(tmp_path):
    (tmp_path / "program.py").write_text(textwrap.dedent(PROGRAM))
    first = run(tmp_path)
    assert first["hits"] == {"tile_sums": 0, "plain": 0, "eager": 0}
    second = run(tmp_path)
    assert second["results"] == first["results"]
    assert second["hits"] == {"tile_sums": 3, "plain": 1, "eager": 1}


# A program whose only kernel is loaded by `kernel.compile(sig)` before anything
# initializes Numba-CUDA-MLIR's contexts (our hit comes first) still launches it.
EAGER_ONLY = '''
import json
import numpy as np
from numba_cuda_mlir import cuda
import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- binds numba_coop, not cuda


@cuda.jit("void(float64[::1])", cache=True)
def halve(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / 2


a = cuda.to_device(np.arange(500, dtype=np.float64))
halve[2, 256](a)
assert (a.copy_to_host() == np.arange(500) / 2).all()
print(json.dumps({"hits": sum(halve.stats.cache_hits.values())}))
'''


@pytest.mark.gpu
def test_a_kernel_loaded_before_any_compile_launches(tmp_path):
    (tmp_path / "program.py").write_text(textwrap.dedent(EAGER_ONLY))
    assert run(tmp_path)["hits"] == 0
    assert run(tmp_path)["hits"] == 1
