"""examples/embed-python on a GPU: tiledsl kernels, lowered to PTX by coop's
passes through the upstream MLIR Python bindings, run with cuda.core and are
checked against NumPy.

The GPU machine may lack the bindings (they need the MLIR kit's libLLVM): there
the PTX comes from $COOP_TILEDSL_PTX, written elsewhere by
`python test/mlir_python/test_tiledsl_gpu.py DIR`, and only the launcher
(run_ptx.py: NumPy and cuda.core) is imported.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "embed-python"
sys.path.insert(0, str(EXAMPLE))

from run_ptx import run_ptx  # noqa: E402

ALGORITHMS = ["direct", "striped", "vectorize", "transpose", "warp_transpose",
              "warp_transpose_timesliced"]
BLOCK, ITEMS_PER_THREAD = 128, 4


def _kernel(algorithm: str, block: int = BLOCK, items_per_thread: int = ITEMS_PER_THREAD):
    import tiledsl

    @tiledsl.tile_map(block=block, items_per_thread=items_per_thread, algorithm=algorithm)
    def scale(x, factor):
        return x * factor + 1

    return scale


def _compiled(algorithm: str) -> dict:
    """The kernel's PTX and launch shape: carried, or compiled here."""
    directory = os.environ.get("COOP_TILEDSL_PTX")
    if directory:
        return json.loads((Path(directory) / f"{algorithm}.json").read_text())
    import tiledsl

    kernel = _kernel(algorithm)
    return {"ptx": tiledsl.compile_ptx(kernel), "name": kernel.name, "block": kernel.block,
            "tile": kernel.tile}


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_kernel_computes_on_the_gpu(algorithm):
    compiled = _compiled(algorithm)
    # Three full tiles and a partial one, negative and positive items.
    data = np.arange(3 * compiled["tile"] + 100, dtype=np.int32) - 700
    result = run_ptx(compiled["ptx"], compiled["name"], compiled["block"], compiled["tile"], data, 3)
    np.testing.assert_array_equal(result, data * 3 + 1)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for algorithm in ALGORITHMS:
        (out / f"{algorithm}.json").write_text(json.dumps(_compiled(algorithm)))
    print(f"{len(ALGORITHMS)} kernels written to {out}")
