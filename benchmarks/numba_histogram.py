"""cuda.coop.histogram in Numba-CUDA-MLIR kernels against CUB's block histogram, both of its
algorithms (cub::BlockHistogram<T, BLOCK, IPT, BINS, cub::BLOCK_HISTO_ATOMIC> and
BLOCK_HISTO_SORT, benchmarks/reference/cub_histogram.cu), in one run on the GPU.

  python3 benchmarks/numba_histogram.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_histogram.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_histogram's own ("all" matches anything) and go to both sides.
The run builds the reference with nvcc -O3 -arch=sm_90 into DIR (skipped while DIR/cub_histogram
is newer than the .cu), checks that its `list` is this script's configurations, runs it, then runs
the same configurations as @cuda.jit kernels (coop.histogram with coop's planned scratch: no
temp_storage, no counters array of the kernel's own, and none of the barriers CUB users write --
coop plans them) and prints one table.

Modes (WIDTH is 0: the block), a histogram of the block's samples into BINS bins:
  block_histBINS, coop.histogram(..., algorithm="atomic") against BLOCK_HISTO_ATOMIC:
        block_hist256 of uint8 samples at (BLOCK, IPT) = (128, 4), (256, 4), (256, 8), (512, 2),
        (1024, 4); block_hist64 and block_hist1024 of int32 samples at (256, 4) and (128, 16).
  block_histBINS_sort, the same counts by algorithm="sort" against BLOCK_HISTO_SORT:
        block_hist256_sort of uint8 samples at (128, 4) and (256, 8); block_hist64_sort of int32
        samples at (256, 4) and (128, 16); block_hist1024_sort of int32 samples at (256, 4).
        These rows compare two radix sorts and what follows them: CUB's sorts every bit of the
        samples (4-bit digits: 2 passes for uint8, 8 for int32), then finds each bin's run with
        BlockDiscontinuity; coop's sorts the bins as int32 keys over the bits of BINS + 1 values
        (a sample outside the bins sorts last: 3 passes for 256 and 1024 bins, 2 for 64), then
        records the runs' bounds (docs/histogram.md). Both take a bin's count from its run.
The kernels are the reference's (its header documents them):

  tile: one tile per block (1<<30 uint8 / 1<<28 int32 samples, full tiles), loaded blocked
        (coop.load(..., algorithm="direct")) -> coop.histogram(block, samples, bins=BINS,
        algorithm=..., out=hist): the block counts in shared scratch and adds each non-zero bin
        to the global histogram `hist` (BINS uint32, zeroed before the checked launch) by one
        atomic, as the reference's BlockHistogram, __syncthreads() and per-bin atomicAdd; GB/s
        of the input.
  loop: --grid blocks load one tile, then --reps times {counts = coop.histogram(block, samples,
        bins=BINS, algorithm=...) (fresh striped counters: slot s of thread t holds bin
        t + s * BLOCK, S = ceil(BINS / BLOCK) slots); sample i = (sample i + counts[i % S]) &
        (BINS - 1)}, then store; ns/op = (t(reps) - t(0)) * SMs / (grid * reps), one block
        histogram (with the update) an iteration. coop's histogram leaves its samples in place;
        CUB's sort permutes the array it counts, so the reference's loop counts a register copy
        (the atomic rows' PTX is the same without it). The repetition is `rep = np.int32(0);
        while rep < reps: ...; rep = np.int32(rep + 1)`, as in numba_exchange.py
        (--range-loop: `for _ in range(reps)`).

The sample at position j is ((uint32)(j * 2654435761) >> 12) % BINS (numba_select.py's input
reduced to the bins: every sample is a bin, in no regular pattern), on both sides. CUB's
algorithms index their counters (atomic) and run bounds (sort) unchecked; coop counts a sample
only in [0, BINS), one compare a sample (folded away by the atomic algorithm for uint8 samples
and 256 bins).

--read-only passes the input as a read-only array (gpu_timing.ReadOnly, no copy), the Numba form
of the reference's `const T* __restrict__` input (coop.load then reads int32 samples through
ld.global.nc, as nvcc reads the reference's; coop reads 32- and 64-bit items only so
(readsNonCoherent in lib/Conversion/CoopToGPU/ItemAccess.cpp): its uint8 loads stay ld.global.u8
where nvcc's are ld.global.nc.u8); with --compile-only, the kernels are compiled for a read-only
input.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against NumPy, as the reference checks its own: tile rows compare the whole
global histogram (a tile kernel's one output, the sum over every tile, so not sampled) with the
input's np.bincount (see input_samples); loop rows compare every sample of the sampled tiles (0,
97, 194, ... and the last) after --reps steps with the steps of cuda.coop._models.histogram_model
(np.bincount into fresh striped counters), the same model for both algorithms. The ok column
is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop rows
(> 1: coop is faster); the summary adds their geometric means, per kernel, per algorithm and
per mode.

Facts (a/b = coop/CUB), as numba_exchange.py's: smem is the kernel's shared memory (our PTX's
.shared bytes: atomic rows the scratch of BINS int32 or uint32 counters, sort rows the union of
the sort's scratch and the runs' bounds, no counters; CUB's BINS unsigned ints, and on sort rows
sizeof(TempStorage), its union of the same); bar and wsync count block barriers
(bar.sync/barrier.sync) and warp barriers (bar.warp.sync) in the PTX, per tile (tile rows:
atomic BlockHistogram's and the reader's, 2) or per loop iteration (loop rows: CUB's loop is
`#pragma unroll 1`, so its PTX count, with the reuse barrier 3 for atomic rows; for ours, the
count from the kernel's optimized MLIR before LLVM). On sort rows the digit passes are a loop,
so a count is one pass's and the code around it, not one sort's (as numba_radix_sort.py's);
CUB's loop runs over every bit, ours over a constant bit range that LLVM may unroll (the 2
passes of 64 and 256 bins), so on sort rows the tile's PTX count may exceed its MLIR count
and is not checked against it. local is our kernel's local memory in bytes per thread (the driver's
attribute on the GPU, ptxas -v with --compile-only), which must be 0.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import ReadOnly, coop_jit, repeat_lines

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import family_cli  # noqa: E402
from numba_exchange import reference_rows, run_reference_binary, sample  # noqa: E402
from numba_select import chosen, input_pattern  # noqa: E402

REFERENCE = HERE / "reference" / "cub_histogram.cu"
BINARY = "cub_histogram"

# The reference's configurations (add_all in cub_histogram.cu), in its order: algorithm,
# sample dtype, bins, block, samples a thread.
CONFIGS = (("atomic", "uint8", 256, 128, 4), ("atomic", "uint8", 256, 256, 4),
           ("atomic", "uint8", 256, 256, 8), ("atomic", "uint8", 256, 512, 2),
           ("atomic", "uint8", 256, 1024, 4),
           ("sort", "uint8", 256, 128, 4), ("sort", "uint8", 256, 256, 8),
           ("atomic", "int32", 64, 256, 4), ("atomic", "int32", 64, 128, 16),
           ("sort", "int32", 64, 256, 4), ("sort", "int32", 64, 128, 16),
           ("atomic", "int32", 1024, 256, 4), ("atomic", "int32", 1024, 128, 16),
           ("sort", "int32", 1024, 256, 4))
DTYPES = {"uint8": np.uint8, "int32": np.int32}
TOTAL_BYTES = 1 << 30  # the reference's buffer: 1 GiB
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    dtype: str   # the samples': "uint8" or "int32"
    bins: int
    block: int
    ipt: int
    algorithm: str = "atomic"  # coop.histogram's and CUB's: "atomic" or "sort"

    @property
    def mode(self) -> str:
        return f"block_hist{self.bins}" + ("_sort" if self.algorithm == "sort" else "")

    @property
    def counted_per_pass(self) -> bool:
        """Barriers counted once per digit pass of a loop LLVM may unroll (sort rows)."""
        return self.algorithm == "sort"

    @property
    def width(self) -> int:
        """0: the group is the block (the histogram is a block collective only)."""
        return 0

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def slots(self) -> int:
        """Fresh counters a thread: ceil(bins / block)."""
        return -(-self.bins // self.block)

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    return [Config(k, dtype, bins, block, ipt, algorithm)
            for algorithm, dtype, bins, block, ipt in CONFIGS for k in ("tile", "loop")]


# ---- the kernels ---------------------------------------------------------------------------

def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def kernel_source(c: Config, range_loop: bool = False) -> str:
    B, I = c.block, c.ipt
    arguments = "src, hist" if c.kernel == "tile" else "src, dst, reps"
    lines = [f"def {kernel_name(c)}({arguments}):",
             "    block = coop.this_block()",
             f"    base = cuda.blockIdx.x * {B * I}",
             f"    a = coop.ThreadData({I})",
             '    coop.load(block, src, a, offset=base, algorithm="direct")']
    options = f'bins={c.bins}, algorithm="{c.algorithm}"'
    if c.kernel == "tile":
        lines.append(f"    coop.histogram(block, a, {options}, out=hist)")
    else:
        head, tail = repeat_lines(range_loop)
        lines += head
        lines += [f"        counts = coop.histogram(block, a, {options})",
                  f"        for i in range({I}):",
                  f"            a[i] = (a[i] + counts[i % {c.slots}]) & {c.bins - 1}"]
        lines += tail
        lines.append('    coop.store(block, dst, a, offset=base, algorithm="direct")')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np}
    exec(compile(kernel_source(c, range_loop), f"<{' '.join(map(str, c.key))}>", "exec"),
         namespace)
    return coop_jit(cuda, namespace[kernel_name(c)], lto)


def argtypes(c: Config, read_only: bool = False) -> list:
    """The kernel's argument types; `read_only`: the input is a read-only array, as a
    gpu_timing.ReadOnly argument is typed."""
    from numba_cuda_mlir import types

    array = (types.uint8 if c.dtype == "uint8" else types.int32)[::1]
    source = types.Array(array.dtype, 1, "C", readonly=True) if read_only else array
    if c.kernel == "tile":
        return [source, types.uint32[::1]]
    # reps is an int32, as the reference's `int reps` (see numba_exchange.argtypes).
    return [source, array, types.int32]


# ---- the input and the NumPy model ---------------------------------------------------------

def input_samples(n: int, dtype, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """(the reference's n samples, ((uint32)(j * 2654435761) >> 12) % bins, and their
    histogram). For power-of-two bins a sample is bits 12 .. 12 + log2(bins) of j * 2654435761,
    which depend on j mod 2^(12 + log2(bins)) only: the samples are one such period repeated."""
    assert bins & (bins - 1) == 0, "power-of-two bins"
    period = 1 << (12 + bins.bit_length() - 1)
    assert n % period == 0, (n, period)
    one = (input_pattern(period, np.int64) % bins).astype(dtype)
    return np.tile(one, n // period), np.bincount(one, minlength=bins) * (n // period)


def loop_model(c: Config, inputs: np.ndarray, reps: int) -> np.ndarray:
    """Loop rows: the output tiles after `reps` histogram-and-update steps on input tiles
    [k, block * ipt] (blocked: thread t's sample i at t * ipt + i)."""
    from cuda.coop._models import histogram_model

    slot = np.arange(c.ipt) % c.slots
    out = np.empty_like(inputs)
    for k in range(len(inputs)):
        r = inputs[k].reshape(c.block, c.ipt)
        for _ in range(reps):
            counts = histogram_model(r, c.bins, c.block)  # [block, slots]
            r = ((r.astype(np.int64) + counts[:, slot]) & (c.bins - 1)).astype(r.dtype)
        out[k] = r.reshape(-1)
    return out


# ---- the CUB reference ---------------------------------------------------------------------
# numba_exchange's parser and kernel names know int32 and f64 items; these are its forms with
# uint8 and int32 samples (run_reference_binary's own parse of the output is not used).

LINE = re.compile(r"(tile|loop)\s+(\w+)\s+(uint8|int32)\s+block=\s*(\d+) ipt=\s*(\d+)"
                  r" width=\s*(\d+)\s+ms=\s*([\d.]+)\s+"
                  r"(?:GB/s=\s*([\d.]+)|base_ms=\s*([\d.]+) ns/op=\s*(-?[\d.]+))"
                  r"\s+temp=\s*(\d+)\s+(OK|FAIL)")
CUB_NAME = re.compile(r"(tile|loop)_kernel<histo_(atomic|sort),\s*(unsigned char|int),"
                      r"\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+)>")


def parse_reference(out: str) -> dict:
    return reference_rows(out, LINE)


def cub_key(pretty: str):
    m = CUB_NAME.search(pretty)
    if not m:
        return None
    dtype = "uint8" if m.group(3) == "unsigned char" else "int32"
    return Config(m.group(1), dtype, int(m.group(4)), int(m.group(5)), int(m.group(6)),
                  m.group(2)).key


def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in chosen(configurations(), filters)}
    _, _, out = run_reference_binary(directory, REFERENCE, expected, filters, options)
    return parse_reference(out), family_cli.cub_barriers(directory / BINARY, cub_key), out


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    from numba_cuda_mlir import cuda

    run = family_cli.CoopRun(options, SLEEP_US, TOTAL_BYTES)
    buffers: dict = {}
    for c in run.each(configs):
        if (c.dtype, c.bins) not in buffers:
            buffers.clear()
            n = TOTAL_BYTES // np.dtype(c.numpy_dtype).itemsize
            host, whole = input_samples(n, c.numpy_dtype, c.bins)
            src = cuda.to_device(host)
            buffers[c.dtype, c.bins] = (host, whole, src, ReadOnly(src) if options.read_only
                                        else src, cuda.device_array(n, c.numpy_dtype),
                                        cuda.to_device(np.zeros(n, c.numpy_dtype)))
        host, whole, _, source, out, zeros = buffers[c.dtype, c.bins]
        tile = c.block * c.ipt
        kernel = make_kernel(c, options.lto, options.range_loop)
        if c.kernel == "tile":
            grid, reps = host.size // tile, 0
            hist = cuda.to_device(np.zeros(c.bins, np.uint32))
            args = (source, hist)
            kernel[grid, c.block](*args)
            cuda.synchronize()
            ok = bool(np.array_equal(hist.copy_to_host(), whole))
        else:
            grid, reps = run.loop_grid(tile, host.size)
            args = (source, out, np.int32(reps))
            out.copy_to_device(zeros)
            kernel[grid, c.block](*args)
            cuda.synchronize()
            picked = sample(grid)
            got = out[:grid * tile].copy_to_host().reshape(grid, tile)[picked]
            inputs = host[:grid * tile].reshape(grid, tile)[picked]
            ok = bool(np.array_equal(got, loop_model(c, inputs, reps)))
        run.add(c, kernel, grid, args, ok, grid * tile * np.dtype(c.numpy_dtype).itemsize, reps)
    return run.result()


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop), argtypes(c, options.read_only)))


# ---- the summary ---------------------------------------------------------------------------

def print_geomeans(summary: dict) -> None:
    """The geometric mean of the coop/CUB ratios, per kernel; per algorithm (a row is against
    CUB's same algorithm, so "all" mixes two comparisons) and per mode."""
    for kind, ratios in summary["ratios"].items():
        if not ratios:
            continue
        parts = [f"all {family_cli.geomean([r for r, _ in ratios]):.3f} ({len(ratios)} rows)"]
        for attribute in ("algorithm", "mode"):
            for value in dict.fromkeys(getattr(c, attribute) for _, c in ratios):
                mine = [r for r, c in ratios if getattr(c, attribute) == value]
                parts.append(f"{value} {family_cli.geomean(mine):.3f} ({len(mine)})")
        print(f"{kind}: geometric mean coop/CUB: " + ", ".join(parts))


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_histogram", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop,
        read_only="pass the input read-only (ld.global.nc), as the reference's "
                  "const T* __restrict__",
        variant=lambda args: "input read-only" if args.read_only else "",
        geomeans=print_geomeans), argv)


if __name__ == "__main__":
    sys.exit(main())
