"""cuda.coop calls in CuTe DSL kernels, on the GPU.

The kernels (`cute_cases.py`) are compiled where CuTe DSL is installed: into
the folder CUDA_COOP_CUTE_CUBINS names (`python cute_cases.py DIR`, how the
GPU machine gets them), or here into a temporary folder. Each is launched
through the CUDA driver and its outputs compared with NumPy's.
"""

import json
import os
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

CUBINS = os.environ.get("CUDA_COOP_CUTE_CUBINS")


def _case_names():
    """The cases to run: the built folder's, else those CuTe DSL can build
    here (none without it: the test is then skipped)."""
    if CUBINS:
        return sorted(p.name for p in Path(CUBINS).iterdir() if (p / "launch.json").exists())
    try:
        import cute_cases
        return sorted(cute_cases.cases())
    except ImportError:
        return []


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if CUBINS:
        return Path(CUBINS)
    import cute_cases
    directory = tmp_path_factory.mktemp("cute")
    cute_cases.build(directory)
    return directory


@pytest.fixture(scope="module")
def gpu():
    from gpu_runner import Gpu
    return Gpu()


@pytest.mark.parametrize("name", _case_names())
def test_case(name, built, gpu):
    folder = built / name
    launch = json.loads((folder / "launch.json").read_text())
    data = np.load(folder / "data.npz")
    module = gpu.load((folder / launch["cubin"]).read_bytes())
    kernel = module.function(launch["entry"])
    a = gpu.upload(data["a"])
    # The kernels take (input, out, extra); out and extra start zeroed (a
    # histogram adds into its array, a decode leaves the stream's tail).
    outputs = {key: gpu.upload(np.zeros_like(data[key])) for key in ("out", "extra")}
    gpu.launch(kernel, launch["grid"], (launch["block"], 1, 1),
               [np.uint64(int(a.pointer))] +
               [np.uint64(int(outputs[key].pointer)) for key in ("out", "extra")])
    for key in ("out", "extra"):
        np.testing.assert_array_equal(gpu.download(outputs[key]), data[key], err_msg=key)
