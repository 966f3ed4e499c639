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


def _site(op, operands, attributes=(), results=(), group="!coop.group<block>", line=3,
          storage=(), functions=()):
    """A site as `lower_site` takes it (cuda.coop.numba_mlir's Site.data())."""
    return (f"site_{line}", op, (("group", group, None, -1),) + tuple(operands), tuple(attributes),
            tuple(results), tuple(storage), tuple(functions), (128, 1, 1), "k.py", line, 5)


LOAD = (("source", "memref<?xi32>", None, 0), ("payload", "memref<4xi32>", None, 1),
        ("offset", "index", "i64", 2), ("valid_items", None, None, -1),
        ("oob_default", None, None, -1), ("temp_storage", None, None, -1))
TRANSPOSE = (("algorithm", "#coop<algorithm transpose>"),)


def test_a_site_described_as_data_is_built_checked_and_lowered():
    lowered = _compiler.lower_site(_site("coop.load", LOAD, TRANSPOSE), "lower", sm=90)
    assert "coop." not in lowered.replace("coop_scratch", "")
    assert 'sym_name = "site_3"' in lowered and "(memref<?xi32>, memref<4xi32>, i64) -> ()" \
        in lowered
    assert '"arith.index_cast"' in lowered and '"gpu.barrier"' in lowered
    checked = _compiler.lower_site(_site("coop.load", LOAD, TRANSPOSE), "check")
    assert "coop.scratch_offset = 0" in checked


def test_a_placed_site_lowers_at_its_slice_of_the_kernels_buffer():
    lowered = _compiler.lower_site(_site("coop.load", LOAD, TRANSPOSE), "placed",
                                   ("__coop_scratch_k", 4096, 16, False, 2048))
    assert "@__coop_scratch_k" in lowered and "2048 : index" in lowered


def test_a_site_with_a_temp_storage_descriptor_and_a_user_operator():
    reduce = (("input", "memref<4xf32>", None, 0), ("valid_items", None, None, -1),
              ("temp_storage", "!coop.temp_storage", None, -1))
    site = _site("coop.reduce", reduce,
                 (("combiner", '@"my_max"'), ("broadcast", "unit")), ("f32",),
                 storage=(("auto_sync", "unit"), ("size_in_bytes", "4096 : i64")),
                 functions=(("my_max", "(f32, f32) -> f32"),))
    lowered = _compiler.lower_site(site, "lower")
    assert 'sym_name = "my_max"' in lowered and '"func.call"' in lowered


@pytest.mark.parametrize("change, message", [
    ({"attributes": (("algorithm", "#coop<algorithm warp_transpose>"),),
      "group": "!coop.group<warp>"},
     "k.py:3:5: 'coop.load' op algorithm 'warp_transpose' is not valid for a warp group"),
    ({"attributes": (("algorithm", "#coop<binary_op sum>"),)},
     "Invalid attribute `algorithm` in property conversion"),
    ({"attributes": (("mode", "#coop<scan_mode inclusive>"),)},
     "'coop.load' has no attribute 'mode'"),
    ({"attributes": (("algorithm", "#coop<algorithm sideways>"),)},
     "invalid value '#coop<algorithm sideways>' for attribute 'algorithm'"),
    ({"op": "coop.sort"}, "'coop.sort' is not a registered operation"),
    ({"operands": LOAD[:1] + (("payload", "memref<4xbogus>", None, 1),) + LOAD[2:]},
     "invalid type 'memref<4xbogus>' for operand 'payload'"),
    ({"operands": LOAD[:1] + (("payload", "memref<4xi32>", None, 0),) + LOAD[2:]},
     "operand 'payload' takes the position of another operand"),
    ({"operands": LOAD[:2] + (("offset", "index", "i64", 5),) + LOAD[3:]},
     "the operands' parameter positions have a gap"),
])
def test_a_site_that_is_wrong_raises_its_diagnostic(change, message):
    arguments = {"op": "coop.load", "operands": LOAD, "attributes": TRANSPOSE, **change}
    with pytest.raises(_compiler.PipelineError) as error:
        _compiler.lower_site(_site(**arguments), "check")
    assert any(message in f"{loc}: {text}" for severity, loc, text in error.value.diagnostics
               if severity == "error"), error.value.diagnostics


