"""cuda.coop.select in Numba-CUDA-MLIR kernels against a CUB-composed select
(benchmarks/reference/cub_select.cu), in one run on the GPU.

  python3 benchmarks/numba_select.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_select.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_select's own ("all" matches anything; float64 matches f64) and
go to both sides. The run builds the reference with nvcc -O3 -arch=sm_90 into DIR (skipped while
DIR/cub_select is newer than the .cu), checks that its `list` is this script's configurations,
runs it, then runs the same configurations as @cuda.jit kernels (coop.select with coop's
planned scratch: no temp_storage, and none of the barriers CUB users write -- coop plans them)
and prints one table.

CUB has no public block or warp select; the reference composes one as CUB users do: a count of
the thread's set flags, cub::BlockScan (block_select) or cub::WarpScan (warp_select, logical
warps of 32 and 8 lanes) ExclusiveSum of the counts, the selected items scattered to shared
memory at their offsets (a union with the scan's TempStorage), the tile read back blocked.

The kernels are the reference's (its header documents them), for both modes:

  tile: one tile per block (1<<28 int32 / 1<<27 f64, full tiles), loaded blocked
        (coop.load(..., algorithm="direct"); a logical warp's tile is its blocked slice of the
        block's) -> flags (keep the odd items: x & 1, f64 np.int32(x) & 1, into a
        cuda.local.array) -> coop.select(group, items, flags=keep) -> store the compacted
        tile, and the group's count to counts[group] (one per block, or per logical warp);
        GB/s of the input (bytes read / time; the kernel writes as many, and the counts).
  loop: --grid blocks load one tile, then --reps times {flags from the current items; select;
        item i of the thread of rank t in its group = selected[i] + threadIdx.x where
        t * ipt + i < count, else kept}, then store; ns/op = (t(reps) - t(0)) * SMs /
        (grid * reps), one select (with its flags and the update) an iteration.
        The repetition is `rep = np.int32(0); while rep < reps: ...; rep = np.int32(rep + 1)`,
        as in numba_exchange.py (--range-loop: `for _ in range(reps)`).

The input is (uint32)(j * 2654435761) >> 12 at position j (below 2^20, about half of a tile
odd, in no regular pattern), on both sides.

--predicate: coop's kernels select with predicate=odd_int32 / odd_f64 (module-level functions
of one item) instead of flags; the CUB rows are the same (its flags are computed inline either
way), so the ratio shows what the predicate costs or saves against flags.

--read-only passes the input as a read-only array (gpu_timing.ReadOnly, no copy), the Numba form
of the reference's `const T* __restrict__` input (coop.load then reads through ld.global.nc, as
nvcc reads the reference's); with --compile-only, the kernels are compiled for a read-only input.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against the NumPy model cuda.coop._models.select_model (tiles 0, 97, 194,
... and the last, as the reference does), group by group: tile rows compare each group's count
and its first `count` items (the items past the count are unspecified on both sides), loop rows
the whole output (the items past the count are not used). The ok column is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop rows
(> 1: coop is faster); the summary adds their geometric means, per kernel and per mode.

Facts (a/b = coop/CUB), as numba_exchange.py's: smem is the kernel's shared memory (our PTX's
.shared bytes; CUB's sizeof of its union of the scan's TempStorage and the tile); bar and wsync
count block barriers (bar.sync/barrier.sync) and warp barriers (bar.warp.sync) in the PTX, per
tile (tile rows) or per loop iteration (loop rows: CUB's loop is `#pragma unroll 1`, so its PTX
count, which includes BlockScan's own two; for ours, the count from the kernel's optimized MLIR
before LLVM); local is our kernel's local memory in bytes per thread (the driver's attribute on
the GPU, ptxas -v with --compile-only), which must be 0.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import ReadOnly, coop_jit, repeat_lines

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import family_cli  # noqa: E402
from numba_exchange import run_reference_binary, sample  # noqa: E402

REFERENCE = HERE / "reference" / "cub_select.cu"
BINARY = "cub_select"

# The reference's configurations (add_all in cub_select.cu), in its order.
BLOCK_CONFIGS = ((128, 1), (128, 4), (256, 4), (256, 8), (128, 16), (512, 4), (1024, 2))
WARP_CONFIGS = ((32, 128, 4), (8, 128, 4), (32, 256, 8))  # width, block, ipt
DTYPES = {"int32": np.int32, "f64": np.float64}
TOTAL_BYTES = 1 << 30  # the reference's buffer: 1 GiB
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str    # "block_select" or "warp_select"
    dtype: str   # "int32" or "f64"
    block: int
    ipt: int
    width: int   # 0: the block

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def group(self) -> int:
        """Threads of the group that selects: the block's, or the logical warp's."""
        return self.width or self.block

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    out = []
    for dtype in DTYPES:
        for block, ipt in BLOCK_CONFIGS:
            out.extend(Config(k, "block_select", dtype, block, ipt, 0) for k in ("tile", "loop"))
        for width, block, ipt in WARP_CONFIGS:
            out.extend(Config(k, "warp_select", dtype, block, ipt, width)
                       for k in ("tile", "loop"))
    return out


def chosen(configs, filters) -> list[Config]:
    """cub_select's filter rule: "all" matches anything; float64 means f64."""
    filters = list(filters) + ["all"] * (6 - len(filters))

    def match(f, v):
        return f == "all" or f == str(v) or (f == "float64" and v == "f64")
    return [c for c in configs if all(match(f, v) for f, v in zip(filters, c.key))]


