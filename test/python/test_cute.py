"""cuda.coop in CuTe DSL kernels, compiled without a GPU (CUTE_DSL_ARCH=sm_90a):
every case of `cute_cases.py` compiles to a cubin with its coop calls inlined,
and calls CuTe kernels cannot make raise a CoopCompileError that says why."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
cutlass = pytest.importorskip("cutlass")
cute = pytest.importorskip("cutlass.cute")

import cute_cases  # noqa: E402
from cutlass.cute.runtime import make_fake_compact_tensor  # noqa: E402

from cuda import coop  # noqa: E402
import cuda.coop.cute as coop_cute  # noqa: E402
from cuda.coop import _compiler  # noqa: E402
from cuda.coop._errors import CoopCompileError  # noqa: E402
from cuda.coop._sites import Site  # noqa: E402

coop.register("cute")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    directory = tmp_path_factory.mktemp("cute")
    cute_cases.build(directory)
    return directory


@pytest.mark.parametrize("name", sorted(cute_cases.cases()))
def test_case_compiles_inlined(name, built):
    ptx = next((built / name).glob("*.ptx")).read_text()
    assert next((built / name).glob("*.cubin")).stat().st_size > 0
    if name == cute_cases.STATED_BLOCK_CASE:
        assert ".reqntid" not in ptx and "trap;" in ptx  # the runtime block's check
    else:
        assert f".reqntid {cute_cases.THREADS}, 1, 1" in ptx
    # The sites are linked and inlined: no calls, and each site's scratch is
    # a static shared buffer of the kernel.
    assert not re.search(r"^\s*call", ptx, re.M)
    assert ".extern" not in ptx
    # Payloads stay in registers: a register tensor passed by its generic
    # address (not cute.ffi's conversion, which made stores go astray
    # through local memory).
    assert ".local" not in ptx


def _ptx(built, name):
    return next((built / name).glob("*.ptx")).read_text()


def test_direct_copy_has_no_barrier_and_no_scratch(built):
    ptx = _ptx(built, "load_direct")
    assert "bar.sync" not in ptx and ".shared" not in ptx


def test_block_sum_uses_redux_and_one_scratch_buffer(built):
    ptx = _ptx(built, "sum_block_i32")
    assert "redux.sync.add" in ptx
    assert re.findall(r"\.shared \.align \d+ \.b8 (\w+)", ptx) == ["__coop_scratch_block"]
    # Only the barrier between the warps' partials and their sum: the first
    # use of the kernel's scratch needs no leading barrier.
    assert ptx.count("bar.sync") == 1


def test_a_second_result_comes_back_through_registers(built):
    # The scalar scan's aggregate: written through a pointer to a one-item
    # register tensor, which inlining leaves in a register.
    ptx = _ptx(built, "inclusive_sum_scalar_aggregate")
    assert ".local" not in ptx and "st.local" not in ptx


def _kernel_ptx(kernel, dtype=None, size=512):
    """The PTX of the one-tensor @cute.kernel `kernel` on `size` items of
    `dtype` (Int32), launched with one block of 128 threads."""
    import tempfile

    @cute.jit
    def host(m: cute.Tensor):
        kernel(m).launch(grid=(1, 1, 1), block=(128, 1, 1))

    with tempfile.TemporaryDirectory() as folder:
        cute.compile(host, make_fake_compact_tensor(dtype or cutlass.Int32, (size,)),
                     options=f"--gpu-arch sm_90a --keep-ptx --dump-dir={folder}")
        return next(Path(folder).glob("*.ptx")).read_text()


def _barriers_of(kernel):
    return _kernel_ptx(kernel).count("bar.sync")


def test_only_a_first_use_outside_any_region_drops_its_leading_barrier():
    @cute.kernel
    def twice(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items)
        g[0] = coop.sum(coop.this_block(), items) + coop.reduce(coop.this_block(), items, "max")
    # The first sum: its partials' barrier; the second: a leading one too.
    assert _barriers_of(twice) == 3

    @cute.kernel
    def in_a_branch(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items)
        tidx, _, _ = cute.arch.thread_idx()
        if tidx < 1000:
            g[tidx] = coop.sum(coop.this_block(), items)
    # Inside a region (a branch here, a loop in general) it may run again.
    assert _barriers_of(in_a_branch) == 2


def test_offset_moves_the_tile_start():
    @cute.kernel
    def kernel(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items, offset=512)
        coop.store(coop.this_block(), g, items)

    ptx = _kernel_ptx(kernel, size=1024)
    # Thread t loads items 512 + 4t.. and stores items 4t..: 2048 bytes apart.
    load = re.search(r"ld\.global\.b32\s+%r\d+, \[(%rd\d+)\+2048\];", ptx)
    assert load and re.search(rf"st\.global\.b32\s+\[{re.escape(load.group(1))}\], ", ptx)


@pytest.mark.parametrize("dtype", ("Float16", "BFloat16", "Int8", "Uint16", "Int64", "Float64"))
def test_items_of_every_width_sort_and_scan_in_registers(dtype):
    item = getattr(cutlass, dtype)

    @cute.kernel
    def kernel(g: cute.Tensor):
        block = coop.this_block()
        items = coop.ThreadData(4, item)
        coop.load(block, g, items, algorithm="transpose")
        keys = coop.radix_sort_keys(block, items)
        coop.store(block, g, coop.inclusive_scan(block, keys, "max"))

    ptx = _kernel_ptx(kernel, item)
    assert ".local" not in ptx and not re.search(r"^\s*call", ptx, re.M)


def test_a_verifier_error_names_the_kernel_s_line():
    def body(g):
        items = coop.ThreadData(600, cutlass.Int8)
        coop.radix_sort_keys(coop.this_block(), items)
    _raises(r"test_cute\.py:\d+:0: error: 'coop\.radix_sort' op ranks a tile of 76800 keys "
            r"\(128 threads x 600\); CUB's 16-bit digit counters allow at most 65,535",
            body, cutlass.Int8)


def test_unsigned_max_compares_unsigned(built):
    assert re.search(r"max\.u32|redux\.sync\.max\.u32", _ptx(built, "max_block_u32"))


def _compile(kernel_body, dtype=None):
    """Compiles a one-tensor kernel whose body is `kernel_body(tensor)`."""
    @cute.kernel
    def kernel(g: cute.Tensor):
        kernel_body(g)

    _kernel_ptx(kernel, dtype)


def _coop_error(raised):
    """The CoopCompileError CuTe's error was caused by."""
    error = raised
    while not isinstance(error, CoopCompileError) and (error.__cause__ or error.__context__):
        error = error.__cause__ or error.__context__
    assert isinstance(error, CoopCompileError), repr(raised)
    return error


