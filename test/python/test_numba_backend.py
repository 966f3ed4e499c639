"""The Numba-CUDA-MLIR backend, compile-only (no GPU needed): the spec's
examples, the errors every misuse gets, and what a kernel without coop calls
must not notice."""

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

import cuda.coop.numba_mlir as numba_coop  # noqa: E402
from cuda import coop  # noqa: E402

EXAMPLES = sorted(nc.EXAMPLES.glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("items_per_thread", [1, 4])
def test_spec_example_compiles_without_local_memory(example, items_per_thread):
    kernels, block = nc.example_kernels(example)
    assert kernels
    for kernel in kernels.values():
        arrays = kernel.py_func.__code__.co_argcount - 1
        cres = nc.compile_for_launch(kernel, [nc.ARRAY] * arrays + [literal(items_per_thread)],
                                     (block,))
        report = nc.ptxas_report(cres.metadata["ptx"])
        assert not nc.local_memory(report), report


def test_readme_example_is_the_example_file_and_compiles():
    root = nc.EXAMPLES.parents[2]
    example = (root / "docs" / "examples" / "first_kernel.py").read_text()
    readme = (root / "README.md").read_text()
    code = example.split('"""', 2)[2].strip()
    assert code in readme
    definitions = example.split("\nsource = ")[0]
    namespace: dict = {"__name__": "readme_example"}
    exec(compile(definitions, "first_kernel.py", "exec"), namespace)
    cres = nc.compile_for_launch(namespace["copy_tiles"], [nc.ARRAY, nc.ARRAY, literal(4)],
                                 (128,))
    assert not nc.local_memory(nc.ptxas_report(cres.metadata["ptx"]))


def _compile(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(cuda.jit(kernel), argtypes, block)


I32 = types.int32[::1]
F32 = types.float32[::1]


def test_both_namespaces_in_one_kernel():
    def kernel(src, dst, items_per_thread):
        warp = numba_coop.this_warp().group_by(8)
        items = coop.ThreadData(items_per_thread)
        numba_coop.load(warp, src, items, algorithm="transpose")
        coop.store(warp, dst, items, algorithm="striped")

    ptx = _compile(kernel, [I32, I32, literal(3)]).metadata["ptx"]
    assert "bar.warp.sync" in ptx


def test_every_block_algorithm_and_keyword():
    def with_storage(algorithm):
        def kernel(src, dst, n, items_per_thread):
            block = coop.this_block()
            scratch = coop.TempStorage(auto_sync=True)
            items = coop.ThreadData(items_per_thread)
            offset = cuda.blockIdx.x * 128 * items_per_thread
            coop.load(block, src, items, algorithm=algorithm, valid_items=n, oob_default=7,
                      offset=offset, temp_storage=scratch)
            coop.store(block, dst, items, algorithm=algorithm, valid_items=n, offset=offset,
                       temp_storage=scratch)
        return kernel

    def without_storage(algorithm):
        def kernel(src, dst, n, items_per_thread):
            block = coop.this_block()
            items = coop.ThreadData(items_per_thread)
            offset = cuda.blockIdx.x * 128 * items_per_thread
            coop.load(block, src, items, algorithm=algorithm, valid_items=n, oob_default=7,
                      offset=offset)
            coop.store(block, dst, items, algorithm=algorithm, valid_items=n, offset=offset)
        return kernel

    for algorithm in ("direct", "striped", "vectorize", "transpose", "warp_transpose",
                      "warp_transpose_timesliced"):
        kernels = [without_storage(algorithm)]
        if algorithm in ("transpose", "warp_transpose", "warp_transpose_timesliced"):
            kernels.append(with_storage(algorithm))
        for kernel in kernels:
            cres = _compile(kernel, [I32, I32, types.int64, literal(4)])
            assert not nc.local_memory(nc.ptxas_report(cres.metadata["ptx"])), algorithm


def test_scalar_store_and_explicit_dtype():
    def kernel(dst, value):
        block = coop.this_block()
        coop.store(block, dst, value, offset=cuda.blockIdx.x * 128)

    _compile(kernel, [F32, types.float32])


@pytest.mark.parametrize("debug, lineinfo", [(True, False), (False, True)])
def test_debug_and_lineinfo_kernels_compile(debug, lineinfo):
    def kernel(src, dst, items_per_thread):
        block = coop.this_block()
        items = coop.ThreadData(items_per_thread)
        coop.load(block, src, items, algorithm="transpose")
        coop.store(block, dst, items, algorithm="transpose")

    jitted = cuda.jit(debug=debug, lineinfo=lineinfo, opt=not debug)(kernel)
    cres = nc.compile_for_launch(jitted, [I32, I32, literal(2)], (64,))
    assert ".entry" in cres.metadata["ptx"]


@pytest.mark.parametrize("options", [{}, {"inline": "always"}])
def test_device_helpers_inlined_into_the_kernel(options):
    @cuda.jit(device=True, **options)
    def load_tile(group, src, items):
        coop.load(group, src, items, algorithm="transpose")

    def kernel(src, dst, items_per_thread):
        block = coop.this_block()
        items = coop.ThreadData(items_per_thread)
        load_tile(block, src, items)
        coop.store(block, dst, items, algorithm="transpose")

    cres = _compile(kernel, [I32, I32, literal(4)])
    assert not nc.local_memory(nc.ptxas_report(cres.metadata["ptx"]))


def test_error_device_helper_not_inlined():
    @cuda.jit(device=True, inline="never")
    def load_tile(group, src, items):
        coop.load(group, src, items)

    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread, dtype=types.int32)
        load_tile(coop.this_block(), src, items)

    assert "inline='always'" in _error(kernel, [I32, literal(2)])


def _error(kernel, argtypes, block=(128,)):
    with pytest.raises(Exception) as info:
        _compile(kernel, argtypes, block)
    return str(info.value)


def test_error_wrong_group_kind():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_thread(), src, items)

    assert "'!coop.group<thread>' is not a load target" in _error(kernel, [I32, literal(2)])


