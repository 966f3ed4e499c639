"""Compile cost of coop call sites, against NVRTC compiling the same CUB code.

Runs on the CPU (no GPU). For K = 1, 4, 16 call sites it times compiling a
Numba-CUDA-MLIR kernel to its cubin for one launch configuration, against the same
kernel without the coop calls, and reports the added milliseconds per call
site. In the same run it times NVRTC compiling the equivalent CUB C++ to
LTO-IR, the path the earlier cuda.coop took, one program per primitive.
The sites are of one family:

  tiles        loads and stores of mixed algorithms (cub::BlockLoad/BlockStore)
  collectives  block and warp reductions and scans of mixed algorithms
               (cub::BlockReduce/BlockScan/WarpReduce/WarpScan)
  sorting      block radix sorts and block and warp merge sorts
               (cub::BlockRadixSort/BlockMergeSort/WarpMergeSort)

    python benchmarks/compile_time.py [tiles|collectives|sorting]
    python benchmarks/compile_time.py [tiles|collectives|sorting] --phases
    python benchmarks/compile_time.py [tiles|collectives|sorting] --first
    python benchmarks/compile_time.py [tiles|collectives|sorting] --warm

--phases splits the time of 16 and 48 sites (no NVRTC) into Numba's MLIR
pipeline, its LLVM 7 code generation, the link to a cubin (nvJitLink), our
kernel plan, our site lowering (C API), and the rest (Numba's typing and
lowering, our typing and linking); the per-site cost of each phase is the
slope between the two.

--first measures, in fresh processes, what a user waits for before the first
kernel: importing numba-cuda-mlir, then cuda.coop's backend, then the first
compile of a kernel with one coop call site (the family's first) against
the first compile of the same kernel without it (median of FIRST_RUNS).

--warm measures cold and warm starts with the disk cache (`cache=True`), in
fresh processes: a program of WARM_KERNELS kernels, first with an empty cache
(compile and save), then again (load). Three programs: plain kernels with
Numba-CUDA-MLIR alone (its own cache), the same plain kernels with cuda.coop's
backend registered (our cache), and kernels with one coop call site each.

CUB headers: $CUB_INCLUDE, else /usr/local/cuda/include/cccl (CUDA toolkit).
"""

from __future__ import annotations

import glob
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "python"))

import numba_compile as nc  # noqa: E402  (sets the sm_90 compile-only mode)
from numba_cuda_mlir import cuda  # noqa: E402
from numba_cuda_mlir.numba_cuda.types import literal  # noqa: E402

import cuda.coop.numba_mlir as coop  # noqa: E402

ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
              "warp_transpose_timesliced")
SITES = (1, 4, 16)
REPEATS = 7
BLOCK = 128
IPT = 4


# The collectives family's sites, in turn: (coop statement, CUB statement).
# The items and the running `acc` carry each site's result to the next.
COLLECTIVE_SITES = (
    ("acc += coop.sum(block, items)",
     "{ using R = cub::BlockReduce<int, 128>; __shared__ R::TempStorage t; "
     "acc += R(t).Sum(items); }"),
    ("items = coop.exclusive_sum(block, items)",
     "{ using S = cub::BlockScan<int, 128>; __shared__ S::TempStorage t; "
     "S(t).ExclusiveSum(items, items); }"),
    ("acc += coop.reduce(block, items, 'max', algorithm='raking')",
     "{ using R = cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_RAKING>; "
     "__shared__ R::TempStorage t; acc += R(t).Reduce(items, larger); }"),
    ("items = coop.inclusive_scan(block, items, 'max', algorithm='warp_scans')",
     "{ using S = cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS>; "
     "__shared__ S::TempStorage t; S(t).InclusiveScan(items, items, larger); }"),
    ("acc += coop.sum(coop.this_warp(), items)",
     "{ using W = cub::WarpReduce<int>; __shared__ W::TempStorage t[4]; "
     "acc += W(t[threadIdx.x / 32]).Sum(cub::ThreadReduce(items, ::cuda::std::plus<>{})); }"),
    ("items = coop.exclusive_sum(coop.this_warp(), items)",
     "{ using W = cub::WarpScan<int>; __shared__ W::TempStorage t[4]; "
     "int total = cub::ThreadReduce(items, ::cuda::std::plus<>{}); "
     "W(t[threadIdx.x / 32]).ExclusiveSum(total, total); "
     "for (int i = 0; i < 4; ++i) { int x = items[i]; items[i] = total; total += x; } }"),
)