def _raises(match, body, dtype=None, kernel=None):
    """`body`'s CoopCompileError matches `match` and names the call's line;
    `kernel`: a whole @cute.kernel instead (one whose control flow CuTe
    stages)."""
    with pytest.raises(Exception) as caught:
        if kernel is None:
            _compile(body, dtype)
        else:
            _kernel_ptx(kernel, dtype)
    error = _coop_error(caught.value)
    assert re.search(match, str(error)), str(error)
    assert "test_cute.py" in str(error)  # the call's own line


def test_every_operation_of_the_common_api_is_available():
    from cuda.coop._operations import OPERATIONS
    from cuda.coop.cute import SUPPORTED

    assert sorted(SUPPORTED) == sorted(op.name for op in OPERATIONS.values())


def test_a_radix_rank_digit_past_8_bits_is_an_error():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.radix_rank_keys(coop.this_block(), items, begin_bit=0, end_bit=9)
    _raises(r"ranks by a digit of 1 to 8 bits", body)


def test_temp_storage_objects_are_not_available():
    def body(g):
        coop.TempStorage()
    _raises(r"coop\.TempStorage is not available in CuTe kernels yet; they support load, "
            r"store", body)


def test_a_comparison_function_is_refused_with_the_reason():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.merge_sort_keys(coop.this_block(), items, compare_op=lambda a, b: a < b)
    _raises(r"compare_op would be a CuTe function, which our bitcode cannot call; sort by "
            r"the keys' own order", body)


