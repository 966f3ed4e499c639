"""The spec's rules for descriptors and operands, as a user meets them in a
Numba-CUDA-MLIR kernel (compile-only unless marked gpu): TempStorage (both
namespaces; the qualified one is a class whose facts are attributes, also in
kernels), ThreadData's count and alignment, algorithm names, the groups that
are targets, and the group factories taking no size."""

import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

import cuda.coop.numba_mlir as numba_coop  # noqa: E402 -- activate the backend
from cuda import coop  # noqa: E402

I32 = types.int32[::1]
I64 = types.int64[::1]

BLOCK_ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
                    "warp_transpose_timesliced")
WARP_ALGORITHMS = ("direct", "striped", "vectorize", "transpose")


def _compile(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(cuda.jit(kernel), argtypes, block).metadata


def _error(kernel, argtypes, block=(128,)):
    with pytest.raises(Exception) as info:
        _compile(kernel, argtypes, block)
    # Numba decorates its messages with terminal colours.
    return re.sub(r"\x1b\[[0-9;]*m", "", str(info.value))


def _kernel(source, **names):
    """A kernel written as text: `source` defines `kernel`."""
    namespace = {"coop": coop, "numba_coop": numba_coop, "cuda": cuda, "np": np, **names}
    exec(compile(source, "<kernel>", "exec"), namespace)
    return namespace["kernel"]


def _block_barriers(ptx):
    kernel = ptx[ptx.index(".entry"):]
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", kernel))


def _shared_bytes(ptx):
    return [int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)]


def _shared_alignments(ptx):
    return [int(n) for n in re.findall(r"\.shared \.align (\d+) \.b8", ptx)]


# ---------------------------------------------------------------------------
# cuda.coop.numba_mlir.TempStorage on the host: a class whose instances
# expose the descriptor's facts


def test_qualified_temp_storage_is_a_class_with_the_facts_as_attributes():
    assert isinstance(numba_coop.TempStorage, type)
    scratch = numba_coop.TempStorage(4096, alignment=32, auto_sync=True, sharing="exclusive")
    assert (scratch.size_in_bytes, scratch.alignment, scratch.auto_sync, scratch.sharing) == (
        4096, 32, True, "exclusive")
    default = numba_coop.TempStorage()
    assert (default.size_in_bytes, default.alignment, default.auto_sync, default.sharing) == (
        None, None, False, "shared")
    assert isinstance(scratch, coop.TempStorageLike)
    assert numba_coop.TempStorage(64) == numba_coop.TempStorage(size_in_bytes=64)
    assert numba_coop.TempStorage(64) != numba_coop.TempStorage(128)
    with pytest.raises(AttributeError):
        scratch.size_in_bytes = 8


def test_qualified_temp_storage_auto_sync_none_becomes_false():
    scratch = numba_coop.TempStorage(auto_sync=None)
    assert scratch.auto_sync is False
    assert scratch == numba_coop.TempStorage(auto_sync=False)


@pytest.mark.parametrize("arguments, error, message", [
    ({"sharing": "private"}, ValueError,
     "TempStorage's sharing must be 'shared' or 'exclusive'; got 'private'"),
    ({"alignment": 24}, ValueError, "TempStorage's alignment must be a power of two; got 24"),
    ({"alignment": 0}, ValueError, "TempStorage's alignment must be a positive integer; got 0"),
    ({"alignment": 16.0}, TypeError, "TempStorage's alignment must be a positive integer or None"),
    ({"size_in_bytes": 0}, ValueError,
     "TempStorage's size_in_bytes must be a positive integer; got 0"),
    ({"size_in_bytes": -64}, ValueError,
     "TempStorage's size_in_bytes must be a positive integer; got -64"),
    ({"size_in_bytes": True}, TypeError,
     "TempStorage's size_in_bytes must be a positive integer or None; got True"),
    ({"auto_sync": 1}, TypeError, "TempStorage's auto_sync must be True, False or None; got 1"),
])
def test_qualified_temp_storage_rejects_invalid_facts(arguments, error, message):
    with pytest.raises(error, match=re.escape(message)):
        numba_coop.TempStorage(**arguments)