# ---- the kernels ---------------------------------------------------------------------------
# The flag of an item: 1 where it is odd (the items are never negative, so np.int32(x) is
# floor(x)), as the reference's odd().

def odd_int32(x):
    """--predicate's function for int32 items."""
    return (x & 1) != 0


def odd_f64(x):
    """--predicate's function for f64 items."""
    return (np.int32(x) & 1) != 0


def _flag(c: Config, item: str) -> str:
    return f"{item} & 1" if c.dtype == "int32" else f"np.int32({item}) & 1"


def _select(c: Config, predicate: bool) -> list[str]:
    """The statements from the items `a` to the selected payload `b` and `count`."""
    if predicate:
        return [f"b, count = coop.select(group, a, predicate=odd_{c.dtype})"]
    return [f"for i in range({c.ipt}):",
            f"    keep[i] = {_flag(c, 'a[i]')}",
            "b, count = coop.select(group, a, flags=keep)"]


def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def kernel_source(c: Config, range_loop: bool = False, predicate: bool = False) -> str:
    B, I, W, G = c.block, c.ipt, c.width, c.group
    group = ("coop.this_block()" if W == 0 else "coop.this_warp()" if W == 32
             else f"coop.this_warp().group_by({W})")
    third = "counts" if c.kernel == "tile" else "reps"
    lines = [f"def {kernel_name(c)}(src, dst, {third}):",
             f"    group = {group}",
             "    tid = cuda.threadIdx.x",
             f"    base = cuda.blockIdx.x * {B * I}",
             f"    a = coop.ThreadData({I})"]
    if not predicate:
        lines.append(f"    keep = cuda.local.array({I}, np.int32)")
    lines.append('    coop.load(group, src, a, offset=base, algorithm="direct")')
    if c.kernel == "tile":
        lines += [f"    {s}" for s in _select(c, predicate)]
        lines.append('    coop.store(group, dst, b, offset=base, algorithm="direct")')
        if W == 0:
            lines += ["    if tid == 0:", "        counts[cuda.blockIdx.x] = count"]
        else:
            lines += [f"    if tid % {W} == 0:",
                      f"        counts[cuda.blockIdx.x * {B // W} + tid // {W}] = count"]
    else:
        # The thread's first position in its group's tile.
        lines.append(f"    first = tid * {I}" if W == 0 else f"    first = (tid % {G}) * {I}")
        head, tail = repeat_lines(range_loop)
        lines += head
        lines += [f"        {s}" for s in _select(c, predicate)]
        lines += [f"        for i in range({I}):",
                  "            if first + i < count:",
                  "                a[i] = b[i] + tid"]
        lines += tail
        lines.append('    coop.store(group, dst, a, offset=base, algorithm="direct")')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False,
                predicate: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np, "odd_int32": odd_int32,
                 "odd_f64": odd_f64}
    exec(compile(kernel_source(c, range_loop, predicate), f"<{' '.join(map(str, c.key))}>",
                 "exec"), namespace)
    return coop_jit(cuda, namespace[kernel_name(c)], lto)


def argtypes(c: Config, read_only: bool = False) -> list:
    """The kernel's argument types; `read_only`: the input is a read-only array, as a
    gpu_timing.ReadOnly argument is typed."""
    from numba_cuda_mlir import types

    array = (types.int32 if c.dtype == "int32" else types.float64)[::1]
    source = types.Array(array.dtype, 1, "C", readonly=True) if read_only else array
    # reps is an int32, as the reference's `int reps` (see numba_exchange.argtypes).
    return [source, array, types.int32[::1] if c.kernel == "tile" else types.int32]


# ---- the NumPy model -----------------------------------------------------------------------
# A block's tile (blocked: thread t's item i at t * ipt + i) is block // group group tiles of
# group * ipt items one after the other; each group selects from its own, as select_model's
# [group, ipt] tile.

