"""Whole-kernel scratch planning in the Numba backend, compile-only: one
buffer per kernel, slices shared or exclusive as the spec says, reuse
barriers only where the passes' analysis needs them."""

import re

import numpy as np
import pytest

pytest.importorskip("numba_cuda_mlir")

import numba_compile as nc  # noqa: E402
from numba_cuda_mlir import cuda, types  # noqa: E402

from cuda import coop  # noqa: E402
from cuda.coop.numba_mlir import _kernel_plan, _numba  # noqa: E402

I32 = types.int32[::1]
F64 = types.float64[::1]


@pytest.fixture
def plans(monkeypatch):
    """The plans made while the test compiles."""
    made = []
    plan_kernel = _kernel_plan._plan_kernel

    def capture(*args):
        plan = plan_kernel(*args)
        made.append(plan)
        return plan

    monkeypatch.setattr(_kernel_plan, "_plan_kernel", capture)
    return made


def _compile(kernel, argtypes, block=(128,)):
    return nc.compile_for_launch(cuda.jit(kernel), argtypes, block).metadata


def _shared_bytes(ptx):
    return [int(n) for n in re.findall(r"\.shared \.align \d+ \.b8 \w+\[(\d+)\]", ptx)]


def _block_barriers(ptx):
    """Block barriers in the kernel."""
    kernel = ptx[ptx.index(".entry"):]
    kernel = kernel[:kernel.index("\n}\n")]
    return len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", kernel))


def test_transpose_load_then_store_share_one_slice_and_no_reuse_barrier(plans):
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="transpose")
        coop.store(block, dst, items, algorithm="transpose")

    metadata = _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.size == 128 * 4 * 4 and plan.offsets == {0: 0, 1: 0}
    assert plan.barriers == []
    assert _shared_bytes(metadata["ptx"]) == [2048]
    # Only the exchanges' own barriers, one each (CUB's idiom has a third).
    assert _block_barriers(metadata["ptx"]) == 2
    # The site functions are inlined and gone: the PTX is the kernel alone.
    assert ".func" not in metadata["ptx"]


def test_load_after_load_gets_a_block_barrier(plans):
    def kernel(src, dst):
        block = coop.this_block()
        first = coop.ThreadData(4)
        second = coop.ThreadData(4)
        coop.load(block, src, first, algorithm="transpose")
        coop.load(block, src, second, offset=512, algorithm="transpose")
        for i in range(4):
            dst[cuda.threadIdx.x * 4 + i] = first[i] + second[i]

    _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.offsets == {0: 0, 1: 0}
    assert plan.barriers == [(1, "before", "block")]


def test_the_kernels_own_barrier_orders_the_reuse(plans):
    def kernel(src, dst):
        block = coop.this_block()
        first = coop.ThreadData(4)
        second = coop.ThreadData(4)
        coop.load(block, src, first, algorithm="transpose")
        cuda.syncthreads()
        coop.load(block, src, second, offset=512, algorithm="transpose")
        for i in range(4):
            dst[cuda.threadIdx.x * 4 + i] = first[i] + second[i]

    _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.barriers == []


def test_loop_reuse_across_iterations(plans):
    def kernel(src, dst, tiles):
        block = coop.this_block()
        items = coop.ThreadData(4)
        for tile in range(tiles):
            coop.load(block, src, items, offset=tile * 512, algorithm="transpose")
            if tile % 2 == 0:
                coop.store(block, dst, items, offset=tile * 512, algorithm="transpose")

    _compile(kernel, [I32, I32, types.int32])
    (plan,) = plans
    # The next iteration's load may follow a load (odd tiles): it needs the
    # barrier; the store follows its matching load and needs none.
    assert plan.barriers == [(0, "before", "block")]


def test_shared_descriptor_with_auto_sync(plans):
    def kernel(src, dst):
        block = coop.this_block()
        scratch = coop.TempStorage(alignment=16, auto_sync=True)
        items = coop.ThreadData(4)
        for tile in range(2):
            offset = tile * 512
            coop.load(block, src, items, offset=offset, algorithm="transpose",
                      temp_storage=scratch)
            coop.store(block, dst, items, offset=offset, algorithm="transpose",
                       temp_storage=scratch)

    metadata = _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.offsets == {0: 0, 1: 0}
    # A barrier after each use: after the load is before the store.
    assert sorted(plan.barriers) == [(1, "after", "block"),
                                     (1, "before", "block")]
    assert _shared_bytes(metadata["ptx"]) == [2048]