def test_error_algorithm_for_warps():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_warp(), src, items, algorithm="warp_transpose")

    assert "not valid for a warp group" in _error(kernel, [I32, literal(2)])


def test_error_dtype_mismatch():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread, dtype=types.float32)
        coop.load(coop.this_block(), src, items)

    assert "does not match the source element type" in _error(kernel, [I32, literal(2)])


def test_error_oob_default_without_valid_items():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items, oob_default=0)

    assert "oob_default requires valid_items" in _error(kernel, [I32, literal(2)])


def test_error_undersized_temp_storage():
    def kernel(src, items_per_thread):
        scratch = coop.TempStorage(64)
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_block(), src, items, algorithm="transpose", temp_storage=scratch)

    message = _error(kernel, [I32, literal(4)])
    assert "temp_storage of 64 bytes is too small: its uses need 2048 bytes" in message


def test_error_items_per_thread_not_constant():
    def kernel(src, n):
        items = coop.ThreadData(n + 1)
        coop.load(coop.this_block(), src, items)

    assert "items_per_thread must be a compile-time constant" in _error(kernel, [I32, types.int32])


def test_error_warp_ops_need_whole_warps():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        coop.load(coop.this_warp(), src, items)

    assert "multiple of 32; the block has 48 threads" in _error(kernel, [I32, literal(2)], (48,))


def test_error_two_dimensional_array():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread, dtype=types.int32)
        coop.load(coop.this_block(), src, items)

    assert "must be a one-dimensional array" in _error(kernel, [types.int32[:, ::1], literal(2)])


def test_error_non_contiguous_array():
    def kernel(src, items_per_thread):
        items = coop.ThreadData(items_per_thread, dtype=types.int32)
        coop.load(coop.this_block(), src, items)

    assert "must be contiguous" in _error(kernel, [types.int32[:], literal(2)])


