"""The nanobind module over the C API: round trips, diagnostics, pipelines."""

import pytest

from cuda.coop import _compiler

KERNEL = """
gpu.module @kernels {
  gpu.func @copy(%src: memref<?xi32>, %dst: memref<?xi32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<4xi32>
    coop.load %b, %src[%off] into %items algorithm = transpose
        : !coop.group<block>, memref<?xi32>, memref<4xi32>
    coop.store %b, %items into %dst[%off] algorithm = transpose
        : !coop.group<block>, memref<4xi32>, memref<?xi32>
    gpu.return
  }
}
"""


def test_round_trip_is_a_fixed_point():
    once = _compiler.run_pipeline(KERNEL)
    assert "coop.load %0, %arg0[%arg2] into %alloca algorithm = transpose" in once
    assert _compiler.run_pipeline(once) == once


def test_generic_form_parses_back_to_the_same_module():
    generic = _compiler.run_pipeline(KERNEL, generic=True)
    assert '"coop.load"' in generic
    assert _compiler.run_pipeline(generic) == _compiler.run_pipeline(KERNEL)


def test_debug_info_prints_the_source_locations():
    text = _compiler.run_pipeline(KERNEL, source_name="kernel.py", debug_info=True)
    assert 'loc("kernel.py":7:5)' in text


def test_pipeline_runs_passes():
    dead = "func.func @f() {\n  %t = coop.this_thread\n  return\n}\n"
    assert "coop.this_thread" in _compiler.run_pipeline(dead)
    assert "coop.this_thread" not in _compiler.run_pipeline(dead, "canonicalize,cse")


def test_verifier_error_is_an_exception_with_located_diagnostics():
    bad = KERNEL.replace(
        "coop.load %b, %src[%off] into %items algorithm = transpose\n",
        "%zero = arith.constant 0 : i32\n"
        "    coop.load %b, %src[%off] into %items oob_default = %zero : i32\n",
    )
    with pytest.raises(_compiler.PipelineError) as info:
        _compiler.run_pipeline(bad, source_name="kernel.py")
    assert isinstance(info.value, ValueError)
    severity, location, message = info.value.diagnostics[0]
    assert severity == "error"
    assert location.startswith("kernel.py:")
    assert "oob_default" in message
    assert "kernel.py:" in str(info.value)


def test_every_diagnostic_is_reported_in_order():
    text = """
    func.func @a(%src: memref<?xi32>, %items: memref<4xf32>) {
      %b = coop.this_block
      coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<4xf32>
      return
    }
    """
    with pytest.raises(_compiler.PipelineError) as info:
        _compiler.run_pipeline(text, source_name="two.mlir")
    (severity, location, message), *_ = info.value.diagnostics
    assert (severity, location) == ("error", "two.mlir:4:7")
    assert "payload element type 'f32' does not match the source element type 'i32'" in message


def test_syntax_error_is_an_exception():
    with pytest.raises(_compiler.PipelineError, match="expected"):
        _compiler.run_pipeline("func.func @f( {")


def test_invalid_pipeline_is_an_exception():
    with pytest.raises(_compiler.PipelineError, match="invalid pass pipeline 'no-such-pass'"):
        _compiler.run_pipeline(KERNEL, "no-such-pass")


def test_unregistered_dialects_are_rejected():
    with pytest.raises(_compiler.PipelineError, match="unregistered"):
        _compiler.run_pipeline('"foo.bar"() : () -> ()')


def test_empty_module_text_is_an_empty_module():
    assert _compiler.run_pipeline("").strip() == "module {\n}"


SKELETON = """
func.func @kernel(%src: memref<?xi32>, %items: memref<4xi32>, %out: memref<4xi32>)
    attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  %b = coop.this_block
  coop.load %b, %src into %items algorithm = transpose {coop.site = 0 : i64}
      : !coop.group<block>, memref<?xi32>, memref<4xi32>
  coop.exchange %b, %items into %out mode = blocked_to_striped {coop.site = 1 : i64}
      : !coop.group<block>, memref<4xi32>, memref<4xi32>
  %w = coop.this_warp
  coop.exchange %w, %out into %items mode = striped_to_blocked {coop.site = 2 : i64}
      : !coop.group<warp>, memref<4xi32>, memref<4xi32>
  coop.exchange %w, %items into %out mode = striped_to_blocked {coop.site = 3 : i64}
      : !coop.group<warp>, memref<4xi32>, memref<4xi32>
  return
}
"""


def test_plan_kernel_returns_slices_and_barriers_as_data():
    plan = _compiler.plan_kernel(SKELETON, sites=5)
    # The block's 512 items, swizzled within them (no padding slot: at 4 items a thread
    # CUB pads none, and the swizzle needs none).
    assert plan["size"] == 2048 and plan["alignment"] == 16 and not plan["dynamic"]
    # The exchange scatters with the map the load gathered with: one slice, no
    # barrier between them. The warp exchanges reuse the slice after a block
    # barrier, and again after a warp barrier (the second scatters striped
    # where the first gathered blocked). Site 4 does not exist.
    assert plan["offsets"] == [0, 0, 0, 0, None]
    assert sorted(plan["barriers"]) == [(2, "before", "block"), (3, "before", "site")]


def test_plan_kernel_failure_raises_the_diagnostics():
    bad = SKELETON.replace("mode = blocked_to_striped {coop.site = 1", "mode = bogus {coop.site = 1")
    with pytest.raises(_compiler.PipelineError) as error:
        _compiler.plan_kernel(bad, source_name="k.py", sites=4)
    assert any(severity == "error" for severity, _, _ in error.value.diagnostics)
