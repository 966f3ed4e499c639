"""examples/embed-python: a tiny DSL on the upstream MLIR Python bindings
emits kernels that mix arith/scf with coop.load/coop.store, lowers them to PTX
with coop's passes (ptxas checks them here) and runs them with cuda.core (on
a GPU: test_tiledsl_gpu.py)."""

import sys
from pathlib import Path

import coop_kernels as ck
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "embed-python"))

import tiledsl  # noqa: E402

from test_tiledsl_gpu import ALGORITHMS, _kernel  # noqa: E402


def test_the_kernel_mixes_the_dsl_ops_with_coop_ops():
    with tiledsl.ir.Context() as context, tiledsl.ir.Location.unknown():
        tiledsl.coop.register_dialect(context)
        module = tiledsl.emit(_kernel("transpose"))
        assert module.operation.verify()
        text = str(module)
    for op in ("coop.this_block", "coop.load", "scf.for", "arith.muli", "arith.addi", "coop.store"):
        assert op in text, op
    assert "algorithm = transpose" in text and "valid_items" in text


def test_an_unknown_algorithm_is_refused_by_the_dsl():
    with pytest.raises(KeyError, match="blocked"):
        _kernel("blocked")


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_load_algorithm_compiles_to_ptx_that_ptxas_accepts(algorithm):
    kernel = _kernel(algorithm)
    ptx = tiledsl.compile_ptx(kernel)
    assert ".entry scale" in ptx
    resources = ck.ptxas_resources(ptx)["scale"]
    # The items stay in registers; only the exchanging algorithms use shared
    # memory, one buffer for the tile.
    assert resources.stack == 0 and resources.spill_stores == 0
    exchanges = algorithm.startswith("transpose") or algorithm.startswith("warp_transpose")
    assert (resources.shared > 0) == exchanges