def test_dtype_from_typed_assignments():
    import numpy as np

    def kernel(out, items_per_thread):
        items = coop.ThreadData(items_per_thread)
        for i in range(items_per_thread):
            items[i] = np.float32(i)
        for i in range(items_per_thread):
            out[cuda.threadIdx.x * items_per_thread + i] = items[i]

    ptx = _compile(kernel, [F32, literal(3)]).metadata["ptx"]
    assert ".local" not in ptx


def test_dtype_from_slices_and_shared_arrays():
    import numpy

    def from_slice(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(2)
        coop.load(block, src[4:], items)
        coop.store(block, dst, items)

    ptx = _compile(from_slice, [F32, F32]).metadata["ptx"]
    assert "ld.global.f32" in ptx and "st.global.f32" in ptx

    def from_shared(dst):
        block = coop.this_block()
        tile = cuda.shared.array(256, numpy.float64)
        tile[cuda.threadIdx.x] = cuda.threadIdx.x
        tile[cuda.threadIdx.x + 128] = 0
        cuda.syncthreads()
        items = coop.ThreadData(2)
        coop.load(block, tile, items, algorithm="striped")
        for i in range(2):
            dst[cuda.threadIdx.x * 2 + i] = items[i]

    ptx = _compile(from_shared, [types.float64[::1]]).metadata["ptx"]
    assert "ld.shared.f64" in ptx


def test_error_conflicting_typed_assignments():
    import numpy as np

    def kernel(items_per_thread):
        items = coop.ThreadData(items_per_thread)
        items[0] = np.float32(1)
        items[1] = types.int64(2)

    assert "have different types" in _error(kernel, [literal(2)])


def test_error_dtype_cannot_be_inferred():
    def kernel(items_per_thread):
        items = coop.ThreadData(items_per_thread)
        items[0] = 1

    assert "cannot infer the element type" in _error(kernel, [literal(2)])


def test_kernel_without_coop_calls_gives_identical_ptx():
    script = textwrap.dedent("""
        import numba_cuda_mlir.tools
        numba_cuda_mlir.tools._cached_cc = (9, 0)
        from numba_cuda_mlir import cuda, types

        def axpy(a, x, y):
            i = cuda.grid(1)
            if i < x.size:
                y[i] = a * x[i] + y[i]

        sig = (types.float32, types.float32[::1], types.float32[::1])
        before = cuda.compile_ptx(axpy, sig, cc=(9, 0))[0]
        import cuda.coop.numba_mlir as coop  # noqa: F401 -- a dotted alias keeps `cuda`
        after = cuda.compile_ptx(axpy, sig, cc=(9, 0))[0]
        print(before == after)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=300)
    assert result.stdout.strip() == "True", result.stderr[-3000:]


def test_faq_alias_import_keeps_the_cuda_name():
    script = textwrap.dedent("""
        from numba_cuda_mlir import cuda
        import cuda.coop.numba_mlir as coop
        from cuda.coop import _registration
        print(hasattr(cuda, "jit"), sorted(_registration.registered()))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=300)
    assert result.stdout.split() == ["True", "['numba-cuda-mlir']"], result.stderr[-3000:]


def _global_loads(ptx):
    return re.findall(r"\bld\.global(?:\.nc)?(?:\.v\d)?\.\w+", ptx)


RO_I32 = types.Array(types.int32, 1, "C", readonly=True)
RO_F32 = types.Array(types.float32, 1, "C", readonly=True)
RO_I8 = types.Array(types.int8, 1, "C", readonly=True)
CONSTANT_TABLE = np.arange(512, dtype=np.int32)


@pytest.mark.parametrize("algorithm", ["direct", "striped", "transpose", "warp_transpose"])
def test_read_only_kernel_argument_loads_through_the_non_coherent_cache(algorithm):
    """A read-only array argument (global memory the kernel cannot write) is read by
    ld.global.nc, as CUB's LOAD_LDG; a writable one by plain loads."""
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src[32:], items, algorithm=algorithm)
        coop.store(block, dst, items, algorithm=algorithm)

    read_only = _global_loads(_compile(kernel, [RO_I32, I32]).metadata["ptx"])
    writable = _global_loads(_compile(kernel, [I32, I32]).metadata["ptx"])
    assert read_only and all(load.startswith("ld.global.nc.") for load in read_only), read_only
    assert writable and not any(".nc." in load for load in writable), writable