def test_common_temp_storage_stays_a_compiler_marker():
    with pytest.raises(coop.CompilerMarkerError, match="inside a GPU kernel"):
        coop.TempStorage(64)


# ---------------------------------------------------------------------------
# TempStorage(...) in a kernel: the same rules, as compile-time errors, from
# either namespace

TEMP_STORAGE_KERNEL = """
def kernel(src, dst, items_per_thread):
    block = coop.this_block()
    scratch = {namespace}.TempStorage({arguments})
    items = coop.ThreadData(items_per_thread)
    coop.load(block, src, items, algorithm="transpose", temp_storage=scratch)
    coop.store(block, dst, items, algorithm="transpose", temp_storage=scratch)
"""


@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
@pytest.mark.parametrize("arguments, message", [
    ("sharing='private'", "TempStorage's sharing must be 'shared' or 'exclusive'; got 'private'"),
    ("alignment=24", "TempStorage's alignment must be a power of two; got 24"),
    ("alignment=0", "TempStorage's alignment must be a positive integer; got 0"),
    ("size_in_bytes=0", "TempStorage's size_in_bytes must be a positive integer; got 0"),
    ("-16", "TempStorage's size_in_bytes must be a positive integer; got -16"),
    ("auto_sync=1", "TempStorage's auto_sync must be True, False or None; got 1"),
    ("64, 16", "TempStorage takes size_in_bytes positionally and the rest"),
    ("alignement=16", "TempStorage got unexpected keyword arguments alignement"),
])
def test_error_invalid_temp_storage_in_a_kernel(namespace, arguments, message):
    kernel = _kernel(TEMP_STORAGE_KERNEL.format(namespace=namespace, arguments=arguments))
    assert message in _error(kernel, [I32, I32, literal(2)])


def test_error_temp_storage_fact_known_only_at_run_time():
    def kernel(src, dst, size, items_per_thread):
        scratch = coop.TempStorage(size)
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items, algorithm="transpose", temp_storage=scratch)

    message = _error(kernel, [I32, I32, types.int64, literal(2)])
    assert "TempStorage's size_in_bytes must be a compile-time constant" in message


def test_error_temp_storage_too_small_for_its_uses():
    kernel = _kernel(TEMP_STORAGE_KERNEL.format(namespace="numba_coop", arguments="1024"))
    message = _error(kernel, [I32, I32, literal(4)])
    assert "temp_storage of 1024 bytes is too small: its uses need 2048 bytes" in message


def test_temp_storage_alignment_and_size_reach_the_shared_buffer():
    kernel = _kernel(TEMP_STORAGE_KERNEL.format(namespace="numba_coop",
                                                arguments="4096, alignment=256"))
    ptx = _compile(kernel, [I32, I32, literal(4)])["ptx"]
    # The uses need 2048 bytes; the descriptor asks for 4096, aligned to 256.
    assert _shared_bytes(ptx) == [4096]
    assert _shared_alignments(ptx) == [256]


@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
def test_qualified_and_common_descriptors_plan_alike(namespace):
    kernel = _kernel(TEMP_STORAGE_KERNEL.format(namespace=namespace,
                                                arguments="sharing='exclusive'"))
    ptx = _compile(kernel, [I32, I32, literal(4)])["ptx"]
    # A slice per call site: twice the 2048 bytes of one transpose.
    assert _shared_bytes(ptx) == [4096]


LOOP_KERNEL = """
def kernel(src, dst, tiles, items_per_thread):
    block = coop.this_block()
    scratch = {namespace}.TempStorage({arguments})
    items = coop.ThreadData(items_per_thread)
    for tile in range(tiles):
        offset = tile * cuda.blockDim.x * items_per_thread
        coop.load(block, src, items, offset=offset, algorithm="transpose",
                  temp_storage=scratch)
        coop.store(block, dst, items, offset=offset, algorithm="transpose",
                   temp_storage=scratch)
"""