def test_histogram_needs_bins():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.histogram(coop.this_block(), items, bins=0)
    _raises(r"needs bins=, the number of bins", body)


def test_decode_needs_its_window_size():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.run_length_decode(coop.this_block(), items, items, decoded_items_per_thread=0)
    _raises(r"needs decoded_items_per_thread=", body)


def test_topk_needs_k():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.topk_max_keys(coop.this_block(), items, k=None)
    _raises(r"needs k=, how many keys to select", body)


def test_load_into_a_scalar_is_an_error():
    def body(g):
        coop.load(coop.this_block(), g, cutlass.Int32(1))
    _raises(r"the payload must be a register tensor", body)


def test_temp_storage_is_refused_with_the_reason():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items, temp_storage=object())
    _raises(r"temp_storage is not supported in CuTe kernels: each call .* has a shared "
            r"buffer of its own", body)


def test_memory_of_another_item_type_is_an_error():
    def body(g):
        items = coop.ThreadData(4, cutlass.Float32)
        coop.load(coop.this_block(), g, items)
    _raises(r"the source holds Int32 but the payload holds Float32", body)


def test_an_unknown_operator_is_an_error():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.reduce(coop.this_block(), items, "average")
    _raises(r"binary_op must be one of 'sum'", body)


def test_thread_data_needs_a_cute_dtype():
    def body(g):
        coop.ThreadData(4)
    _raises(r"ThreadData in a CuTe kernel needs its dtype", body)


def test_a_stated_block_that_is_not_the_launch_s_is_an_error():
    from cuda.coop import ThreadGroup, ThreadHierarchy

    group = ThreadGroup("block", ThreadHierarchy._resolved(block_dim=(256, 1, 1)))

    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.sum(group, items)
    _raises(r"the group states a block of \(256, 1, 1\) threads but the kernel is launched "
            r"with \(128, 1, 1\)", body)


def _dynamic_block_ptx(kernel, threads=128):
    """The PTX of the one-tensor `kernel` launched with a runtime block."""
    import tempfile

    @cute.jit
    def host(m: cute.Tensor, n: cutlass.Int32):
        kernel(m).launch(grid=(1, 1, 1), block=(n, 1, 1))

    with tempfile.TemporaryDirectory() as folder:
        cute.compile(host, make_fake_compact_tensor(cutlass.Int32, (512,)), threads,
                     options=f"--gpu-arch sm_90a --keep-ptx --dump-dir={folder}")
        return next(Path(folder).glob("*.ptx")).read_text()


def test_a_runtime_launch_block_is_an_error_unless_stated():
    @cute.kernel
    def unstated(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items)
    with pytest.raises(Exception) as caught:
        _dynamic_block_ptx(unstated)
    assert "state it first with cuda.coop.cute.assume_block" in \
        str(caught.value) + repr(caught.value.__context__)


def test_a_stated_block_compiles_the_calls_and_traps_on_another_launch():
    @cute.kernel
    def stated(g: cute.Tensor):
        coop_cute.assume_block(128)
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items, algorithm="transpose")
        g[0] = coop.sum(coop.this_block(), items)
    ptx = _dynamic_block_ptx(stated)
    # The check reads the launch's block once and traps on any other.
    assert "%ntid.x" in ptx and "%ntid.y" in ptx and "%ntid.z" in ptx
    assert "trap;" in ptx
    # A 128-thread transpose: 512 items of scratch.
    assert re.findall(r"\.shared \.align \d+ \.b8 __coop_scratch_block\[(\d+)\]", ptx) == ["2048"]


