"""cuda.coop's block reduce and scan tile rows in CuTe DSL kernels against CUB
(benchmarks/reference/cub_reduce_scan.cu), in one run on the GPU.

  python3 benchmarks/cute_reduce_scan.py build DIR [FILTERS]     # where CuTe DSL is installed
  python3 benchmarks/cute_reduce_scan.py run DIR [FILTERS] [--cub=BINARY] [--runs=21] [--warmup=3]

CuTe DSL (a 92 MB wheel) does not travel to the GPU machine, so `build` compiles each row's
kernel here (CUTE_DSL_ARCH=sm_90a, no GPU needed) into DIR/ROW/ (its cubin and PTX, launch.json)
and `run` launches those cubins through the CUDA driver on the GPU, after running the CUB
reference on the same rows. The rows, input values, NumPy models and byte counts are
numba_reduce_scan.py's tile rows (its header documents them): FILTERS are cub_reduce_scan's
(KERNEL MODE DTYPE BLOCK IPT, "all" matches anything, "a,b" either), default: the block sum
and scan modes. Warp, partial, prefix and max modes are left out: this compares the CuTe
route's cost (a bitcode site a call, a leading barrier for each call that uses scratch,
docs/embedding.md) with CUB on the rows every backend has.

The kernel: coop.load(block, tile, items, algorithm="transpose"), then the reduction
(broadcast=False; thread 0 writes the tile's aggregate) or the scan and
coop.store(..., algorithm="transpose"). GB/s counts the reference's bytes; coop/CUB is the
ratio of GB/s. Times: the median of --runs launches after --warmup, each between its own
event pair. The ok column checks tiles 0, 97, 194, ... and the last against the model.
"""


import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

DEFAULT_FILTERS = ["tile", "sum.raking,sum.warp_reductions,exclusive_sum.raking,"
                   "exclusive_sum.warp_scans,inclusive_sum.raking,inclusive_sum.warp_scans"]
ARCH = "sm_90a"


def rows(filters):
    """The selected tile rows this script measures."""
    from numba_reduce_scan import configurations, select

    return [c for c in select(configurations(), filters or DEFAULT_FILTERS)
            if c.kernel == "tile" and c.width == 0 and c.kind in ("sum", "inclusive_sum",
                                                                   "exclusive_sum")
            and not c.partial]


def row_name(c) -> str:
    return f"{c.mode}-{c.dtype}-{c.block}x{c.ipt}"


def items_of(c) -> int:
    """1 GiB of items, as the reference (full tiles)."""
    n = (1 << 30) // np.dtype(c.numpy_dtype).itemsize
    return n - n % c.tile


# ---- build (CuTe DSL) ------------------------------------------------------------------------

def _kernel(c):
    import cutlass
    import cutlass.cute as cute

    from cuda import coop

    dtype = {"int32": cutlass.Int32, "int64": cutlass.Int64, "float32": cutlass.Float32,
             "float64": cutlass.Float64}[c.dtype]
    tile, reduce = c.tile, c.family == "reduce"
    scan = getattr(coop, c.kind) if not reduce else None
    algorithm = c.algorithm

    @cute.kernel
    def kernel(g_in: cute.Tensor, g_out: cute.Tensor):
        bidx, _, _ = cute.arch.block_idx()
        tidx, _, _ = cute.arch.thread_idx()
        block = coop.this_block()
        items = coop.ThreadData(c.ipt, dtype)
        coop.load(block, cute.local_tile(g_in, (tile,), (bidx,)), items, algorithm="transpose")
        if cutlass.const_expr(reduce):
            total = coop.reduce(block, items, "sum", broadcast=False, algorithm=algorithm)
            if tidx == 0:
                g_out[bidx] = total
        else:
            out = scan(block, items, algorithm=algorithm)
            coop.store(block, cute.local_tile(g_out, (tile,), (bidx,)), out,
                       algorithm="transpose")

    tiles = items_of(c) // tile

    @cute.jit
    def host(m_in: cute.Tensor, m_out: cute.Tensor):
        kernel(m_in, m_out).launch(grid=(tiles, 1, 1), block=(c.block, 1, 1))

    return host, dtype


