"""Tile copy written as Numba-CUDA-MLIR kernels with cuda.coop, against CUB and
cudaMemcpy, in one run on the GPU (the product path: Python kernel -> our
passes -> Numba's pipeline).

  python benchmarks/numba_tile_copy.py DIR [ALGORITHM [GROUP [DTYPE [BLOCK [IPT]]]]]
                                                # on the GPU machine

The filters pick rows ("all" matches anything; GROUP is block, warp32 or warp8;
DTYPE int32 or f64), e.g. `DIR direct all f64` or `DIR all block int32 256 8`:
the references still run whole (seconds), ours only for the rows picked.

Block rows: every block algorithm for the configurations of the CUB reference
(benchmarks/reference/cub_loadstore.cu). Warp rows: the four warp algorithms,
physical warps (32) and logical warps of 8, against cub::WarpLoad/WarpStore
(benchmarks/reference/cub_warp_loadstore.cu). Both references are built with
nvcc -O3 -arch=sm_90 and run in this same command. Each coop kernel copies
~1 GiB with full tiles unguarded and the ragged last tile guarded, as the
reference does, and is checked (every 997th element and the last one). SASS
columns come from cuobjdump on both binaries (Numba's cubin for ours).

  --read-only   pass the source as a read-only array (gpu_timing.ReadOnly, no copy), the
                Numba form of the references' `const T* __restrict__` input: coop.load then
                reads it through ld.global.nc as nvcc reads the reference's
  --no-lto      build the coop kernels with cuda.jit(lto=False), Numba's default: nvJitLink
                compiles Numba's PTX as relocatable code; without it they are built as coop
                builds its kernels, with link-time code generation for the whole program
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tile_copy import ALGORITHMS, CONFIGS, N_INT32, REPS, sass_facts  # noqa: E402
from gpu_timing import RELOCATABLE, ReadOnly, add_lto_option, coop_jit  # noqa: E402

WARP_ALGORITHMS = ("direct", "striped", "vectorize", "transpose")
WARP_CONFIGS = ((128, 4, 32), (256, 8, 32), (128, 4, 8), (256, 8, 8))
DTYPES = {"int32": np.int32, "f64": np.float64}

BLOCK_SOURCE = """
def copy(src, dst, n, items_per_thread):
    group = coop.this_block()
    items = coop.ThreadData(items_per_thread)
    size = cuda.blockDim.x * items_per_thread
    tile = cuda.blockIdx.x * size
    if tile + size <= n:
        coop.load(group, src, items, offset=tile, algorithm="{algorithm}")
        coop.store(group, dst, items, offset=tile, algorithm="{algorithm}")
    else:
        coop.load(group, src, items, offset=tile, algorithm="{algorithm}",
                  valid_items=n - tile, oob_default=0)
        coop.store(group, dst, items, offset=tile, algorithm="{algorithm}",
                   valid_items=n - tile)