@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
def test_auto_sync_none_is_auto_sync_false(namespace):
    def barriers(arguments):
        kernel = _kernel(LOOP_KERNEL.format(namespace=namespace, arguments=arguments))
        return _block_barriers(_compile(kernel, [I32, I32, types.int32, literal(4)])["ptx"])

    none, false, true = barriers("auto_sync=None"), barriers("auto_sync=False"), \
        barriers("auto_sync=True")
    # None adds no reuse barrier: the kernel synchronizes reuse itself, as
    # with False; True adds a trailing barrier after each use.
    assert none == false == barriers("")
    assert true > false


ATTRIBUTES_KERNEL = """
def kernel(src, dst, out, items_per_thread):
    block = coop.this_block()
    scratch = {namespace}.TempStorage({arguments})
    items = coop.ThreadData(items_per_thread)
    coop.load(block, src, items, algorithm="transpose", temp_storage=scratch)
    coop.store(block, dst, items, algorithm="transpose", temp_storage=scratch)
    if cuda.threadIdx.x == 0:
{reads}
        out[2] = 7001 if scratch.auto_sync else 5001
        out[3] = 1101 if scratch.sharing == "exclusive" else 1301
"""
# Numba types both branches of an `if`, so arithmetic on a fact that may be
# None is written only where the fact is given.
GIVEN = """
        out[0] = scratch.size_in_bytes + 100000
        out[1] = scratch.alignment + 200000
"""
CHOSEN_BY_THE_COMPILER = """
        if scratch.size_in_bytes is None:
            out[0] = 3001
        if scratch.alignment is None:
            out[1] = 3002
"""
ATTRIBUTE_CASES = [
    ("12288, alignment=256, auto_sync=True, sharing='exclusive'", GIVEN,
     [112288, 200256, 7001, 1101]),
    ("", CHOSEN_BY_THE_COMPILER, [3001, 3002, 5001, 1301]),
    ("auto_sync=None", CHOSEN_BY_THE_COMPILER, [3001, 3002, 5001, 1301]),
]


def _attributes_kernel(namespace, arguments, reads):
    return _kernel(ATTRIBUTES_KERNEL.format(namespace=namespace, arguments=arguments,
                                            reads=reads.strip("\n")))


@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
@pytest.mark.parametrize("arguments, reads, expected", ATTRIBUTE_CASES)
def test_temp_storage_attributes_in_a_kernel_are_constants(namespace, arguments, reads,
                                                           expected):
    kernel = _attributes_kernel(namespace, arguments, reads)
    ptx = _compile(kernel, [I32, I32, I64, literal(4)])["ptx"]
    constants = set(re.findall(r"\b\d+\b", ptx[ptx.index(".entry"):]))
    # Each attribute folded to the descriptor's fact: the other branch is gone.
    candidates = {"112288", "200256", "3001", "3002", "7001", "5001", "1101", "1301"}
    assert constants & candidates == {str(v) for v in expected}


@pytest.mark.gpu
@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
@pytest.mark.parametrize("arguments, reads, expected", ATTRIBUTE_CASES)
def test_temp_storage_attributes_in_a_kernel_on_the_gpu(namespace, arguments, reads,
                                                        expected):
    kernel = cuda.jit(_attributes_kernel(namespace, arguments, reads))
    values = np.arange(128 * 4, dtype=np.int32)
    src = cuda.to_device(values)
    dst = cuda.device_array_like(values)
    out = cuda.to_device(np.zeros(4, dtype=np.int64))
    kernel[1, 128](src, dst, out, 4)
    np.testing.assert_array_equal(out.copy_to_host(), expected)
    np.testing.assert_array_equal(dst.copy_to_host(), values)


def test_error_unknown_temp_storage_attribute():
    def kernel(src, dst, out, items_per_thread):
        scratch = numba_coop.TempStorage()
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items, algorithm="transpose", temp_storage=scratch)
        out[0] = scratch.capacity

    assert "Unknown attribute 'capacity'" in _error(kernel, [I32, I32, I64, literal(2)])


