"""The common API in plain Python: descriptors, registration, markers."""

import os
import subprocess
import sys
import textwrap

import pytest

from cuda import coop


def test_spec_example_logical_warp():
    group = coop.this_warp().group_by(8)
    assert group.kind == "threads_within_warp"
    assert group.static_size == 8


def test_factories():
    assert [g.kind for g in (coop.this_thread(), coop.this_warp(), coop.this_block(),
                             coop.this_cluster(), coop.this_grid())] == [
        "thread", "warp", "block", "cluster", "grid"]
    assert coop.this_thread().static_size == 1
    assert coop.this_warp().static_size == 32
    assert coop.this_block().static_size is None
    assert coop.this_block().hierarchy.implicit
    assert coop.Hierarchy is coop.ThreadHierarchy


def test_block_partition_counts_warps():
    pairs = coop.this_block().group_by(2)
    assert (pairs.kind, pairs.static_size, pairs.parent.kind) == ("warps_within_block", 64, "block")
    assert pairs.mapping == coop.GroupByMapping(2, True, "warp")


def test_resolved_hierarchy_gives_block_size():
    hierarchy = coop.ThreadHierarchy._resolved(block_dim=(8, 16))
    block = coop.ThreadGroup("block", hierarchy)
    assert hierarchy.block_dim == (8, 16, 1) and not hierarchy.implicit
    assert block.static_size == 128
    with pytest.raises(ValueError, match="exhaustive partition must divide the block's 4 warps"):
        block.group_by(3)
    assert block.group_by(3, exhaustive=False).static_size == 96


def test_public_hierarchy_takes_no_dimensions():
    with pytest.raises(TypeError):
        coop.ThreadHierarchy((128, 1, 1))


@pytest.mark.parametrize("call, error, message", [
    (lambda: coop.this_warp().group_by(3), ValueError, "exhaustive=False"),
    (lambda: coop.this_warp().group_by(64), ValueError, "32 lanes"),
    (lambda: coop.this_warp().group_by(0), ValueError, "positive"),
    (lambda: coop.this_warp().group_by(2.0), TypeError, "must be an int"),
    (lambda: coop.this_warp().group_by(True), TypeError, "must be an int"),
    (lambda: coop.this_warp().group_by(4, exhaustive=1), TypeError, "bool"),
    (lambda: coop.this_warp().group_by(8).group_by(2), ValueError, "nested partitions"),
    (lambda: coop.this_thread().group_by(1), ValueError, "cannot be partitioned"),
    (lambda: coop.this_grid().group_by(1), ValueError, "cannot be partitioned"),
    (lambda: coop.ThreadGroup("lane"), ValueError, "unknown thread group kind"),
])
def test_group_by_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_non_exhaustive_warp_partition():
    group = coop.this_warp().group_by(3, exhaustive=False)
    assert group.static_size == 3 and not group.mapping.exhaustive


@pytest.mark.parametrize("marker, args", [
    (coop.ThreadData, (4,)),
    (coop.TempStorage, ()),
    (coop.load, (coop.this_block(), None, None)),
    (coop.store, (coop.this_block(), None, None)),
])
def test_markers_outside_kernels_name_the_fix(marker, args):
    with pytest.raises(coop.CompilerMarkerError, match="inside a GPU kernel"):
        marker(*args)


def test_payload_protocol_is_generic():
    import typing

    for item in (int, float, "numpy.int32"):
        alias = coop.ThreadDataLike[item]
        assert typing.get_origin(alias) is coop.ThreadDataLike
        assert len(typing.get_args(alias)) == 1

    class Payload:
        items_per_thread = 4

        def __getitem__(self, index):
            return 0

        def __setitem__(self, index, value):
            pass

    # Still a runtime-checkable protocol.
    assert isinstance(Payload(), coop.ThreadDataLike)
    assert not isinstance([0, 0, 0, 0], coop.ThreadDataLike)


def test_temp_storage_protocol_is_the_four_facts():
    class Descriptor:
        size_in_bytes = None
        alignment = 16
        auto_sync = False
        sharing = "shared"

    assert isinstance(Descriptor(), coop.TempStorageLike)
    assert not isinstance(object(), coop.TempStorageLike)


def test_register_rejects_unknown_backends():
    with pytest.raises(ValueError, match="unsupported cuda.coop backend 'triton'"):
        coop.register("triton")


def _python(code: str, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=300)


def test_register_reports_a_missing_compiler():
    # A process where numba_cuda_mlir cannot be imported.
    result = _python("""
        import sys
        sys.modules["numba_cuda_mlir"] = None
        from cuda import coop
        try:
            coop.register("numba_cuda_mlir")
        except ImportError as error:
            print(error)
    """)
    assert "needs the numba_cuda_mlir package" in result.stdout, result.stderr


def test_register_reports_an_incompatible_compiler():
    result = _python("""
        import sys, types
        fake = types.ModuleType("numba_cuda_mlir")
        fake.__version__ = "9.9.0"
        sys.modules["numba_cuda_mlir"] = fake
        from cuda import coop
        try:
            coop.register("numba-cuda-mlir")
        except ImportError as error:
            print(error)
    """, CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION="1")
    assert "supports numba_cuda_mlir 0.6.x; found 9.9.0" in result.stdout, result.stderr


def test_no_cuda_init_shadows_the_namespace():
    import cuda

    assert not hasattr(cuda, "__file__") or cuda.__file__ is None


def test_auto_registration_follows_import_order_and_can_be_disabled():
    pytest.importorskip("numba_cuda_mlir")
    code = """
        import numba_cuda_mlir
        from cuda import coop
        from cuda.coop import _registration
        print(sorted(_registration.registered()))
    """
    assert _python(code).stdout.strip() == "['numba-cuda-mlir']"
    disabled = _python(code, CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION="1")
    assert disabled.stdout.strip() == "[]", disabled.stderr
    explicit = _python(code.replace("print(", "coop.register('numba_cuda_mlir'); "
                                    "coop.register('numba-cuda-mlir'); print("),
                       CUDA_COOP_DISABLE_AUTO_DSL_REGISTRATION="1")
    assert explicit.stdout.strip() == "['numba-cuda-mlir']", explicit.stderr
