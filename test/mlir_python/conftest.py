"""Tests of cuda.coop.mlir on the upstream MLIR Python bindings.

They run in a pytest process of their own (test/python/test_mlir_python.py
starts it): the upstream bindings and numba-cuda-mlir, which the other tests
import, cannot share a process (test_coop_dialect.py shows what happens)."""

import importlib.util
import sys
from pathlib import Path

PYTHON_TESTS = Path(__file__).resolve().parents[1] / "python"

# The PTX helpers: ptxas lookup and its resource report (coop_kernels).
sys.path.insert(0, str(PYTHON_TESTS))

# The same GPU skip rule as test/python (its conftest, under another name).
_spec = importlib.util.spec_from_file_location("_python_tests_conftest", PYTHON_TESTS / "conftest.py")
_python_tests_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_python_tests_conftest)
pytest_collection_modifyitems = _python_tests_conftest.pytest_collection_modifyitems