def test_exclusive_descriptor_gives_each_call_its_slice(plans):
    def kernel(src, dst):
        block = coop.this_block()
        scratch = coop.TempStorage(sharing="exclusive")
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="transpose", temp_storage=scratch)
        coop.store(block, dst, items, algorithm="transpose", temp_storage=scratch)

    metadata = _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.offsets == {0: 0, 1: 2048} and plan.barriers == []
    assert _shared_bytes(metadata["ptx"]) == [4096]


def test_implicit_and_explicit_storage_get_separate_regions(plans):
    def kernel(src, dst):
        block = coop.this_block()
        scratch = coop.TempStorage()
        items = coop.ThreadData(2)
        coop.load(block, src, items, algorithm="transpose", temp_storage=scratch)
        coop.store(block, dst, items, algorithm="warp_transpose")

    _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.offsets == {0: 1024, 1: 0} and plan.size == 2048


def test_warp_exchanges_reuse_with_a_warp_barrier(plans):
    def kernel(src, dst):
        warp = coop.this_warp()
        items = coop.ThreadData(4)
        coop.load(warp, src, items, algorithm="transpose")
        coop.load(warp, src, items, offset=128, algorithm="transpose")
        coop.store(warp, dst, items, algorithm="direct")

    _compile(kernel, [I32, I32])
    (plan,) = plans
    assert plan.barriers == [(1, "before", "site")]


def test_past_48_kib_is_dynamic_shared_memory(plans):
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(8)
        coop.load(block, src, items, algorithm="transpose")
        coop.store(block, dst, items, algorithm="transpose")

    metadata = _compile(kernel, [F64, F64], block=(1024,))
    (plan,) = plans
    # 8192 float64 swizzled within the tile (CUB pads 256 more).
    assert plan.dynamic and plan.size == 8192 * 8
    assert metadata["required_dynamic_shared_memory"] == 8192 * 8
    # Numba's dynamic shared memory symbol, as its own dynamic shared arrays use.
    assert "__dynamic_shmem__" in metadata["ptx"] and not _shared_bytes(metadata["ptx"])


def _with_own_shared_array(floats):
    def kernel(src, dst):
        block = coop.this_block()
        mine = cuda.shared.array(floats, np.float64)
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="transpose")
        mine[cuda.threadIdx.x] = items[0]
        cuda.syncthreads()
        items[0] = mine[(cuda.threadIdx.x + 1) % floats]
        coop.store(block, dst, items, algorithm="transpose")

    return kernel


def test_error_own_static_shared_arrays_and_scratch_past_48_kib():
    """The kernel's 40 KiB array and the 16 KiB exchange would be 56 KiB of
    static shared memory; dynamic shared memory would overlap the array."""
    with pytest.raises(Exception) as info:
        _compile(_with_own_shared_array(5120), [F64, F64], block=(512,))
    assert ("cuda.coop's scratch for this kernel (16384 bytes) and the kernel's own static "
            "shared arrays (40960 bytes) exceed the 48 KiB") in str(info.value)


def test_own_static_shared_arrays_within_48_kib_keep_the_static_buffer(plans):
    metadata = _compile(_with_own_shared_array(1024), [F64, F64], block=(512,))
    assert "required_dynamic_shared_memory" not in metadata or \
        not metadata["required_dynamic_shared_memory"]
    assert sorted(_shared_bytes(metadata["ptx"])) == [1024 * 8, 512 * 4 * 8]


def test_kernels_without_scratch_are_not_planned(plans):
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items, algorithm="vectorize")
        coop.store(block, dst, items, algorithm="striped")

    metadata = _compile(kernel, [I32, I32])
    assert plans == [] and not _shared_bytes(metadata["ptx"])
    assert "__coop_scratch" not in metadata["ptx"]


def test_gpu_suite_kernels_compile_without_local_memory():
    import test_kernel_plan_gpu as gpu_suite

    for kernel, (argtypes, block) in gpu_suite.KERNELS.items():
        cres = nc.compile_for_launch(kernel, argtypes, block)
        report = nc.ptxas_report(cres.metadata["ptx"])
        assert not nc.local_memory(report), (kernel.py_func.__name__, report)