# ---------------------------------------------------------------------------
# ThreadData: items_per_thread > 0, alignment a positive power of two


COUNT_KERNELS = {
    "argument": """
def kernel(src, items_per_thread):
    items = coop.ThreadData(items_per_thread)
    coop.load(coop.this_block(), src, items)
""",
    "literal": """
def kernel(src, items_per_thread):
    items = coop.ThreadData({count})
    coop.load(coop.this_block(), src, items)
""",
}


@pytest.mark.parametrize("count", [0, -3])
@pytest.mark.parametrize("spelling", sorted(COUNT_KERNELS))
def test_error_items_per_thread_not_positive(count, spelling):
    kernel = _kernel(COUNT_KERNELS[spelling].format(count=count))
    message = _error(kernel, [I32, literal(count)])
    assert f"ThreadData's items_per_thread must be positive; got {count}" in message


ALIGNMENT_KERNEL = """
def kernel(src, dst, n, items_per_thread):
    items = {namespace}.ThreadData(items_per_thread, alignment={alignment})
    coop.load(coop.this_block(), src, items)
    dst[cuda.threadIdx.x] = items[n]
"""


def _payload_alignment(metadata):
    """The alignment of the payload's local array; None when it has the
    element type's own."""
    (alignment,) = re.findall(r"memref\.alloca\(\)(?: \{alignment = (\d+) : i64\})? : "
                              r"memref<4xi32>", metadata["mlir_module_str"])
    return int(alignment) if alignment else None


@pytest.mark.parametrize("namespace", ["coop", "numba_coop"])
@pytest.mark.parametrize("alignment, storage", [(None, None), (64, 64), (16, 16), (8, 16),
                                                (4, 16), (1, 16)])
def test_thread_data_alignment_is_a_minimum(namespace, alignment, storage):
    # Any positive power of two is a valid request. Numba-CUDA-MLIR drops an
    # explicit alignment of 8 and rejects smaller ones, so requests of 8 bytes
    # or less get 16.
    kernel = _kernel(ALIGNMENT_KERNEL.format(namespace=namespace, alignment=alignment))
    metadata = _compile(kernel, [I32, I32, types.int64, literal(4)])
    assert _payload_alignment(metadata) == storage


@pytest.mark.parametrize("alignment, message", [
    ("24", "ThreadData's alignment must be a positive power of two; got 24"),
    ("0", "ThreadData's alignment must be a positive power of two; got 0"),
    ("-8", "ThreadData's alignment must be a positive power of two; got -8"),
    ("16.0", "ThreadData's alignment must be a positive power of two given as a compile-time "
             "integer, such as alignment=16; got 16.0"),
    ("True", "given as a compile-time integer, such as alignment=16; got True"),
    ("n", "given as a compile-time integer, such as alignment=16; got a value known only at "
          "run time"),
])
def test_error_thread_data_alignment(alignment, message):
    kernel = _kernel(ALIGNMENT_KERNEL.format(namespace="coop", alignment=alignment))
    assert message in _error(kernel, [I32, I32, types.int64, literal(4)])


# ---------------------------------------------------------------------------
# Algorithm names


@pytest.mark.parametrize("op", ["load", "store"])
@pytest.mark.parametrize("group, valid", [("coop.this_block()", BLOCK_ALGORITHMS),
                                          ("coop.this_warp()", WARP_ALGORITHMS)])
@pytest.mark.parametrize("algorithm", ["transposed", "blocked", "BLOCK_LOAD_DIRECT"])
def test_error_unknown_algorithm_names_the_valid_ones(op, group, valid, algorithm):
    kernel = _kernel(f"""
def kernel(src, items_per_thread):
    items = coop.ThreadData(items_per_thread, dtype=np.int32)
    coop.{op}({group}, src, items, algorithm={algorithm!r})
""")
    message = _error(kernel, [I32, literal(2)])
    assert repr(algorithm) in message
    assert all(name in message for name in valid), message


