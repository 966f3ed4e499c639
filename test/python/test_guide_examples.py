"""The programming guide's complete kernels (docs/examples): each compiles
to PTX here, and on a GPU each runs and prints `correct: True`."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import types  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
I32 = types.int32[::1]
# example file -> (kernel, its array arguments); items_per_thread comes last.
KERNELS = {
    "first_kernel": None,  # top-level host code: run on the GPU only
    "exchange_kernel": ("run_lengths", [I32, I32]),
    "shuffle_kernel": ("differences", [I32, I32]),
    "reduce_kernel": ("tile_sums", [I32, I32]),
    "scan_kernel": ("compact", [I32, I32, I32]),
    "select_kernel": ("compact", [I32, I32, I32]),
    "unique_kernel": ("unique", [I32, I32, I32]),
    "sort_kernel": ("sort_tiles", [types.float32[::1], I32, types.float32[::1], I32]),
    "topk_kernel": ("top_scores", [types.float32[:, ::1], types.float32[::1], I32,
                                   types.int64]),
    "histogram_kernel": ("byte_histogram", [types.uint8[::1], types.uint32[::1]]),
    "run_length_decode_kernel": ("expand", [types.float32[::1], I32, types.int64[::1],
                                            types.float32[::1]]),
}


def test_every_example_is_listed():
    assert sorted(p.stem for p in EXAMPLES.glob("*.py")) == sorted(KERNELS)


@pytest.mark.parametrize("name", [n for n, k in KERNELS.items() if k])
def test_example_compiles_to_ptx(name):
    spec = importlib.util.spec_from_file_location(f"guide_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel, arrays = KERNELS[name]
    result = nc.compile_for_launch(getattr(module, kernel), arrays + [literal(4)], (128,))
    ptx = result.metadata["ptx"]
    assert ".entry" in ptx and "coop." not in ptx


@pytest.mark.gpu
@pytest.mark.parametrize("name", [n for n, k in KERNELS.items() if k])
def test_example_runs(name):
    result = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py")], capture_output=True,
                            text=True, timeout=600, env=os.environ)
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.splitlines()[-1] == "correct: True"
