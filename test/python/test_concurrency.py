"""Compiling coop kernels from 8 threads at once: no exception, and every
kernel's PTX byte-identical to a serial compile of the same kernel. No GPU
is needed (numba_compile compiles for sm_90 without one)."""

from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import types  # noqa: E402

from cuda.coop import _compiler  # noqa: E402
from cuda.coop.numba_mlir import _passes  # noqa: E402
from test_compiler import KERNEL  # noqa: E402

THREADS = 8
I32 = nc.ARRAY
BLOCK = (128,)


def copy_kernel(algorithm: str, ipt: int):
    """A load and a store of `algorithm` (the tile-copy family)."""
    from numba_cuda_mlir import cuda

    from cuda import coop

    @cuda.jit
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(ipt)
        offset = cuda.blockIdx.x * (src.size // cuda.gridDim.x)
        coop.load(block, src, items, algorithm=algorithm, offset=offset)
        coop.store(block, dst, items, algorithm=algorithm, offset=offset)
    return kernel


# (factory, its arguments, the kernel's argument types): 16 distinct kernels,
# two per thread. The factories' functools.cache is bypassed (__wrapped__)
# so that each compile works on its own kernel object and no thread gets
# another's finished compile.
KERNELS = [
    (cm.reduce_kernel.__wrapped__, (4, None, "sum", None, True, False, False), (I32, I32, types.int32)),
    (cm.reduce_kernel.__wrapped__, (4, None, "max", "raking", True, False, False), (I32, I32, types.int32)),
    (cm.reduce_kernel.__wrapped__, (2, 32, "min", None, True, False, False), (I32, I32, types.int32)),
    (cm.reduce_kernel.__wrapped__, (1, None, "sum", None, False, True, True), (I32, I32, types.int32)),
    (cm.scan_kernel.__wrapped__, (4, None, "exclusive", "sum", "raking", False, False),
     (I32, I32, I32, types.int32)),
    (cm.scan_kernel.__wrapped__, (4, None, "inclusive", "max", "warp_scans", False, False),
     (I32, I32, I32, types.int32)),
    (cm.scan_kernel.__wrapped__, (2, 16, "inclusive", "min", None, False, True),
     (I32, I32, I32, types.int32)),
    (cm.scan_kernel.__wrapped__, (1, None, "exclusive", "sum", "raking_memoize", True, False),
     (I32, I32, I32, types.int32)),
    (cm.exchange_kernel.__wrapped__, ("blocked_to_striped", 4, None, False), (I32, I32, I32, I32)),
    (cm.exchange_kernel.__wrapped__, ("striped_to_blocked", 4, None, True), (I32, I32, I32, I32)),
    (cm.exchange_kernel.__wrapped__, ("scatter_to_blocked", 2, None, False), (I32, I32, I32, I32)),
    (cm.exchange_kernel.__wrapped__, ("blocked_to_striped", 4, 32, False), (I32, I32, I32, I32)),
    (copy_kernel, ("direct", 4), (I32, I32)),
    (copy_kernel, ("transpose", 4), (I32, I32)),
    (copy_kernel, ("warp_transpose", 8), (I32, I32)),
    (copy_kernel, ("vectorize", 2), (I32, I32)),
]


def compile_ptx(index: int) -> str:
    factory, arguments, argtypes = KERNELS[index]
    return nc.compile_for_launch(factory(*arguments), list(argtypes), BLOCK).metadata["ptx"]


def test_kernels_compile_concurrently_to_the_serial_ptx():
    serial = [compile_ptx(i) for i in range(len(KERNELS))]
    assert all(".entry" in ptx for ptx in serial)
    # Cold again: the concurrent compiles run our passes themselves instead
    # of reading the serial compiles' lowered sites.
    _passes._lower_site.cache_clear()
    _passes._describe_site.cache_clear()
    with ThreadPoolExecutor(THREADS) as pool:
        concurrent = list(pool.map(compile_ptx, range(len(KERNELS))))
    mismatched = [KERNELS[i][:2] for i in range(len(KERNELS)) if concurrent[i] != serial[i]]
    assert mismatched == []


# test_compiler's kernel: two sites, each planned and lowered by the passes.
SITE_PIPELINE = "coop-plan-scratch,coop-insert-barriers,convert-coop-to-gpu,canonicalize,cse"
SITES = KERNEL.replace("algorithm = transpose", "algorithm = ALGORITHM")
ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
              "warp_transpose_timesliced")


def run_pipeline(algorithm: str) -> str:
    text = SITES.replace("ALGORITHM", algorithm)
    return _compiler.run_pipeline(text, SITE_PIPELINE, source_name="sites.mlir", generic=True)


def test_run_pipeline_from_threads_matches_the_serial_result():
    jobs = [ALGORITHMS[i % len(ALGORITHMS)] for i in range(THREADS * 12)]
    serial = {algorithm: run_pipeline(algorithm) for algorithm in ALGORITHMS}
    assert all("coop." not in text for text in serial.values())
    with ThreadPoolExecutor(THREADS) as pool:
        concurrent = list(pool.map(run_pipeline, jobs))
    assert [i for i, text in enumerate(concurrent) if text != serial[jobs[i]]] == []