def build(directory: Path, filters) -> int:
    os.environ.setdefault("CUTE_DSL_ARCH", ARCH)
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_compact_tensor

    from cuda import coop

    coop.register("cute")
    selected, skipped, seconds = rows(filters), [], []
    for c in selected:
        host, dtype = _kernel(c)
        n = items_of(c)
        out = n // c.tile if c.family == "reduce" else n
        folder = directory / row_name(c)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        try:
            cute.compile(host, make_fake_compact_tensor(dtype, (n,)),
                         make_fake_compact_tensor(dtype, (out,)),
                         options=f"--gpu-arch {ARCH} --keep-ptx --keep-cubin "
                                 f"--dump-dir={folder}")
        except Exception as error:  # CuTe's DSL errors carry ptxas's reason
            found = re.search(r"too\s+much\s+shared\s+data\s+\((0x[0-9a-f]+)\s+bytes", str(error))
            if not found:
                raise
            # Each call's scratch is a static buffer of its own: the load's, the
            # collective's and the store's add up past the 48 KiB of static shared memory.
            skipped.append(f"{row_name(c)}: {int(found.group(1), 16)} B of static shared memory")
            continue
        seconds.append(time.perf_counter() - started)
        ptx = next(folder.glob("*.ptx"))
        entry = re.search(r"\.entry\s+(\w+)\(", ptx.read_text()).group(1)
        (folder / "launch.json").write_text(json.dumps({
            "key": list(c.key), "entry": entry, "cubin": next(folder.glob("*.cubin")).name,
            "items": n, "outputs": out, "bars": ptx.read_text().count("bar.sync")}))
    print(f"built {len(selected) - len(skipped)} CuTe rows into {directory}")
    if seconds:
        # Each kernel: CuTe's tracing and compile to a cubin, with the coop
        # calls' bitcode (three sites) made and linked.
        print(f"compile: median {1000 * statistics.median(seconds):.0f} ms a kernel, "
              f"max {1000 * max(seconds):.0f} ms")
    for line in skipped:
        print(f"skipped {line} (past the 48 KiB a kernel's static buffers may take)")
    return 0


# ---- run (the GPU) ---------------------------------------------------------------------------

def _check(result):
    from cuda.bindings import driver

    err, *values = result if isinstance(result, tuple) else (result,)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA driver error {err}")
    return values[0] if len(values) == 1 else values


def _time(driver, kernel, grid, block, args, runs, warmup) -> float:
    boxes = [np.array([np.uint64(int(a))]) for a in args]
    pointers = np.array([b.ctypes.data for b in boxes], dtype=np.uint64)
    start, stop = _check(driver.cuEventCreate(0)), _check(driver.cuEventCreate(0))
    times = []
    for k in range(warmup + runs):
        _check(driver.cuEventRecord(start, 0))
        _check(driver.cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, 0,
                                     pointers.ctypes.data, 0))
        _check(driver.cuEventRecord(stop, 0))
        _check(driver.cuEventSynchronize(stop))
        if k >= warmup:
            times.append(_check(driver.cuEventElapsedTime(start, stop)))
    return statistics.median(times)


