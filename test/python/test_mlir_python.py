"""cuda.coop.mlir (the dialect in the upstream MLIR Python bindings) and
examples/embed-python: their tests, test/mlir_python, run in a process of
their own because the upstream bindings and numba-cuda-mlir, which this
process imports, cannot share one."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _has_upstream_bindings() -> bool:
    # Looked up without importing: importing them here would break the
    # numba-cuda-mlir tests of this process.
    spec = importlib.util.find_spec("mlir")
    return spec is not None and any(
        (Path(p) / "_mlir_libs" / "libMLIRPythonCAPI.so").is_file()
        for p in spec.submodule_search_locations or []
    )


@pytest.mark.skipif(not _has_upstream_bindings(),
                    reason="needs the upstream MLIR Python bindings (cuda-coop[mlir])")
def test_upstream_bindings_tests_pass_in_their_own_process():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         str(ROOT / "test" / "mlir_python")],
        cwd=ROOT, capture_output=True, text=True, env=dict(os.environ), timeout=1800,
    )
    print(done.stdout[-4000:])
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-4000:]