def input_pattern(n: int, dtype) -> np.ndarray:
    """The reference's input: (uint32)(j * 2654435761) >> 12."""
    j = np.arange(n, dtype=np.uint64)
    return (((j * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)) >> np.uint64(12)).astype(dtype)


def flags(values: np.ndarray) -> np.ndarray:
    """The kernels' flags: 1 where an item is odd."""
    return (values.astype(np.int32) if values.dtype.kind == "f" else values) & 1


def _groups(c: Config, tile: np.ndarray):
    """(group, its [group, ipt] view) of one block's tile."""
    size = c.group * c.ipt
    for g in range(c.block // c.group):
        yield g, tile[g * size:(g + 1) * size].reshape(c.group, c.ipt)


def check_tile(c: Config, inputs: np.ndarray, got: np.ndarray, counts: np.ndarray) -> bool:
    """Tile rows: every group's count, and its items up to the count (the rest are
    unspecified), for input tiles [k, block * ipt], output tiles and counts [k, groups]."""
    from cuda.coop._models import select_model, select_specified

    for k in range(len(inputs)):
        outputs = dict(_groups(c, got[k]))
        for g, values in _groups(c, inputs[k]):
            expected, count = select_model(values, flags(values))
            if counts[k, g] != count:
                return False
            defined = select_specified(count, values.shape)
            if not np.array_equal(outputs[g][defined], expected[defined]):
                return False
    return True


def loop_model(c: Config, inputs: np.ndarray, reps: int) -> np.ndarray:
    """Loop rows: the output tiles after `reps` select steps on input tiles [k, block * ipt]."""
    from cuda.coop._models import select_model, select_specified

    out = np.empty_like(inputs)
    for k in range(len(inputs)):
        results = dict(_groups(c, out[k]))  # views of out
        for g, values in _groups(c, inputs[k]):
            r = values.copy()
            tid = (g * c.group + np.arange(c.group))[:, None]
            for _ in range(reps):
                selected, count = select_model(r, flags(r))
                r = np.where(select_specified(count, r.shape), selected + tid, r).astype(r.dtype)
            results[g][...] = r
    return out


# ---- the CUB reference ---------------------------------------------------------------------

def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in chosen(configurations(), filters)}
    return run_reference_binary(directory, REFERENCE, expected, filters, options)


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    from numba_cuda_mlir import cuda

    run = family_cli.CoopRun(options, SLEEP_US, TOTAL_BYTES)
    buffers: dict = {}
    for c in run.each(configs):
        if c.dtype not in buffers:
            buffers.clear()
            n = TOTAL_BYTES // np.dtype(c.numpy_dtype).itemsize
            host = input_pattern(n, c.numpy_dtype)
            src = cuda.to_device(host)
            buffers[c.dtype] = (host, src, ReadOnly(src) if options.read_only else src,
                                cuda.device_array(n, c.numpy_dtype),
                                cuda.to_device(np.zeros(n, c.numpy_dtype)))
        host, _, source, out, zeros = buffers[c.dtype]
        tile = c.block * c.ipt
        groups = c.block // c.group
        kernel = make_kernel(c, options.lto, options.range_loop, options.predicate)
        if c.kernel == "tile":
            grid, reps = host.size // tile, 1
            counts = cuda.to_device(np.full(grid * groups, -1, np.int32))
            args = (source, out, counts)
        else:
            grid, reps = run.loop_grid(tile, host.size)
            args = (source, out, np.int32(reps))
        out.copy_to_device(zeros)
        kernel[grid, c.block](*args)
        cuda.synchronize()
        picked = sample(grid)
        got = out[:grid * tile].copy_to_host().reshape(grid, tile)[picked]
        inputs = host[:grid * tile].reshape(grid, tile)[picked]
        if c.kernel == "tile":
            got_counts = counts.copy_to_host().reshape(grid, groups)[picked]
            ok = check_tile(c, inputs, got, got_counts)
        else:
            ok = bool(np.array_equal(got, loop_model(c, inputs, reps)))
        run.add(c, kernel, grid, args, ok, grid * tile * np.dtype(c.numpy_dtype).itemsize, reps)
    return run.result()


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop, options.predicate), argtypes(c, options.read_only)))


# ---- the summary ---------------------------------------------------------------------------

def _options(parser) -> None:
    parser.add_argument("--predicate", action="store_true",
                        help="coop's kernels select with predicate= (odd_int32/odd_f64) "
                             "instead of flags")


def _variant(args) -> str:
    return "; ".join(v for v, on in (("coop: predicate=", args.predicate),
                                     ("input read-only", args.read_only)) if on)


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_select", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop,
        read_only="pass the input read-only (ld.global.nc), as the reference's "
                  "const T* __restrict__",
        options=_options, variant=_variant), argv)


if __name__ == "__main__":
    sys.exit(main())
