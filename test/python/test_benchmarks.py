"""The benchmark scripts keep working: their CPU halves run here (the GPU
halves run on the H200, see docs/performance.md)."""

import subprocess
import sys
from pathlib import Path

import pytest

import coop_kernels as ck

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_tile_copy_build_step(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tile_copy.py"), "build",
                             str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "tile_copy.cubin").stat().st_size > 0


def test_compile_time_kernels_compile():
    pytest.importorskip("numba_cuda_mlir")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import compile_time

    compile_time.REPEATS = 1
    for sites in (0, 3):
        assert compile_time.time_numba(sites, sites > 0) > 0


def test_numba_tile_copy_kernels_compile_without_local_memory():
    pytest.importorskip("numba_cuda_mlir")
    import numba_compile as nc
    from numba_cuda_mlir import types
    from numba_cuda_mlir.numba_cuda.types import literal

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numba_tile_copy as bench

    array = types.float64[::1]
    for algorithm, group, width in (("transpose", None, None),
                                    ("warp_transpose_timesliced", None, None),
                                    ("transpose", "coop.this_warp().group_by(8)", 8),
                                    ("vectorize", "coop.this_warp()", 32)):
        source = bench.BLOCK_SOURCE.format(algorithm=algorithm) if width is None else \
            bench.WARP_SOURCE.format(algorithm=algorithm, group=group, width=width)
        kernel = bench._kernel(source, f"<{algorithm} {width}>")
        cres = nc.compile_for_launch(kernel, [array, array, types.int64, literal(4)], (128,))
        assert not nc.local_memory(nc.ptxas_report(cres.metadata["ptx"])), algorithm
