"""Every load/store algorithm compiles to PTX that ptxas accepts, with no
local-memory stack frame, no spills, and shared memory between the tile's and CUB's.

The matrix: every algorithm x {int8, int16, int32, int64, float32, float64} x
items_per_thread {1, 3, 4, 8} x block {32, 128, 256, (8, 16, 1)}, for blocks,
physical warps and logical warps of 1-32 lanes, full and guarded tiles. No GPU
is needed.
"""

import pytest

import coop_kernels as ck

pytestmark = pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")


def _selected(case: ck.Case) -> bool:
    # Loads: full tiles and guarded tiles with oob_default (guarded tiles
    # without it compile to a subset of that code). Stores: every variant.
    return case.op == "store" or case.guarded == case.oob


BATCHES = ck.batches(list(filter(_selected, ck.compile_matrix())) + list(ck.copy_matrix()))


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_matrix_compiles_without_local_memory(batch):
    cases = BATCHES[batch]
    report = ck.ptxas_resources(ck.compile_ptx(cases))
    problems = []
    for case in cases:
        r = report.get(case.name)
        if r is None:
            problems.append(f"{case.name}: missing from ptxas' report")
        elif r.stack or r.spill_stores or r.spill_loads:
            problems.append(f"{case.name}: {r.stack} bytes stack, "
                            f"{r.spill_stores}/{r.spill_loads} bytes spilled")
        elif not ck.shared_bytes_bounds(case)[0] <= r.shared <= ck.shared_bytes_bounds(case)[1]:
            low, high = ck.shared_bytes_bounds(case)
            problems.append(f"{case.name}: {r.shared} bytes shared memory, "
                            f"outside [{low}, {high}] (the tile's, CUB's)")
    assert not problems, f"{len(problems)} of {len(cases)} kernels:\n" + "\n".join(problems[:40])