@pytest.mark.parametrize("group", ["coop.this_block()", "coop.this_warp()"])
def test_error_algorithm_not_a_literal(group):
    kernel = _kernel(f"""
def kernel(src, items_per_thread):
    items = coop.ThreadData(items_per_thread, dtype=np.int32)
    coop.load({group}, src, items, algorithm=5)
""")
    message = _error(kernel, [I32, literal(2)])
    assert "algorithm" in message and "5" in message
    assert all(repr(name) in message for name in WARP_ALGORITHMS), message


# ---------------------------------------------------------------------------
# Cluster and grid groups are not targets

TARGET_KERNEL = """
def kernel(src, items_per_thread):
    group = coop.{factory}()
    items = coop.ThreadData(items_per_thread, dtype=np.int32)
    for i in range(items_per_thread):
        items[i] = i
    result = {call}
"""

TARGET_CALLS = {
    "load": "coop.load(group, src, items)",
    "store": "coop.store(group, src, items)",
    "scalar store": "coop.store(group, src, items[0])",
    "exchange": "coop.exchange(group, items)",
}


@pytest.mark.parametrize("kind", ["cluster", "grid"])
@pytest.mark.parametrize("call", sorted(TARGET_CALLS))
def test_error_cluster_and_grid_are_not_targets(kind, call):
    kernel = _kernel(TARGET_KERNEL.format(factory=f"this_{kind}", call=TARGET_CALLS[call]))
    message = _error(kernel, [I32, literal(2)])
    operation = call.split()[-1]
    assert f"'!coop.group<{kind}>' is not a{'n' if operation[0] == 'e' else ''} " \
           f"{operation} target" in message
    # It names the groups that are.
    assert "needs a block, a warp or a logical warp (this_warp().group_by(n)) group" in message


@pytest.mark.parametrize("kind", ["cluster", "grid"])
@pytest.mark.parametrize("call", ["coop.shuffle(group, items)",
                                  "coop.shuffle(group, items[0], mode='offset')"])
def test_error_cluster_and_grid_are_not_shuffle_targets(kind, call):
    kernel = _kernel(TARGET_KERNEL.format(factory=f"this_{kind}", call=call))
    message = _error(kernel, [I32, literal(2)])
    assert f"'!coop.group<{kind}>'" in message and "shuffle" in message


@pytest.mark.parametrize("kind", ["cluster", "grid"])
def test_error_shuffle_on_cluster_or_grid_names_this_block(kind):
    kernel = _kernel(TARGET_KERNEL.format(factory=f"this_{kind}",
                                          call="coop.shuffle(group, items)"))
    message = _error(kernel, [I32, literal(2)])
    assert "is a block operation (CUB's BlockShuffle); use this_block()" in message


# ---------------------------------------------------------------------------
# Group factories take no size: a block's size comes from the launch


@pytest.mark.parametrize("factory", [coop.this_block, coop.this_warp, numba_coop.this_block])
def test_group_factory_with_a_size_is_a_type_error_in_python(factory):
    with pytest.raises(TypeError):
        factory(128)


@pytest.mark.parametrize("factory", ["this_block", "this_warp", "this_thread"])
def test_error_group_factory_with_a_size_in_a_kernel(factory):
    kernel = _kernel(f"""
def kernel(src, items_per_thread):
    group = coop.{factory}(128)
    items = coop.ThreadData(items_per_thread)
    coop.load(group, src, items)
""")
    message = _error(kernel, [I32, literal(2)])
    assert f"{factory}(Literal[int](128))" in message


@pytest.mark.parametrize("factory", ["this_block", "this_warp"])
def test_error_group_factory_with_a_size_names_the_rule(factory):
    kernel = _kernel(f"""
def kernel(src, items_per_thread):
    group = coop.{factory}(128)
    items = coop.ThreadData(items_per_thread)
    coop.load(group, src, items)
""")
    assert f"coop.{factory}() takes no arguments" in _error(kernel, [I32, literal(2)])
