"""reduce_batched on the GPU: warps and logical warps of 1..32 lanes, batch
counts below, at and above the group size (and not multiples of it),
striped and blocked results, named operators and a Python function, integer
and floating items; each lane's result slots checked against the NumPy
model (floating sums to rounding: the lanes combine in butterfly order)."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
pytest.importorskip("numba_cuda_mlir")

import collective_models as cm  # noqa: E402
import cuda.coop.numba_mlir  # noqa: E402,F401 -- the backend, even where cuda.coop came first

GRID = 3
THREADS = 128


def larger(a, b):
    return a if a > b else b


def _run(dtype, batches, width, binary_op, layout, block=(THREADS,)):
    from numba_cuda_mlir import cuda

    threads = int(np.prod(block))
    size = width or 32
    groups = GRID * threads // size
    rng = np.random.default_rng(hash((dtype, batches, width, str(binary_op), layout)) % 2**32)
    if np.dtype(dtype).kind == "f":
        values = rng.standard_normal((groups, size, batches)).astype(dtype)
    else:
        values = rng.integers(-1000, 1000, (groups, size, batches)).astype(dtype)
    slots = -(-batches // size)
    dst = cuda.device_array(GRID * threads * slots, values.dtype)
    kernel = cm.reduce_batched_kernel(batches, width, binary_op, layout)
    kernel[GRID, block](cuda.to_device(values.reshape(-1)), dst)
    got = dst.copy_to_host().reshape(groups, size, slots)
    op = binary_op if isinstance(binary_op, str) else (lambda a, b: max(a, b))
    specified = cm.reduce_batched_specified(size, batches, layout)
    for g in range(groups):
        expected = cm.reduce_batched_model(op, values[g], layout)
        if np.dtype(dtype).kind == "f" and binary_op == "sum":
            np.testing.assert_allclose(got[g][specified], expected[specified], rtol=1e-5,
                                       atol=1e-5, err_msg=f"group {g}")
        else:
            np.testing.assert_array_equal(got[g][specified], expected[specified],
                                          err_msg=f"group {g}")


@pytest.mark.parametrize("width", (None, 1, 2, 4, 8, 16, 32))
@pytest.mark.parametrize("batches", (1, 3, 8, 32, 33, 64))
@pytest.mark.parametrize("layout", ("striped", "blocked"))
def test_reduce_batched_sum(width, batches, layout):
    _run("int32", batches, width, "sum", layout)


@pytest.mark.parametrize("dtype", ("int8", "uint16", "int64", "float32", "float64"))
@pytest.mark.parametrize("binary_op", ("sum", "min", "max"))
@pytest.mark.parametrize("width", (None, 8))
def test_reduce_batched_dtypes_and_operators(dtype, binary_op, width):
    _run(dtype, 12, width, binary_op, "striped")
    _run(dtype, 40, width, binary_op, "blocked")


@pytest.mark.parametrize("width", (None, 4))
def test_reduce_batched_by_a_python_function(width):
    _run("int32", 16, width, larger, "striped")
    _run("float64", 7, width, larger, "blocked")


def test_reduce_batched_in_a_3d_block():
    _run("int32", 32, 8, "sum", "striped", block=(8, 4, 4))


@pytest.mark.parametrize("width", (None, 1, 4, 32))
def test_reduce_batched_of_a_scalar(width):
    from numba_cuda_mlir import cuda

    size = width or 32
    values = np.random.default_rng(5).integers(-50, 50, GRID * THREADS).astype(np.int32)
    dst = cuda.device_array_like(values)
    cm.reduce_batched_scalar_kernel(width, "max")[GRID, THREADS](cuda.to_device(values), dst)
    got = dst.copy_to_host().reshape(-1, size)
    np.testing.assert_array_equal(got[:, 0], values.reshape(-1, size).max(axis=1))