def test_read_only_vectorize_reads_whole_vectors_non_coherently():
    def kernel(src, dst, valid):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="vectorize")
        coop.store(block, dst, items, algorithm="vectorize")
        tail = coop.ThreadData(4)
        coop.load(block, src, tail, algorithm="vectorize", valid_items=valid,
                  oob_default=0.0)
        coop.store(block, dst, tail, algorithm="vectorize", valid_items=valid)

    ptx = _compile(kernel, [RO_F32, F32, types.int32]).metadata["ptx"]
    loads = _global_loads(ptx)
    # the aligned full tile: one 16-byte vector; its unaligned fallback and the
    # guarded partial tile: one item at a time, all through the read-only path
    assert "ld.global.nc.v4.b32" in loads, loads
    assert "ld.global.nc.b32" in loads and all(".nc." in load for load in loads), loads
    assert not nc.local_memory(nc.ptxas_report(ptx))


def test_loads_that_stay_coherent():
    """8-bit items (read as usual) and a captured global array (Numba's constant memory,
    read-only too) keep their loads."""
    def narrow(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, items)

    def constant(dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, CONSTANT_TABLE, items)
        coop.store(block, dst, items)

    narrow_ptx = _compile(narrow, [RO_I8, types.int8[::1]]).metadata["ptx"]
    assert not any(".nc." in load for load in _global_loads(narrow_ptx))
    constant_ptx = _compile(constant, [I32]).metadata["ptx"]
    assert "ld.const" in constant_ptx and ".nc." not in constant_ptx


def test_read_only_argument_through_an_inlined_device_helper():
    @cuda.jit(device=True, inline="always")
    def load_tile(group, src, items):
        coop.load(group, src, items)

    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(2)
        load_tile(block, src, items)
        coop.store(block, dst, items)

    loads = _global_loads(_compile(kernel, [RO_I32, I32]).metadata["ptx"])
    assert loads and all(load.startswith("ld.global.nc.") for load in loads), loads


F64 = types.float64[::1]
RO_F64 = types.Array(types.float64, 1, "C", readonly=True)


def _full_tile_copy(width, items_per_thread, algorithm="direct"):
    """A full-tile copy by the block (`width` None), the warp (32) or logical warps."""
    def kernel(src, dst):
        if width is None:
            group = coop.this_block()
        elif width == 32:
            group = coop.this_warp()
        else:
            group = coop.this_warp().group_by(width)
        items = coop.ThreadData(items_per_thread)
        coop.load(group, src, items, algorithm=algorithm)
        coop.store(group, dst, items, algorithm=algorithm)
    return kernel


@pytest.mark.parametrize("width, block", [
    (None, (128,)), (None, (32, 3)), (32, (64,)), (8, (64,)), (4, (64,))])
