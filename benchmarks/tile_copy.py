"""Tile copy (coop.load -> coop.store) against CUB and cudaMemcpy, in one run.

The coop kernels are written in MLIR and lowered by our passes (no numba), so
this measures the lowering itself. Two steps, because the GPU machine has no
coop-opt:

  python benchmarks/tile_copy.py build .gpu/bench     # here: MLIR -> cubin
  python benchmarks/tile_copy.py run .gpu/bench       # on the GPU: time, compare

`run` also builds and runs the CUB reference (benchmarks/reference/
cub_loadstore.cu, nvcc -O3 -arch=sm_90) and reads both binaries' SASS. It
prints one table: GB/s of coop and CUB, coop/CUB, % of cudaMemcpy, and per
kernel the local memory, shared memory and BAR.SYNC count of each.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ALGORITHMS = ("direct", "striped", "vectorize", "transpose", "warp_transpose",
              "warp_transpose_timesliced")
# The configurations of the CUB reference: (block, items_per_thread).
CONFIGS = ((128, 1), (128, 4), (256, 4), (256, 8), (128, 16))
DTYPES = {"int32": ("i32", np.int32), "f64": ("f64", np.float64)}
N_INT32 = (1 << 28) - 12345  # ~1 GiB of int32, ragged last tile (as the reference)
REPS = 20


def kernel_name(dtype, algorithm, block, ipt):
    return f"copy_{dtype}_{algorithm}_b{block}_ipt{ipt}"


def kernel_mlir(dtype, algorithm, block, ipt) -> str:
    """Full tiles unguarded, the last tile guarded, as the reference does."""
    t = DTYPES[dtype][0]
    zero = "0.0" if t.startswith("f") else "0"
    alg = "" if algorithm == "direct" else f" algorithm = {algorithm}"
    ty = f"!coop.group<block>, memref<?x{t}>, memref<{ipt}x{t}>"
    sty = f"!coop.group<block>, memref<{ipt}x{t}>, memref<?x{t}>"
    return f"""
  gpu.func @{kernel_name(dtype, algorithm, block, ipt)}(%src: memref<?x{t}>, %dst: memref<?x{t}>, %n: index) kernel
      attributes {{known_block_size = array<i32: {block}, 1, 1>}} {{
    %g = coop.this_block
    %items = memref.alloca() : memref<{ipt}x{t}>
    %bid = gpu.block_id x
    %ctile = arith.constant {block * ipt} : index
    %tile = arith.muli %bid, %ctile : index
    %rest = arith.subi %n, %tile : index
    %valid = arith.minui %rest, %ctile : index
    %full = arith.cmpi eq, %valid, %ctile : index
    %zero = arith.constant {zero} : {t}
    scf.if %full {{
      coop.load %g, %src[%tile] into %items{alg} : {ty}
      coop.store %g, %items into %dst[%tile]{alg} : {sty}
    }} else {{
      coop.load %g, %src[%tile] into %items{alg} valid_items = %valid oob_default = %zero : {t} : {ty}
      coop.store %g, %items into %dst[%tile]{alg} valid_items = %valid : {sty}
    }}
    gpu.return
  }}"""


def build(directory: Path) -> None:
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    import coop_kernels

    directory.mkdir(parents=True, exist_ok=True)
    module = "gpu.module @kernels {" + "".join(
        kernel_mlir(d, a, b, i) for d in DTYPES for (b, i) in CONFIGS for a in ALGORITHMS) + "\n}\n"
    result = subprocess.run([coop_kernels.coop_opt(), "--coop-lower-to-ptx=chip=sm_90", "-"],
                            input=module, capture_output=True, text=True, check=True)
    match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', result.stdout, re.S)
    ptx = coop_kernels._unescape_mlir_string(match.group(1))
    (directory / "tile_copy.ptx").write_text(ptx)
    subprocess.run([coop_kernels.ptxas(), "-arch=sm_90", "-O3", str(directory / "tile_copy.ptx"),
                    "-o", str(directory / "tile_copy.cubin")], check=True)
    print(f"wrote {directory / 'tile_copy.cubin'}")


# --- on the GPU -------------------------------------------------------------

def sass_facts(binary: Path, demangle: bool) -> dict[str, dict]:
    """Per kernel: local memory, shared memory (cuobjdump -res-usage) and
    BAR.SYNC count (cuobjdump -sass)."""
    facts: dict[str, dict] = {}
    usage = subprocess.run(["cuobjdump", "-res-usage", str(binary)], capture_output=True,
                           text=True, check=True).stdout
    for name, body in re.findall(r"Function (\S+):\n\s*(.*)", usage):
        f = facts.setdefault(name, {})
        for key in ("SHARED", "LOCAL", "REG", "STACK"):
            m = re.search(rf"{key}:(\d+)", body)
            f[key.lower()] = int(m.group(1)) if m else 0
    sass = subprocess.run(["cuobjdump", "-sass", str(binary)], capture_output=True, text=True,
                          check=True).stdout
    for name, body in re.findall(r"Function : (\S+)\n(.*?)(?=\n\s*Function : |\Z)", sass, re.S):
        f = facts.setdefault(name, {})
        f["bar"] = len(re.findall(r"\bBAR\.SYNC", body))
        f["ldl_stl"] = len(re.findall(r"\b(LDL|STL)\b", body))
    if demangle:
        names = list(facts)
        out = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True).stdout.splitlines()
        facts = {pretty: facts[raw] for raw, pretty in zip(names, out)}
    return facts


def cub_key(pretty: str):
    # cu++filt spells the template arguments "(int)128" or "128", and the
    # algorithm "(cub::...::BlockLoadAlgorithm)3" or "cub::...::BLOCK_LOAD_TRANSPOSE".
    m = re.search(r"copy_kernel<(int|double),\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+),\s*"
                  r"(?:\([\w:]*BlockLoadAlgorithm\)(\d)|[\w:]*BLOCK_LOAD_(\w+?)\s*,)", pretty)
    if not m:
        return None
    dtype = "int32" if m.group(1) == "int" else "f64"
    algorithm = ALGORITHMS[int(m.group(4))] if m.group(4) else m.group(5).lower()
    return kernel_name(dtype, algorithm, int(m.group(2)), int(m.group(3)))


def run(directory: Path) -> None:
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    from cuda.bindings import driver
    from gpu_runner import Gpu, _check

    # The reference, built and run in this same command.
    cub_binary = directory / "cub_loadstore"
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-std=c++17", "-o", str(cub_binary),
                    str(HERE / "reference" / "cub_loadstore.cu")], check=True)
    cub_out = subprocess.run([str(cub_binary)], capture_output=True, text=True, check=True).stdout
    cub = {}
    for line in cub_out.splitlines():
        m = re.match(r"(\w+)\s+(int32|f64)\s+block=\s*(\d+) ipt=\s*(\d+)\s+([\d.]+) GB/s\s+(\w+)", line)
        if m:
            cub[kernel_name(m.group(2), m.group(1), int(m.group(3)), int(m.group(4)))] = (
                float(m.group(5)), m.group(6))
    cub_facts = sass_facts(cub_binary, demangle=True)
    cub_sass = {cub_key(k): v for k, v in cub_facts.items() if cub_key(k)}
    if not cub_sass:
        print("could not match CUB's kernels; their names:", *list(cub_facts)[:3], sep="\n  ")
    ours_sass = sass_facts(directory / "tile_copy.cubin", demangle=False)

    gpu = Gpu()
    module = gpu.load((directory / "tile_copy.cubin").read_bytes())
    start, stop = _check(driver.cuEventCreate(0)), _check(driver.cuEventCreate(0))

    def timed(fn) -> float:
        fn()
        _check(driver.cuCtxSynchronize())
        _check(driver.cuEventRecord(start, 0))
        for _ in range(REPS):
            fn()
        _check(driver.cuEventRecord(stop, 0))
        _check(driver.cuEventSynchronize(stop))
        return _check(driver.cuEventElapsedTime(start, stop))

    a = gpu.upload(np.zeros(N_INT32, dtype=np.int32))
    b = gpu.upload(np.zeros(N_INT32, dtype=np.int32))
    ms = timed(lambda: _check(driver.cuMemcpyDtoD(b.pointer, a.pointer, N_INT32 * 4)))
    memcpy = 2.0 * N_INT32 * 4 * REPS / (ms * 1e6)
    gpu.free(a), gpu.free(b)

    rows = []
    for dtype, (_, np_dtype) in DTYPES.items():
        n = N_INT32 if dtype == "int32" else N_INT32 // 2
        host = (np.arange(n) % 1000003).astype(np_dtype)
        src, dst = gpu.upload(host), gpu.upload(np.zeros(n, dtype=np_dtype))
        for block, ipt in CONFIGS:
            for algorithm in ALGORITHMS:
                name = kernel_name(dtype, algorithm, block, ipt)
                kernel = module.function(name)
                grid = -(-n // (block * ipt))
                gpu.launch(kernel, grid, (block, 1, 1), [src, dst, np.int64(n)])
                back = gpu.download(dst)
                ok = bool(np.array_equal(back[::997], host[::997]) and back[-1] == host[-1])
                args = [src, dst, np.int64(n)]
                ms = timed(lambda: gpu.launch(kernel, grid, (block, 1, 1), args, sync=False))
                gbs = 2.0 * n * np.dtype(np_dtype).itemsize * REPS / (ms * 1e6)
                rows.append((name, dtype, algorithm, block, ipt, gbs, ok))
        gpu.free(src), gpu.free(dst)

    print(f"cudaMemcpy D2D: {memcpy:.1f} GB/s (this run); CUB reference's own anchor: "
          + (re.search(r"D2D \(anchor\)\s+([\d.]+)", cub_out).group(1) + " GB/s"))
    header = (f"{'algorithm':26} {'dtype':5} {'block':>5} {'ipt':>3} {'coop GB/s':>9} "
              f"{'CUB GB/s':>9} {'coop/CUB':>8} {'%memcpy':>7} {'ok':>3}  "
              f"{'LDL/STL':>7} {'smem':>11} {'BAR.SYNC':>8}")
    print(header)
    print("-" * len(header))
    worst = 10.0
    for name, dtype, algorithm, block, ipt, gbs, ok in rows:
        ref, ref_ok = cub.get(name, (float("nan"), "?"))
        ours, theirs = ours_sass.get(name, {}), cub_sass.get(name, {})
        ratio = gbs / ref
        worst = min(worst, ratio)
        print(f"{algorithm:26} {dtype:5} {block:5d} {ipt:3d} {gbs:9.1f} {ref:9.1f} {ratio:8.3f} "
              f"{100 * gbs / memcpy:6.1f}% {'ok' if ok and ref_ok == 'ok' else 'BAD':>3}  "
              f"{ours.get('ldl_stl', -1):3d}/{theirs.get('ldl_stl', -1):<3d} "
              f"{ours.get('shared', -1):5d}/{theirs.get('shared', -1):<5d} "
              f"{ours.get('bar', -1):3d}/{theirs.get('bar', -1):<3d}")
    print(f"worst coop/CUB: {worst:.3f}   (columns a/b: coop/CUB)")
    (directory / "tile_copy.json").write_text(json.dumps(rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("build", "run"))
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    (build if args.step == "build" else run)(args.directory)