"""

# A warp tile starts at offset + (rank / width) * width * ipt (the lowering
# adds it); valid_items counts from there, per warp.
WARP_SOURCE = """
def copy(src, dst, n, items_per_thread):
    group = {group}
    items = coop.ThreadData(items_per_thread)
    tile = cuda.blockIdx.x * cuda.blockDim.x * items_per_thread
    size = {width} * items_per_thread
    start = tile + (cuda.threadIdx.x // {width}) * size
    if start + size <= n:
        coop.load(group, src, items, offset=tile, algorithm="{algorithm}")
        coop.store(group, dst, items, offset=tile, algorithm="{algorithm}")
    else:
        valid = max(n - start, 0)
        coop.load(group, src, items, offset=tile, algorithm="{algorithm}",
                  valid_items=valid, oob_default=0)
        coop.store(group, dst, items, offset=tile, algorithm="{algorithm}",
                   valid_items=valid)
"""


def _kernel(source: str, name: str, lto: bool | None = None):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop}
    exec(compile(source, name, "exec"), namespace)
    return coop_jit(cuda, namespace["copy"], lto)


def _reference(source: Path, directory: Path) -> tuple[dict, dict, str]:
    """Builds and runs a CUB reference: its GB/s per row and its SASS facts."""
    binary = directory / source.stem
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-std=c++17", "-o", str(binary), str(source)],
                   check=True)
    out = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        m = re.match(r"(\w+)\s+(int32|f64)\s+block=\s*(\d+) ipt=\s*(\d+)(?: width=\s*(\d+))?"
                     r"\s+([\d.]+) GB/s\s+(\w+)", line)
        if m:
            key = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)),
                   int(m.group(5)) if m.group(5) else None)
            rows[key] = (float(m.group(6)), m.group(7) == "ok")
    facts = {}
    for pretty, fact in sass_facts(binary, demangle=True).items():
        key = _cub_key(pretty)
        if key:
            facts[key] = fact
    return rows, facts, out


def _cub_key(pretty: str):
    """(algorithm, dtype, block, ipt, width) of a demangled CUB kernel name."""
    m = re.search(r"(warp_)?copy_kernel<(int|double),\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+),"
                  r"\s*(?:(?:\(int\))?(\d+),\s*)?(?:\([\w:]*LoadAlgorithm\)(\d)|[\w:]*_LOAD_(\w+?)"
                  r"\s*,)", pretty)
    if not m:
        return None
    dtype = "int32" if m.group(2) == "int" else "f64"
    warp = bool(m.group(1))
    names = WARP_ALGORITHMS if warp else ALGORITHMS
    algorithm = names[int(m.group(6))] if m.group(6) else m.group(7).lower()
    return (algorithm, dtype, int(m.group(3)), int(m.group(4)),
            int(m.group(5)) if warp else None)


def _selected(filters: list[str], algorithm: str, width, dtype: str, block: int,
              ipt: int) -> bool:
    group = "block" if width is None else f"warp{width}"
    values = (algorithm, group, dtype, str(block), str(ipt))
    return all(f == "all" or f == v for f, v in zip(filters, values))


def main(directory: Path, read_only: bool = False, filters: list[str] = (),
         lto: bool | None = None) -> None:
    from numba_cuda_mlir import cuda

    configs = [(algorithm, block, ipt, None) for block, ipt in CONFIGS
               for algorithm in ALGORITHMS]
    configs += [(algorithm, block, ipt, width) for block, ipt, width in WARP_CONFIGS
                for algorithm in WARP_ALGORITHMS]
    if not any(_selected(filters, algorithm, width, dtype, block, ipt)
               for algorithm, block, ipt, width in configs for dtype in DTYPES):
        raise SystemExit(f"no row matches the filters {' '.join(filters)} "
                         "(ALGORITHM GROUP DTYPE BLOCK IPT, each a value or 'all')")
    directory.mkdir(parents=True, exist_ok=True)
    cub, cub_sass, cub_out = _reference(HERE / "reference" / "cub_loadstore.cu", directory)
    warp_cub, warp_sass, _ = _reference(HERE / "reference" / "cub_warp_loadstore.cu", directory)
    cub.update(warp_cub)
    cub_sass.update(warp_sass)

    start, stop = cuda.event(), cuda.event()

    def timed(launch) -> float:
        launch()
        cuda.synchronize()
        start.record()
        for _ in range(REPS):
            launch()
        stop.record()
        stop.synchronize()
        return cuda.event_elapsed_time(start, stop)

    a = cuda.device_array(N_INT32, np.int32)
    b = cuda.device_array(N_INT32, np.int32)
    ms = timed(lambda: b.copy_to_device(a))
    memcpy = 2.0 * N_INT32 * 4 * REPS / (ms * 1e6)
    del a, b

    rows = []
    for dtype, np_dtype in DTYPES.items():
        n = N_INT32 if dtype == "int32" else N_INT32 // 2
        host = (np.arange(n) % 1000003).astype(np_dtype)
        src, dst = cuda.to_device(host), cuda.device_array(n, np_dtype)
        source_arg = ReadOnly(src) if read_only else src
        zeros = cuda.to_device(np.zeros(n, np_dtype))
        for algorithm, block, ipt, width in configs:
            if not _selected(filters, algorithm, width, dtype, block, ipt):
                continue
            if width is None:
                source = BLOCK_SOURCE.format(algorithm=algorithm)
            else:
                group = "coop.this_warp()" if width == 32 else \
                    f"coop.this_warp().group_by({width})"
                source = WARP_SOURCE.format(algorithm=algorithm, group=group, width=width)
            kernel = _kernel(source, f"<{algorithm} {width}>", lto)
            grid = -(-n // (block * ipt))
            dst.copy_to_device(zeros)
            kernel[grid, block](source_arg, dst, n, ipt)
            back = dst.copy_to_host()
            ok = bool(np.array_equal(back[::997], host[::997]) and back[-1] == host[-1])
            ms = timed(lambda: kernel[grid, block](source_arg, dst, n, ipt))
            gbs = 2.0 * n * np.dtype(np_dtype).itemsize * REPS / (ms * 1e6)
            overload = list(kernel._launch_config_overloads.values())[-1]
            cubin = directory / f"coop_{dtype}_{algorithm}_{block}_{ipt}_{width}.cubin"
            cubin.write_bytes(overload.metadata["cubin"])
            ours = next(facts for name, facts in sass_facts(cubin, demangle=False).items()
                        if not name.startswith("__coop"))
            rows.append(((algorithm, dtype, block, ipt, width), gbs, ok, ours))
        del src, dst, zeros

    anchor = re.search(r"D2D \(anchor\)\s+([\d.]+)", cub_out)
    print(f"cudaMemcpy D2D: {memcpy:.1f} GB/s (this run); CUB reference's own anchor: "
          f"{anchor.group(1) if anchor else '?'} GB/s"
          f"{RELOCATABLE if lto is False else ''}")
    header = (f"{'algorithm':26} {'group':7} {'dtype':5} {'block':>5} {'ipt':>3} "
              f"{'coop GB/s':>9} {'CUB GB/s':>9} {'coop/CUB':>8} {'%memcpy':>7} {'ok':>3}  "
              f"{'LDL/STL':>7} {'smem':>11} {'BAR.SYNC':>8}")
    print(header)
    print("-" * len(header))
    worst = 10.0
    for key, gbs, ok, ours in rows:
        algorithm, dtype, block, ipt, width = key
        ref, ref_ok = cub.get(key, (float("nan"), False))
        theirs = cub_sass.get(key, {})
        ratio = gbs / ref
        worst = min(worst, ratio)
        group = "block" if width is None else f"warp{width}"
        print(f"{algorithm:26} {group:7} {dtype:5} {block:5d} {ipt:3d} {gbs:9.1f} {ref:9.1f} "
              f"{ratio:8.3f} {100 * gbs / memcpy:6.1f}% {'ok' if ok and ref_ok else 'BAD':>3}  "
              f"{ours.get('ldl_stl', -1):3d}/{theirs.get('ldl_stl', -1):<3d} "
              f"{ours.get('shared', -1):5d}/{theirs.get('shared', -1):<5d} "
              f"{ours.get('bar', -1):3d}/{theirs.get('bar', -1):<3d}")
    print(f"worst coop/CUB: {worst:.3f}   (columns a/b: coop/CUB)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path)
    parser.add_argument("filters", nargs="*", metavar="FILTER",
                        help="ALGORITHM GROUP DTYPE BLOCK IPT, each a value or 'all'")
    parser.add_argument("--read-only", action="store_true",
                        help="pass the source read-only (ld.global.nc), as the references' "
                             "const T* __restrict__")
    add_lto_option(parser)
    arguments = parser.parse_args()
    if len(arguments.filters) > 5:
        parser.error("at most five filters: ALGORITHM GROUP DTYPE BLOCK IPT")
    main(arguments.directory, arguments.read_only, arguments.filters, arguments.lto)
