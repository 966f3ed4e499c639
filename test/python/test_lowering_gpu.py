"""The lowering on the GPU, without numba: MLIR-written kernels, one coop
load or store each, launched and checked element by element against the
NumPy model in coop_kernels.

Kernels come from cubins in $COOP_GPU_KERNELS (compiled elsewhere by
`python test/python/coop_kernels.py DIR`) or are compiled here with coop-opt.
$COOP_GPU_CASES, a regular expression, selects kernels by name (for runs under
compute-sanitizer, which are slow).
"""

import os
import re
from pathlib import Path

import numpy as np
import pytest

import coop_kernels as ck

pytestmark = pytest.mark.gpu

BATCHES = ck.batches(ck.gpu_matrix())
BLOCKS = 3


@pytest.fixture(scope="module")
def gpu():
    from gpu_runner import Gpu

    return Gpu()


def _module(gpu, name, cases):
    directory = os.environ.get("COOP_GPU_KERNELS")
    if directory:
        return gpu.load((Path(directory) / f"{name}.cubin").read_bytes())
    return gpu.load(ck.compile_ptx(cases).encode() + b"\0")


def _settings(case):
    """(offset, valid_items) pairs: aligned and misaligned offsets; for
    guarded tiles none, part and all of the tile."""
    valids = [None] if not case.guarded else [0, case.tile // 2 + 1, case.tile]
    return [(offset, valid) for offset in (0, 5) for valid in valids]


def _values(dtype, count, seed):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(count).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)


def _run_load(gpu, kernel, case, offset, valid):
    length = offset + BLOCKS * case.block_items + 7
    src = _values(case.numpy_dtype, length, 1)
    oob = case.numpy_dtype(42) if case.oob else case.numpy_dtype(0)
    d_src = gpu.upload(src)
    d_out = gpu.upload(np.zeros(BLOCKS * case.block_items, dtype=case.numpy_dtype))
    gpu.launch(kernel, BLOCKS, case.block,
               [d_src, d_out, np.int64(offset), np.int64(valid or 0), oob])
    out = gpu.download(d_out)
    gpu.free(d_src), gpu.free(d_out)
    want, checked = ck.expected_load(case, src, BLOCKS, offset, valid,
                                     oob if case.oob else None)
    bad = np.flatnonzero(checked & (out != want))
    return [f"slot {i}: got {out[i]}, want {want[i]}" for i in bad[:5]]


def _run_store(gpu, kernel, case, offset, valid):
    length = offset + BLOCKS * case.block_items + 7
    sentinel = np.full(length, 7, dtype=case.numpy_dtype)
    vals = _values(case.numpy_dtype, BLOCKS * case.block_items, 2)
    d_dst = gpu.upload(sentinel)
    d_vals = gpu.upload(vals)
    gpu.launch(kernel, BLOCKS, case.block,
               [d_dst, d_vals, np.int64(offset), np.int64(valid or 0)])
    out = gpu.download(d_dst)
    gpu.free(d_dst), gpu.free(d_vals)
    want = ck.expected_store(case, sentinel, vals, BLOCKS, offset, valid)
    bad = np.flatnonzero(out != want)
    return [f"element {i}: got {out[i]}, want {want[i]}" for i in bad[:5]]


def _run_copy(gpu, kernel, case, offset, valid):
    length = offset + 2 * BLOCKS * case.block_items + 7
    src = _values(case.numpy_dtype, length, 3)
    sentinel = np.full(length, 7, dtype=case.numpy_dtype)
    d_src, d_dst = gpu.upload(src), gpu.upload(sentinel)
    gpu.launch(kernel, BLOCKS, case.block,
               [d_src, d_dst, np.int64(offset), np.int64(valid or 0)])
    out = gpu.download(d_dst)
    gpu.free(d_src), gpu.free(d_dst)
    want = ck.expected_copy(case, src, sentinel, BLOCKS, offset, valid)
    bad = np.flatnonzero(out != want)
    return [f"element {i}: got {out[i]}, want {want[i]}" for i in bad[:5]]


RUNNERS = {"load": _run_load, "store": _run_store, "copy": _run_copy}


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_every_element(gpu, batch):
    cases = BATCHES[batch]
    module = _module(gpu, batch, cases)
    if pattern := os.environ.get("COOP_GPU_CASES"):
        cases = [c for c in cases if re.search(pattern, c.name)]
        if not cases:
            pytest.skip(f"no kernel of {batch} matches COOP_GPU_CASES")
    failures, runs = [], 0
    for case in cases:
        kernel = module.function(case.name)
        run = RUNNERS[case.op]
        for offset, valid in _settings(case):
            runs += 1
            problems = run(gpu, kernel, case, offset, valid)
            if problems:
                failures.append(f"{case.name} offset={offset} valid={valid}: "
                                + "; ".join(problems))
    print(f"{batch}: {runs - len(failures)}/{runs} launches passed "
          f"({len(cases)} kernels)")
    assert not failures, f"{len(failures)} of {runs} launches:\n" + "\n".join(failures[:30])