def test_functions_other_than_kernels_are_planned_for_repeated_calls():
    """A device function that still holds a site when Numba optimizes (not
    inlined first) may run again while its scratch is being read: its one
    load gets a reuse barrier before it."""
    from numba_cuda_mlir._mlir import ir
    from numba_cuda_mlir.lowering_utilities import context

    from cuda.coop._sites import Site
    from cuda.coop.numba_mlir._types import GroupType

    site = Site(op="load", group=GroupType("block"),
                operands=(("source", "memref<?xi32>"), ("payload", "memref<4xi32>")),
                attributes=(("algorithm", "transpose"),), element_type="i32",
                block_dims=(128, 1, 1), storage=None, filename="helper.py", line=3, col=0)
    name, declaration = site.declaration(site.data()[0])
    _kernel_plan._sites[name] = site
    text = f"""
    module {{
      gpu.module @m attributes {{numba_cuda_mlir.link_target}} {{
        {declaration}
        func.func @helper(%src: memref<?xi32>, %items: memref<4xi32>) {{
          func.call @{name}(%src, %items) {{coop.storage = ""}} : (memref<?xi32>, memref<4xi32>) -> ()
          return
        }}
      }}
    }}"""
    with context.get_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        _kernel_plan.plan_module(module, {})
        module.operation.verify()
        planned = str(module)
    helper = planned[planned.index("func.func @helper"):]
    assert helper.index("call @__coop_barrier_") < helper.index("call @__coop_load_")
    assert "__coop_unplanned_" not in planned
    assert "memref.global \"private\" @__coop_scratch_helper" in planned


@pytest.mark.parametrize("size,message", [
    (0, "needs dynamic shared memory, which the kernel also uses"),
    (16, "scratch in dynamic shared memory would overlap those arrays")],
    ids=("dynamic", "static"))
def test_error_dynamic_scratch_beside_shared_arrays(size, message):
    """Scratch past 48 KiB is dynamic shared memory: a kernel's own dynamic
    shared arrays would share it, its static ones would overlap it."""
    def kernel(src, dst):
        block = coop.this_block()
        mine = cuda.shared.array(size, np.float64)
        items = coop.ThreadData(8)
        coop.load(block, src, items, algorithm="transpose")
        mine[cuda.threadIdx.x % 16] = items[0]
        coop.store(block, dst, items, algorithm="transpose")

    with pytest.raises(Exception) as info:
        _compile(kernel, [F64, F64], block=(1024,))
    assert message in str(info.value)