def run(directory: Path, filters, options) -> int:
    from cuda.bindings import driver
    from numba_reduce_scan import (input_values, model_tile, reference_binary, run_reference,
                                   tile_bytes)

    built = {}
    for launch in sorted(directory.glob("*/launch.json")):
        facts = json.loads(launch.read_text())
        built[tuple(facts["key"])] = (launch.parent, facts)
    selected = [c for c in rows(filters) if c.key in built]
    if not selected:
        raise SystemExit(f"no built rows in {directory}: run `build` where CuTe DSL is installed")
    binary = reference_binary(directory, options.cub, build=True)
    cub, _, _ = run_reference(binary, directory, filters or DEFAULT_FILTERS,
                              [f"--runs={options.runs}", f"--warmup={options.warmup}"])
    _check(driver.cuInit(0))
    context = _check(driver.cuDevicePrimaryCtxRetain(_check(driver.cuDeviceGet(0))))
    _check(driver.cuCtxSetCurrent(context))
    table, inputs = [], {}
    for c in selected:
        folder, facts = built[c.key]
        n, outs = facts["items"], facts["outputs"]
        dtype = np.dtype(c.numpy_dtype)
        if c.dtype not in inputs:
            inputs.clear()
            host = input_values(n).astype(dtype)
            device = _check(driver.cuMemAlloc(host.nbytes))
            _check(driver.cuMemcpyHtoD(device, host.ctypes.data, host.nbytes))
            inputs[c.dtype] = (host, device)
        host, device = inputs[c.dtype]
        out = _check(driver.cuMemAlloc(outs * dtype.itemsize))
        module = _check(driver.cuModuleLoadData((folder / facts["cubin"]).read_bytes()))
        kernel = _check(driver.cuModuleGetFunction(module, facts["entry"].encode()))
        ms = _time(driver, kernel, n // c.tile, c.block, [device, out], options.runs,
                   options.warmup)
        result = np.empty(outs, dtype)
        _check(driver.cuMemcpyDtoH(result.ctypes.data, out, result.nbytes))
        tiles = n // c.tile
        k = np.unique(np.append(np.arange(0, tiles, 97), tiles - 1))
        expected = model_tile(c, host.reshape(tiles, c.tile)[k], k)
        got = result.reshape(tiles, -1)[k]
        ok = np.array_equal(got.reshape(expected.shape), expected)
        _check(driver.cuMemFree(out))
        _check(driver.cuModuleUnload(module))
        gbs = tile_bytes(c, n) / (ms * 1e6)
        theirs = cub.get(c.key)
        table.append((c, gbs, theirs["value"] if theirs else None, ok,
                      theirs["ok"] if theirs else None, facts["bars"]))
    return _print(table)


def _print(table) -> int:
    print(f"{'mode':28} {'dtype':8} {'block':>5} {'ipt':>3}  {'coop GB/s':>9} {'CUB GB/s':>9}"
          f" {'coop/CUB':>8}  bar.sync  ok")
    ratios = []
    for c, ours, theirs, ok, cub_ok, bars in table:
        ratio = ours / theirs if theirs else None
        if ratio:
            ratios.append(ratio)
        print(f"{c.mode:28} {c.dtype:8} {c.block:5} {c.ipt:3}  {ours:9.1f} "
              f"{theirs if theirs else float('nan'):9.1f} "
              f"{ratio if ratio else float('nan'):8.3f}  {bars:8}  "
              f"{'OK' if ok else 'FAIL'}/{'OK' if cub_ok else 'FAIL' if cub_ok is False else '-'}")
    if ratios:
        print(f"geomean coop/CUB {float(np.exp(np.mean(np.log(ratios)))):.3f} over "
              f"{len(ratios)} rows; lowest {min(ratios):.3f}")
    return 0 if all(ok for _, _, _, ok, _, _ in table) else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("build", "run"))
    parser.add_argument("directory", type=Path)
    parser.add_argument("filters", nargs="*")
    parser.add_argument("--cub", type=Path, default=None,
                        help="a prebuilt cub_reduce_scan (or .xz) instead of building it in DIR")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--warmup", type=int, default=3)
    options = parser.parse_args(argv)
    options.directory.mkdir(parents=True, exist_ok=True)
    if options.step == "build":
        return build(options.directory, options.filters)
    return run(options.directory, options.filters, options)


if __name__ == "__main__":
    sys.exit(main())