@pytest.mark.parametrize("algorithm", ["direct", "vectorize"])
def test_register_transpose_of_full_blocked_tiles(width, block, algorithm):
    """64 bytes a thread (8 float64): the aligned path reads each warp segment coalesced,
    4 rounds of one 16-byte vector a lane, and exchanges it into blocked order with 4 steps
    of idx shuffles (2 words an item, 2 items a vector); the store the reverse. Logical
    warps shuffle within their own lanes."""
    kernel = _full_tile_copy(width, 8, algorithm)
    ptx = _compile(kernel, [F64, F64], block).metadata["ptx"]
    assert len(re.findall(r"ld\.global\.v2\.[bfu]64", ptx)) == 4, ptx
    assert len(re.findall(r"st\.global\.v2\.[bfu]64", ptx)) == 4
    shuffles = re.findall(r"shfl\.sync\.idx\.b32\s+\S+, \S+, \S+, \S+, (\S+);", ptx)
    assert len(shuffles) == 2 * 4 * 2 * 2, shuffles
    # the whole warp's lanes, or the logical warp's (a register, shifted to its lanes)
    assert all((mask == "-1") == (width in (None, 32)) for mask in shuffles), shuffles
    assert not nc.local_memory(nc.ptxas_report(ptx))


@pytest.mark.parametrize("dtype, items_per_thread, block, shuffles", [
    (F32, 8, (128,), 2 * 2 * 4), (F64, 4, (128,), 2 * 2 * 4), (F32, 16, (128,), 2 * 4 * 4),
    (F32, 32, (128,), 2 * 8 * 4), (F64, 32, (64,), 2 * 16 * 4),
    (F32, 4, (128,), 0), (F32, 12, (128,), 0), (F64, 8, (48,), 0),
    (types.int16[::1], 32, (128,), 0)])
def test_register_transpose_only_where_it_applies(dtype, items_per_thread, block, shuffles):
    """From 32 bytes a thread, in 16-byte vectors, a power of two of them; not at 16 bytes
    (one vector a thread is already coalesced), 48 bytes (3 vectors), in a block that is
    not whole warps, or for 16-bit items."""
    kernel = _full_tile_copy(None, items_per_thread)
    ptx = _compile(kernel, [dtype, dtype], block).metadata["ptx"]
    assert ptx.count("shfl.sync.idx") == shuffles
    assert not nc.local_memory(nc.ptxas_report(ptx))


def test_register_transpose_reads_a_read_only_source_non_coherently():
    ptx = _compile(_full_tile_copy(None, 8), [RO_F64, F64]).metadata["ptx"]
    assert len(re.findall(r"ld\.global\.nc\.v2\.b64", ptx)) == 4
    assert ptx.count("shfl.sync.idx") == 2 * 4 * 2 * 2


def _shared_bytes(ptx):
    return sum(int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx))


def _block_barriers(ptx):
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx))


@pytest.mark.parametrize("algorithm, width", [("transpose", None), ("warp_transpose", None),
                                              ("warp_transpose_timesliced", None),
                                              ("transpose", 8)])
def test_one_item_transposes_are_direct(algorithm, width):
    """With one item a thread, blocked and (warp-)striped order are the same: a transpose
    needs no scratch and no barrier (CUB exchanges anyway). Two items exchange."""
    def kernel(src, dst, items_per_thread):
        group = coop.this_block() if width is None else coop.this_warp().group_by(width)
        items = coop.ThreadData(items_per_thread)
        coop.load(group, src, items, algorithm=algorithm)
        coop.store(group, dst, items, algorithm=algorithm)

    one = _compile(kernel, [I32, I32, literal(1)]).metadata["ptx"]
    two = _compile(kernel, [I32, I32, literal(2)]).metadata["ptx"]
    assert _shared_bytes(one) == 0 and _block_barriers(one) == 0
    assert "bar.warp.sync" not in one
    assert _shared_bytes(two) > 0


def test_one_item_transpose_with_temp_storage_keeps_its_exchange():
    def kernel(src, dst):
        scratch = coop.TempStorage()
        items = coop.ThreadData(1)
        coop.load(coop.this_block(), src, items, algorithm="transpose", temp_storage=scratch)
        coop.store(coop.this_block(), dst, items)

    ptx = _compile(kernel, [I32, I32]).metadata["ptx"]
    assert _shared_bytes(ptx) > 0 and _block_barriers(ptx) > 0