def _copy_kernel(**options):
    def copy(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        coop.store(block, dst, items)

    return cuda.jit(**options)(copy)


def _lto(cres) -> bool:
    return cres.metadata["link_plan"].compile_new_inputs_as_ltoir


def test_coop_kernels_are_linked_as_whole_programs():
    """A coop kernel goes to nvJitLink as LTO-IR (whole-program code generation, the
    registers nvcc would give it), unless the user chose: an explicit lto either way and
    debug=True are kept; a kernel without coop calls keeps Numba's default."""
    def plain(src, dst):
        dst[cuda.threadIdx.x] = src[cuda.threadIdx.x]

    default = nc.compile_for_launch(_copy_kernel(), [I32, I32], (128,))
    assert _lto(default) and default.metadata["ltoir"]
    assert ".entry" in default.metadata["ptx"]  # nvJitLink's PTX of the LTO-IR
    assert not _lto(nc.compile_for_launch(_copy_kernel(lto=False), [I32, I32], (128,)))
    assert _lto(nc.compile_for_launch(_copy_kernel(lto=True), [I32, I32], (128,)))
    debug = nc.compile_for_launch(_copy_kernel(debug=True, opt=False), [I32, I32], (128,))
    assert not _lto(debug)
    assert not _lto(nc.compile_for_launch(cuda.jit(plain), [I32, I32], (128,)))


def _raking_sum_kernel(**options):
    def kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[cuda.threadIdx.x] = coop.sum(block, items, algorithm="raking")

    return cuda.jit(**options)(kernel)


def _bounds_of(ptx):
    return re.findall(r"\.(?:reqntid|maxntid) [\d, ]+", ptx)


def _bounds(cres):
    return _bounds_of(cres.metadata["ptx"])


def test_a_raking_kernel_requires_its_block():
    """A kernel with a raking site is compiled for exactly its launch's block and says so
    with `.reqntid` (every warp full: ptxas drops its divergence checks around the raking
    warp's shuffles), on both paths to the PTX: nvJitLink's link of the LTO-IR and
    relocatable PTX (lto=False). Debug and lineinfo kernels keep `.maxntid` (Numba-CUDA-
    MLIR's own translation of their debug info)."""
    def bounds(kernel, block):
        return _bounds(nc.compile_for_launch(kernel, [I32, I32], block))

    assert bounds(_raking_sum_kernel(), (128,)) == [".reqntid 128, 1, 1"]
    assert bounds(_raking_sum_kernel(), (32, 4)) == [".reqntid 32, 4, 1"]
    assert bounds(_raking_sum_kernel(lto=False), (96,)) == [".reqntid 96, 1, 1"]
    for options in ({"debug": True, "opt": False}, {"lineinfo": True}):
        assert bounds(_raking_sum_kernel(**options), (64,)) == [".maxntid 64, 1, 1"]


def test_a_raking_kernel_requires_its_block_from_sm_100_on(monkeypatch):
    """From sm_100 on Numba-CUDA-MLIR translates with MLIR's own translation, which writes
    `.reqntid` itself (and ptxas rejects `.maxntid` beside it)."""
    import numba_cuda_mlir.tools

    monkeypatch.setattr(numba_cuda_mlir.tools, "_cached_cc", (10, 0))
    ptx = nc.compile_for_launch(_raking_sum_kernel(), [I32, I32], (128,)).metadata["ptx"]
    assert ".target sm_100" in ptx and _bounds_of(ptx) == [".reqntid 128, 1, 1"]


def test_other_kernels_keep_launch_bounds():
    """Without a raking site a coop kernel has its block as launch bounds (`.maxntid`), as
    CUB's __launch_bounds__ (`.reqntid` would have ptxas predicate warp_reductions' fold by
    warp 0); a kernel without coop calls keeps its own."""
    def plain(src, dst):
        dst[cuda.threadIdx.x] = src[cuda.threadIdx.x]

    def reduce_kernel(src, dst):
        block = coop.this_block()
        items = coop.ThreadData(4)
        coop.load(block, src, items)
        dst[cuda.threadIdx.x] = coop.sum(block, items, algorithm="warp_reductions")

    def warp_sum(src, dst):
        items = coop.ThreadData(4)
        coop.load(coop.this_warp(), src, items)
        dst[cuda.threadIdx.x] = coop.sum(coop.this_warp(), items)

    for kernel in (_copy_kernel(), cuda.jit(reduce_kernel), cuda.jit(warp_sum)):
        assert _bounds(nc.compile_for_launch(kernel, [I32, I32], (128,))) == [
            ".maxntid 128, 1, 1"]
    bounded = cuda.jit(launch_bounds=(256,))(plain)
    assert _bounds(nc.compile_for_launch(bounded, [I32, I32], (128,))) == [
        ".maxntid 256, 1, 1"]


def test_a_translation_without_a_kernels_bounds_is_an_error():
    """The LLVM 7 IR must carry the three maxntid annotations the translation writes for
    `nvvm.maxntid`; another Numba-CUDA-MLIR that does not is named, not silently
    compiled without `.reqntid`."""
    text = 'define void @k() {\n  ret void\n}\n!0 = !{void ()* @k, !"kernel", i32 1}\n'
    with pytest.raises(RuntimeError, match="kernel k has 0 maxntid annotations, not 3"):
        _numba._require_blocks(text, ["k"])


def test_whole_program_link_gives_a_block_its_occupancy():
    """A loop of 1024-thread raking sums (numba_reduce_scan's loop row): relocatable PTX
    compiles it to 37 registers, one block an SM (CUB: 31); its LTO link to at most 32,
    two blocks an SM."""
    def kernel(src, dst, reps):
        block = coop.this_block()
        items = coop.ThreadData(4)
        base = np.int64(cuda.blockIdx.x) * 4096
        coop.load(block, src, items, offset=base, algorithm="striped")
        for _ in range(reps):
            total = coop.sum(block, items, broadcast=False, algorithm="raking")
            if cuda.threadIdx.x == 0:
                for i in range(4):
                    items[i] = np.int32((items[i] + total) & 255)
        coop.store(block, dst, items, offset=base, algorithm="striped")

    argtypes = [I32, I32, types.int32]
    cres = nc.compile_for_launch(cuda.jit(kernel), argtypes, (1024,), with_ptx=False)
    assert nc.cubin_registers(cres.metadata["cubin"]) <= 32