def test_a_skeleton_described_as_data_plans_as_its_text_does():
    block, warp = "!coop.group<block>", "!coop.group<warp>"
    payload = (("input", "memref<4xi32>", None, 0), ("output", "memref<4xi32>", None, 1),
               ("ranks", None, None, -1), ("valid_flags", None, None, -1),
               ("temp_storage", None, None, -1))
    blocked = (("mode", "#coop<exchange_mode blocked_to_striped>"),)
    striped = (("mode", "#coop<exchange_mode striped_to_blocked>"),)
    sites = [_site("coop.load", LOAD[:2] + (("offset", None, None, -1),) + LOAD[3:], TRANSPOSE,
                   line=1),
             _site("coop.exchange", payload, blocked, group=block, line=2),
             _site("coop.exchange", payload, striped, group=warp, line=3),
             _site("coop.exchange", payload, striped, group=warp, line=4)]
    plan = _compiler.plan_skeleton(sites, [-1] * 4, [([0, 1, 2, 3], [])])
    assert plan["size"] == 2048 and plan["offsets"] == [0, 0, 0, 0]
    assert sorted(plan["barriers"]) == [(2, "before", "block"), (3, "before", "site")]


def test_a_skeleton_with_branches_a_loop_and_a_shared_descriptor():
    storage = (("temp_storage", "!coop.temp_storage", None, -1),)
    load = LOAD[:2] + (("offset", None, None, -1),) + LOAD[3:5] + storage
    sites = [_site("coop.load", load, TRANSPOSE, line=1, storage=(("auto_sync", "unit"),)),
             _site("coop.load", load, TRANSPOSE, line=2, storage=(("auto_sync", "unit"),))]
    # ^0 -> ^1 | ^2; ^1 loops on itself; both reach ^2, which returns.
    blocks = [([], [1, 2]), ([0, -1], [1, 2]), ([1], [])]
    plan = _compiler.plan_skeleton(sites, [0, 0], blocks)
    assert plan["offsets"] == [0, 0]
    # auto_sync: a barrier after each use of the descriptor.
    assert sorted(plan["barriers"]) == [(0, "after", "block"), (1, "after", "block")]
    again = _compiler.plan_skeleton(sites, [0, 0], blocks, repeated=True)
    assert again["offsets"] == [0, 0]


def test_a_skeleton_naming_a_missing_site_or_block_is_an_error():
    site = _site("coop.load", LOAD, TRANSPOSE)
    with pytest.raises(_compiler.PipelineError, match="names site 3 of 1"):
        _compiler.plan_skeleton([site], [-1], [([3], [])])
    with pytest.raises(_compiler.PipelineError, match="branches to block 5 of 1"):
        _compiler.plan_skeleton([site], [-1], [([0], [5])])


def test_a_site_says_whether_it_uses_scratch_and_needs_an_exact_block():
    def facts(op, operands, attributes=(), results=(), group="!coop.group<block>"):
        return _compiler.describe_site(_site(op, operands, attributes, results, group))

    direct = (("algorithm", "#coop<algorithm direct>"),)
    assert facts("coop.load", LOAD, TRANSPOSE) == {"uses_scratch": True, "exact_block": False}
    assert facts("coop.load", LOAD, direct) == {"uses_scratch": False, "exact_block": False}
    reduce = (("input", "memref<4xi32>", None, 0), ("valid_items", None, None, -1),
              ("temp_storage", None, None, -1))
    named = (("kind", "#coop<binary_op sum>"),)
    raking = named + (("algorithm", "#coop<reduce_algorithm raking>"),)
    assert facts("coop.reduce", reduce, raking, ("i32",)) == {
        "uses_scratch": True, "exact_block": True}
    assert facts("coop.reduce", reduce, named, ("i32",)) == {
        "uses_scratch": True, "exact_block": False}
    assert facts("coop.reduce", reduce, named, ("i32",), group="!coop.group<warp>") == {
        "uses_scratch": False, "exact_block": False}
    with pytest.raises(_compiler.PipelineError, match="needs exactly one operator"):
        facts("coop.reduce", reduce, (), ("i32",))