# The sorting family's sites, in turn, as COLLECTIVE_SITES.
SORTING_SITES = (
    ("items = coop.radix_sort_keys(block, items)",
     "{ using S = cub::BlockRadixSort<int, 128, 4>; __shared__ S::TempStorage t; "
     "S(t).Sort(items); }"),
    ("items = coop.merge_sort_keys(block, items)",
     "{ using S = cub::BlockMergeSort<int, 128, 4>; __shared__ S::TempStorage t; "
     "S(t).Sort(items, less); }"),
    ("items = coop.radix_sort_keys(block, items, descending=True)",
     "{ using S = cub::BlockRadixSort<int, 128, 4>; __shared__ S::TempStorage t; "
     "S(t).SortDescending(items); }"),
    ("items = coop.merge_sort_keys(coop.this_warp(), items)",
     "{ using W = cub::WarpMergeSort<int, 4, 32>; __shared__ W::TempStorage t[4]; "
     "W(t[threadIdx.x / 32]).Sort(items, less); }"),
)
FAMILY_SITES = {"collectives": COLLECTIVE_SITES, "sorting": SORTING_SITES}


def kernel_source(sites: int, with_coop: bool, family: str = "tiles",
                  group: bool = True) -> str:
    """`sites` call sites of `family`, cycling through its operations and
    algorithms; without coop, the same kernel with the calls left out.
    `group=False` also leaves out the block group (a kernel that never names
    cuda.coop)."""
    lines = ["def kernel(src, dst, items_per_thread):",
             *(["    block = coop.this_block()"] if group else []),
             "    items = cuda.local.array(items_per_thread, dtype=src.dtype)",
             "    base = cuda.blockIdx.x * 128 * items_per_thread",
             "    items[0] = src[base]",
             "    acc = items[0]"]
    for site in range(sites if with_coop else 0):
        if family in FAMILY_SITES:
            family_sites = FAMILY_SITES[family]
            lines.append(f"    {family_sites[site % len(family_sites)][0]}")
            continue
        algorithm = ALGORITHMS[(site // 2) % len(ALGORITHMS)]
        op = "load(block, src, items" if site % 2 == 0 else "store(block, dst, items"
        lines.append(f"    coop.{op}, algorithm='{algorithm}', offset=base)")
    lines.append("    dst[base] = acc + items[0]")
    return "\n".join(lines) + "\n"


def time_numba(sites: int, with_coop: bool, family: str = "tiles", repeats: int | None = None) -> float:
    """Fastest of `repeats` (REPEATS) compiles of a fresh kernel to its cubin, in
    seconds (the minimum: compile times only get noise added on a shared
    machine)."""
    from cuda.coop.numba_mlir import _passes

    samples = []
    for _ in range(repeats or REPEATS):
        _passes._lower_site.cache_clear()  # cold: every site built and lowered anew
        _passes._describe_site.cache_clear()
        namespace = {"coop": coop, "cuda": cuda}
        exec(kernel_source(sites, with_coop, family), namespace)
        kernel = cuda.jit(namespace["kernel"])
        start = time.perf_counter()
        cres = nc.compile_for_launch(kernel, [nc.ARRAY, nc.ARRAY, literal(IPT)], (BLOCK,),
                                     with_ptx=False)
        assert cres.metadata["cubin"]
        samples.append(time.perf_counter() - start)
    return min(samples)


CUB_ALGORITHMS = {
    "direct": "DIRECT", "striped": "STRIPED", "vectorize": "VECTORIZE",
    "transpose": "TRANSPOSE", "warp_transpose": "WARP_TRANSPOSE",
    "warp_transpose_timesliced": "WARP_TRANSPOSE_TIMESLICED",
}


def cub_source(sites: int, family: str = "tiles") -> str:
    if family == "sorting":
        body = [SORTING_SITES[site % len(SORTING_SITES)][1] for site in range(sites)]
        return ("#include <cub/block/block_radix_sort.cuh>\n"
                "#include <cub/block/block_merge_sort.cuh>\n"
                "#include <cub/warp/warp_merge_sort.cuh>\n"
                "extern \"C\" __global__ void kernel(const int* src, int* dst) {\n"
                "  auto less = [](int a, int b) { return a < b; };\n"
                "  int items[4]; long base = (long)blockIdx.x * 512;\n"
                "  for (int i = 0; i < 4; ++i) items[i] = src[base + i];\n"
                "  int acc = items[0];\n" + "\n".join(body) +
                "\n  dst[base] = acc + items[0];\n}\n")
    if family == "collectives":
        body = [COLLECTIVE_SITES[site % len(COLLECTIVE_SITES)][1] for site in range(sites)]
        return ("#include <cub/block/block_reduce.cuh>\n#include <cub/block/block_scan.cuh>\n"
                "#include <cub/warp/warp_reduce.cuh>\n#include <cub/warp/warp_scan.cuh>\n"
                "extern \"C\" __global__ void kernel(const int* src, int* dst) {\n"
                "  auto larger = [](int a, int b) { return a < b ? b : a; };\n"
                "  int items[4]; long base = (long)blockIdx.x * 512;\n"
                "  for (int i = 0; i < 4; ++i) items[i] = src[base + i];\n"
                "  int acc = items[0];\n" + "\n".join(body) +
                "\n  dst[base] = acc + items[0];\n}\n")
    body = []
    for site in range(sites):
        algorithm = CUB_ALGORITHMS[ALGORITHMS[(site // 2) % len(ALGORITHMS)]]
        if site % 2 == 0:
            body.append(f"  {{ using L = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_{algorithm}>;"
                        f" __shared__ typename L::TempStorage t{site}; L(t{site}).Load(src + base, items); }}")
        else:
            body.append(f"  {{ using S = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_{algorithm}>;"
                        f" __shared__ typename S::TempStorage t{site}; S(t{site}).Store(dst + base, items); }}")
    return ("#include <cub/block/block_load.cuh>\n#include <cub/block/block_store.cuh>\n"
            "extern \"C\" __global__ void kernel(const int* src, int* dst) {\n"
            "  int items[4]; long base = (long)blockIdx.x * 512;\n" + "\n".join(body) + "\n}\n")


def cub_include() -> str | None:
    for candidate in (os.environ.get("CUB_INCLUDE"), "/usr/local/cuda/include/cccl",
                      *sorted(glob.glob("/usr/local/cuda-*/include/cccl"))):
        if candidate and Path(candidate, "cub", "block", "block_load.cuh").exists():
            return candidate
    return None


def time_nvrtc(sites: int, include: str, family: str = "tiles") -> float:
    from cuda.bindings import nvrtc

    cuda_include = str(Path(include).parent)
    samples = []
    for _ in range(max(2, REPEATS // 2)):
        start = time.perf_counter()
        err, program = nvrtc.nvrtcCreateProgram(cub_source(sites, family).encode(), b"k.cu",
                                                0, [], [])
        options = [b"-arch=sm_90", b"-dlto", b"-std=c++17", f"-I{include}".encode(),
                   f"-I{cuda_include}".encode()]
        (err,) = nvrtc.nvrtcCompileProgram(program, len(options), options)
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            _, size = nvrtc.nvrtcGetProgramLogSize(program)
            log = b" " * size
            nvrtc.nvrtcGetProgramLog(program, log)
            raise RuntimeError(log.decode(errors="replace")[-3000:])
        err, size = nvrtc.nvrtcGetLTOIRSize(program)
        assert size > 0
        samples.append(time.perf_counter() - start)
        nvrtc.nvrtcDestroyProgram(program)
    return statistics.median(samples)


PHASE_SITES = (16, 48)


def time_phases(family: str) -> None:
    """The per-site slope of each compile phase between PHASE_SITES sites
    (fastest of REPEATS compiles each)."""
    import collections

    from numba_cuda_mlir import mlir_optimization
    from numba_cuda_mlir.numba_cuda.cudadrv import driver

    from cuda.coop.numba_mlir import _kernel_plan, _passes

    spent = collections.defaultdict(float)
    nested = [0.0]  # time of the timed calls inside the current one

    def timed(owner, name: str, phase: str) -> None:
        """Times calls of owner.name as `phase`, less the timed calls they make."""
        function = getattr(owner, name)

        def wrapper(*args, **kwargs):
            nested.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                spent[phase] += elapsed - nested.pop()
                nested[-1] += elapsed

        wrapper.__wrapped__ = function
        if hasattr(function, "cache_clear"):
            wrapper.cache_clear = function.cache_clear
        setattr(owner, name, wrapper)

    # Numba's optimize, which our kernel plan wraps: its own time is the
    # MLIR pipeline.
    timed(mlir_optimization, "optimize", "Numba MLIR pipeline")
    timed(mlir_optimization, "_call_llvm70_capi", "LLVM 7 codegen")
    timed(_kernel_plan, "plan_module", "coop kernel plan")
    timed(_passes, "_describe_site", "coop site lowering")
    timed(_passes, "_lower_site", "coop site lowering")
    for linker in (c for c in vars(driver).values() if isinstance(c, type) and hasattr(c, "complete")):
        timed(linker, "complete", "link to cubin")
    phases = ("Numba MLIR pipeline", "LLVM 7 codegen", "link to cubin", "coop kernel plan",
              "coop site lowering", "rest")
    time_numba(1, True, family)
    rows = {}
    for sites in PHASE_SITES:
        best = None
        for _ in range(REPEATS):
            spent.clear()
            total = time_numba(sites, True, family, repeats=1)
            if best is None or total < best[0]:
                best = (total, dict(spent))
        total, parts = best
        parts["rest"] = total - sum(parts.values())
        rows[sites] = (total, parts)
    low, high = PHASE_SITES
    span = high - low
    print(f"{family}: compile phases, block {BLOCK}, items_per_thread {IPT}, int32; "
          f"fastest of {REPEATS}")
    print(f"{'phase':22} {f'{low} sites ms':>13} {f'{high} sites ms':>13} {'ms/site':>8}")
    for phase in phases + ("total",):
        a = rows[low][1].get(phase, 0.0) if phase != "total" else rows[low][0]
        b = rows[high][1].get(phase, 0.0) if phase != "total" else rows[high][0]
        print(f"{phase:22} {a * 1e3:13.1f} {b * 1e3:13.1f} {(b - a) * 1e3 / span:8.2f}")


FIRST_RUNS = 5

# Runs in a fresh process (argv: kernel source, block, items_per_thread) and
# prints the seconds of its three steps; cuda.coop is imported only when the
# source calls it, and nothing else of ours is.
_FIRST_CHILD = """
import sys, time
source, block, items_per_thread = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
import numba_compile as nc
from numba_cuda_mlir import cuda
from numba_cuda_mlir.numba_cuda.types import literal
numba_ready = time.perf_counter()
coop = None
if "coop." in source:
    import cuda.coop.numba_mlir as coop
coop_ready = time.perf_counter()
namespace = {"coop": coop, "cuda": cuda}
exec(source, namespace)
kernel = cuda.jit(namespace["kernel"])
compile_start = time.perf_counter()
nc.compile_for_launch(kernel, [nc.ARRAY, nc.ARRAY, literal(items_per_thread)], (block,))
done = time.perf_counter()
print(numba_ready - start, coop_ready - numba_ready, done - compile_start)
"""


def time_first(family: str) -> None:
    """Import and first-compile latency, each run in a fresh process."""
    import subprocess

    # The child imports numba_compile (test/python/), which pretends sm_90.
    path = os.pathsep.join(filter(None, [str(HERE.parent / "test" / "python"),
                                         os.environ.get("PYTHONPATH")]))

    def run(sites: int) -> list[float]:
        source = kernel_source(sites, sites > 0, family, group=sites > 0)
        samples = []
        for _ in range(FIRST_RUNS):
            done = subprocess.run([sys.executable, "-c", _FIRST_CHILD, source, str(BLOCK), str(IPT)],
                                  capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": path})
            if done.returncode != 0:
                raise SystemExit(done.stderr[-3000:])
            samples.append([float(x) for x in done.stdout.split()[-3:]])
        return [statistics.median(column) for column in zip(*samples)]

    plain, with_coop = run(0), run(1)
    print(f"{family}: first kernel after import, block {BLOCK}, items_per_thread {IPT}, int32; "
          f"fresh processes, median of {FIRST_RUNS}")
    rows = [("import numba_cuda_mlir", with_coop[0]),
            ("first kernel compile without cuda.coop", plain[2]),
            ("import cuda.coop.numba_mlir", with_coop[1]),
            ("first kernel compile with one coop call", with_coop[2]),
            ("first coop kernel after import, added", with_coop[1] + with_coop[2] - plain[2])]
    print(f"{'step':44} {'ms':>8}")
    for step, seconds in rows:
        print(f"{step:44} {seconds * 1e3:8.0f}")


WARM_KERNELS = 10

# Runs in a fresh process (argv: module directory, module name, import coop?)
# and prints the seconds of importing numba-cuda-mlir, importing cuda.coop's
# backend, then compiling (or loading) each kernel of the module, and the
# disk cache hits.
_WARM_CHILD = """
import importlib, sys, time
directory, name, with_coop = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
start = time.perf_counter()
import numba_compile as nc
from numba_cuda_mlir import cuda
from numba_cuda_mlir.numba_cuda.types import literal
numba_ready = time.perf_counter()
if with_coop:
    import cuda.coop.numba_mlir
coop_ready = time.perf_counter()
sys.path.insert(0, directory)
module = importlib.import_module(name)
times, hits = [], 0
for kernel in module.KERNELS:
    begin = time.perf_counter()
    if module.LAUNCH:  # coop kernels compile for their launch
        nc.compile_for_launch(kernel, [nc.ARRAY, nc.ARRAY, literal(4)], (128,), with_ptx=False)
    else:  # as plain kernels do without the backend: no launch specialization
        kernel.compile((nc.ARRAY, nc.ARRAY, literal(4)))
    times.append(time.perf_counter() - begin)
    hits += sum(kernel.stats.cache_hits.values())
print(numba_ready - start, coop_ready - numba_ready, hits, *times)
"""


def warm_module(directory: Path, name: str, family: str, with_coop: bool) -> None:
    """A module of WARM_KERNELS distinct kernels (cache=True), with one coop
    call site each or none."""
    lines = ["from numba_cuda_mlir import cuda",
             *(["import cuda.coop.numba_mlir as coop"] if with_coop else []), ""]
    for k in range(WARM_KERNELS):
        source = kernel_source(1, with_coop, family, group=with_coop)
        source = source.replace("def kernel(", f"def kernel_{k}(")
        source = source.replace("acc + items[0]", f"acc + items[0] + {k}")
        lines += ["@cuda.jit(cache=True)", source]
    lines.append(f"KERNELS = [{', '.join(f'kernel_{k}' for k in range(WARM_KERNELS))}]")
    lines.append(f"LAUNCH = {with_coop}")
    (directory / f"{name}.py").write_text("\n".join(lines) + "\n")


def time_warm(family: str) -> None:
    """Cold and warm starts of three programs, each run in a fresh process."""
    import shutil
    import subprocess
    import tempfile

    path = os.pathsep.join(filter(None, [str(HERE.parent / "test" / "python"),
                                         os.environ.get("PYTHONPATH")]))
    programs = (("plain kernels, Numba-CUDA-MLIR alone", "plain_alone", False, False),
                ("plain kernels, backend registered", "plain_coop", False, True),
                ("one coop call site each", "coop_sites", True, True))

    def run(directory: Path, name: str, import_coop: bool) -> list[float]:
        done = subprocess.run([sys.executable, "-c", _WARM_CHILD, str(directory), name,
                               "1" if import_coop else "0"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": path,
                                   "NUMBA_CACHE_DIR": str(directory / "cache")})
        if done.returncode != 0:
            raise SystemExit(done.stderr[-3000:])
        return [float(x) for x in done.stdout.split()[-(3 + WARM_KERNELS):]]

    print(f"{family}: {WARM_KERNELS} kernels with cache=True, block {BLOCK}, items_per_thread "
          f"{IPT}, int32; fresh processes, median of {FIRST_RUNS}; first kernel includes "
          f"Numba-CUDA-MLIR's context initialization")
    print(f"{'program':38} {'start':>5} {'import coop':>11} {'first kernel':>12} "
          f"{'each further':>12} {'all ready':>9} {'hits':>4}  (ms)")
    for title, name, with_coop, import_coop in programs:
        for start in ("cold", "warm"):
            samples = []
            for _ in range(FIRST_RUNS):
                directory = Path(tempfile.mkdtemp(prefix="coop-warm-"))
                try:
                    warm_module(directory, name, family, with_coop)
                    if start == "warm":
                        run(directory, name, import_coop)
                    samples.append(run(directory, name, import_coop))
                finally:
                    shutil.rmtree(directory)
            median = [statistics.median(column) for column in zip(*samples)]
            imports, coop_import, hits, times = median[0], median[1], median[2], median[3:]
            further = statistics.median(times[1:])
            print(f"{title:38} {start:>5} {coop_import * 1e3:11.0f} {times[0] * 1e3:12.0f} "
                  f"{further * 1e3:12.1f} {(imports + coop_import + sum(times)) * 1e3:9.0f} "
                  f"{hits:4.0f}")


def main() -> None:
    family = sys.argv[1] if len(sys.argv) > 1 else "tiles"
    if family not in ("tiles", "collectives", "sorting"):
        raise SystemExit(f"unknown family {family!r}: use tiles, collectives or sorting")
    if "--phases" in sys.argv[2:]:
        time_phases(family)
        return
    if "--first" in sys.argv[2:]:
        time_first(family)
        return
    if "--warm" in sys.argv[2:]:
        time_warm(family)
        return
    time_numba(1, True, family)  # warm up: imports, first compiles of both variants
    time_numba(0, False)
    include = cub_include()
    print(f"{family}: kernel compile to cubin, block {BLOCK}, items_per_thread {IPT}, int32; "
          f"fastest of {REPEATS} (NVRTC: median of {max(2, REPEATS // 2)})")
    plain = time_numba(0, False) * 1e3
    one_primitive = time_nvrtc(1, include, family) * 1e3 if include else None
    if one_primitive:
        print(f"NVRTC + CUB, one program per primitive (the earlier cuda.coop): "
              f"{one_primitive:.1f} ms per primitive")
    print(f"{'call sites':>10} {'coop ms':>8} {'added ms/site':>13} {'NVRTC+CUB ms':>12} "
          f"{'NVRTC ms/site':>13} {'per primitive: NVRTC/coop':>25}")
    for sites in SITES:
        with_coop = time_numba(sites, True, family) * 1e3
        plain = min(plain, time_numba(0, False) * 1e3)
        added = (with_coop - plain) / sites
        if include:
            nvrtc_ms = time_nvrtc(sites, include, family) * 1e3
            nvrtc_text = (f"{nvrtc_ms:12.1f} {nvrtc_ms / sites:13.1f} "
                          f"{one_primitive / added:24.0f}x")
        else:
            nvrtc_text = "  (no CUB headers: set CUB_INCLUDE)"
        print(f"{sites:10d} {with_coop:8.1f} {added:13.2f} {nvrtc_text}")
    print(f"without coop calls: {plain:.1f} ms (fastest, re-measured beside each row)")


if __name__ == "__main__":
    main()