def test_a_stated_block_of_a_constant_launch_costs_nothing_or_is_an_error():
    @cute.kernel
    def same(g: cute.Tensor):
        coop_cute.assume_block(128, 1, 1)
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items)
        g[0] = coop.sum(coop.this_block(), items)
    assert "trap;" not in _kernel_ptx(same)

    def other(g):
        coop_cute.assume_block(256)
    _raises(r"assume_block\(256, 1, 1\) but the kernel is launched with "
            r"block=\(128, 1, 1\)", other)


def test_assume_block_outside_a_kernel_or_of_no_threads_is_an_error():
    with pytest.raises(CoopCompileError, match="runs inside a @cute.kernel"):
        coop_cute.assume_block(128)

    def zero(g):
        coop_cute.assume_block(0)
    _raises(r"assume_block takes positive int extents", zero)


def test_launch_shared_memory_and_the_scratch_past_the_block_limit_is_an_error():
    """CuTe's dynamic shared memory (smem=) and our static buffer share the
    block's 232448 bytes on sm_90: a launch that leaves too little would fail
    with CUDA_ERROR_INVALID_VALUE; here it is an error at the call naming
    what is left."""
    import tempfile

    @cute.kernel
    def kernel(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items, algorithm="transpose")
        g[0] = coop.sum(coop.this_block(), items)

    def compile_with(smem):
        @cute.jit
        def host(m: cute.Tensor):
            kernel(m).launch(grid=(1, 1, 1), block=(128, 1, 1), smem=smem)

        with tempfile.TemporaryDirectory() as folder:
            cute.compile(host, make_fake_compact_tensor(cutlass.Int32, (512,)),
                         options=f"--gpu-arch sm_90a --keep-ptx --dump-dir={folder}")

    compile_with(232448 - 2048)  # the 2048-byte transpose's buffer fits exactly
    with pytest.raises(Exception) as caught:
        compile_with(232000)
    error = _coop_error(caught.value)
    assert re.search(r"test_cute\.py:\d+: coop\.load: the kernel's launch asks for "
                     r"smem=232000 bytes", str(error)), str(error)
    assert "launch with smem <= 230400" in str(error)


@pytest.mark.parametrize("scope", ("block", "warp"))
def test_warp_specialized_branches_take_warp_calls_only(scope):
    """A block call in a branch on the warp index waits at a block barrier
    for warps that never come: an error; a warp call there compiles."""
    group = coop.this_block if scope == "block" else coop.this_warp

    @cute.kernel
    def kernel(g: cute.Tensor):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.load(coop.this_block(), g, items)
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        if warp == 1:
            g[1] = coop.sum(group(), items)
    if scope == "warp":
        assert "redux.sync.add" in _kernel_ptx(kernel)
    else:
        _raises(r"coop.sum: a block call in a branch on the warp index .* the kernel hangs",
                None, kernel=kernel)


def test_a_non_group_first_argument_is_an_error():
    def body(g):
        items = coop.ThreadData(4, cutlass.Int32)
        coop.sum(128, items)
    _raises(r"the first argument is a group", body)


def test_scratch_past_static_shared_memory_is_an_error():
    def body(g):
        items = coop.ThreadData(64, cutlass.Int64)
        coop.exchange(coop.this_block(), items)
    with pytest.raises(Exception) as caught:
        _compile(body, cutlass.Int64)
    assert "exceeds 48 KiB of static shared memory" in str(caught.value) or \
        "exceeds 48 KiB of static shared memory" in repr(caught.value.__context__)


def test_outside_a_kernel_the_marker_still_raises():
    with pytest.raises(coop.CompilerMarkerError, match="inside a GPU kernel"):
        coop.sum(coop.this_block(), 1)


class _Block:
    mlir = "!coop.group<block>"


def test_bitcode_has_no_module_flags_and_nvvm_layout():
    site = Site(op="sum", group=_Block(), operands=(("value", "memref<4xi32>"),),
                attributes=(("binary_op", "sum"),), element_type="i32",
                block_dims=(128, 1, 1), storage=None, filename="k.py", line=3, col=0,
                result_types=("i32",))
    bitcode, size, alignment = _compiler.emit_site_bitcode(site.data(), 90)
    assert (size, alignment) == (0, 0)  # no shared buffer asked for: its own
    assert bitcode[:4] == b"BC\xc0\xde"
    assert b"Debug Info Version" not in bitcode
    assert b"nvptx64-nvidia-cuda" in bitcode
    assert site.data()[0].encode() in bitcode
    disassembler = _llvm_dis()
    if disassembler:
        text = subprocess.run([disassembler, "-o", "-"], input=bitcode, capture_output=True,
                              check=True).stdout.decode()
        assert 'target datalayout = "e-p:64:64:64-p3:32:32:32' in text
        assert f"define i32 @{site.data()[0]}(ptr %0)" in text
        assert "!llvm.module.flags" not in text
        assert f"@__coop_scratch_{site.data()[0]} = private addrspace(3) global [16 x i8]" \
            in text


def test_block_sites_declare_one_shared_buffer_the_host_defines():
    site = Site(op="sum", group=_Block(), operands=(("value", "memref<4xi32>"),),
                attributes=(("binary_op", "sum"),), element_type="i32",
                block_dims=(128, 1, 1), storage=None, filename="k.py", line=3, col=0,
                result_types=("i32",))
    bitcode, size, alignment = _compiler.emit_site_bitcode(site.data(), 90, "buffer")
    assert (size, alignment) == (16, 16)  # a slot a warp for 4 warps
    definition = _compiler.emit_scratch_bitcode("buffer", 640, 16)
    disassembler = _llvm_dis()
    if disassembler:
        def text(code):
            return subprocess.run([disassembler, "-o", "-"], input=code, capture_output=True,
                                  check=True).stdout.decode()
        assert "@buffer = external addrspace(3) global [16 x i8], align 16" in text(bitcode)
        assert "@buffer = addrspace(3) global [640 x i8] undef, align 16" in text(definition)
    with pytest.raises(_compiler.PipelineError, match="power-of-two alignment"):
        _compiler.emit_scratch_bitcode("buffer", 640, 3)


def test_a_kernel_s_block_sites_share_one_buffer(built):
    # One buffer as large as the largest site's scratch, as CUB's union of
    # temp storage: the scan with its aggregate (644 B) here, the transpose
    # store (2 KiB) below, not the sum of the sites'.
    ptx = _ptx(built, "exclusive_sum_aggregate")
    buffers = re.findall(r"\.shared \.align \d+ \.b8 (\w+)\[(\d+)\]", ptx)
    assert buffers == [("__coop_scratch_block", "644")]
    ptx = _ptx(built, "store_transpose")
    assert re.findall(r"\.shared \.align \d+ \.b8 (\w+)\[(\d+)\]", ptx) == \
        [("__coop_scratch_block", "2048")]


def _llvm_dis():
    """llvm-dis of the LLVM kit the build uses (xtc-llvm-dev), where installed."""
    import importlib.util

    spec = importlib.util.find_spec("llvm")
    for root in (spec.submodule_search_locations if spec else None) or ():
        candidate = os.path.join(root, "bin", "llvm-dis")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("llvm-dis")


def test_the_example_compiles(tmp_path):
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "cute",
                           "block_scan.py")
    result = subprocess.run([sys.executable, os.path.abspath(example)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "compiled for sm_90a" in result.stdout
    ptx = next(tmp_path.glob("*.ptx")).read_text()
    assert "redux.sync.add" in ptx and "shfl.sync.up" in ptx


def test_importing_the_backend_registers_it():
    assert "cute" in __import__("cuda.coop._registration", fromlist=["x"]).registered()
