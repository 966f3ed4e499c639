"""cuda.coop.run_length_decode in Numba-CUDA-MLIR kernels against CUB's block run-length decode
(cub::BlockRunLengthDecode<T, BLOCK, RUNS, DECODED>, benchmarks/reference/cub_run_length_decode.cu),
in one run on the GPU.

  python3 benchmarks/numba_run_length_decode.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_run_length_decode.py DIR [filters] --compile-only  # PTX, no GPU

The filters and options are cub_run_length_decode's own ("all" matches anything; float64
matches f64) and go to both sides. The run builds the reference with nvcc -O3 -arch=sm_90 into
DIR (skipped while DIR/cub_run_length_decode is newer than the .cu), checks that its `list` is
this script's configurations, runs it, then runs the same configurations as @cuda.jit kernels
(coop.run_length_decode with coop's planned scratch: no temp_storage, and none of the barriers
CUB users write -- coop plans them) and prints one table.

Modes: block_rld_runsR, R runs a thread (blocked: thread t holds runs t*R .. t*R+R-1) decoded
into windows of IPT items a thread (CUB's DECODED_ITEMS_PER_THREAD; WIDTH is 0: the block), at
(BLOCK, R, IPT) = (128, 2, 4), (128, 4, 8), (256, 1, 4), (256, 2, 2), (512, 2, 4), (1024, 1, 2)
for int32 values and (128, 4, 8), (512, 2, 4) for f64 values; the lengths are uint32. The
kernels are the reference's (its header documents them):

  tile: tiles = (1 GiB / itemsize) // (BLOCK * max(R, IPT)), one a block: the block's values and
        lengths loaded blocked (coop.load(..., algorithm="direct")) -> items, total =
        coop.run_length_decode(block, values, lengths, decoded_items_per_thread=IPT,
        total_decoded_size=True), the first window -> the items stored blocked, thread 0's total
        to totals[block]; GB/s of the decoded output written (tiles * BLOCK * IPT * itemsize /
        time; the kernel also reads R / IPT as many values and as many uint32 lengths).
  loop: --grid blocks load their runs once, then --reps times {items, total =
        coop.run_length_decode(..., decoded_window_offset=offset, total_decoded_size=True);
        value i = items[i % IPT] for i < R, then value i % R += items[i] for R <= i < IPT
        (every decoded item is read: none is dead code on either side); offset += BLOCK * IPT, back to 0 where the next
        window would pass the total} from offset 0 (a uint32, the decoder's offset type), then store the
        values; ns/op = (t(reps) - t(0)) * SMs / (grid * reps), one decode (with the update) an
        iteration. CUB constructs its decoder (the lengths' scan, the runs to shared memory)
        each iteration, as coop's op takes the runs each call. The repetition is `rep =
        np.int32(0); while rep < reps: ...; rep = np.int32(rep + 1)`, as in numba_exchange.py
        (--range-loop: `for _ in range(reps)`).

The runs, on both sides: run j's value is (uint32)(j * 2654435761) >> 12 (numba_select.py's
input), its length 4 + ((uint32)(j * 2654435761) >> 29), 4 .. 11 (see run_lengths): every
window of the kernels lies inside its stream, where the two agree (past the end CUB repeats the
last run and coop gives 0, and CUB leaves an offset past the length undefined), and no run is
empty (CUB allows zero-length runs only last).

--read-only passes the values and lengths as read-only arrays (gpu_timing.ReadOnly, no copy), the
Numba form of the reference's `const T* __restrict__` inputs (coop.load then reads them through
ld.global.nc, as nvcc reads the reference's); with --compile-only, the kernels are compiled for
read-only inputs.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against NumPy (cuda.coop._models.run_length_decode_model: np.repeat of the
runs), as the reference checks its own: tile rows compare every block's total (the lengths'
sums) and the window of the sampled tiles (0, 97, 194, ... and the last); loop rows the values of
the sampled tiles after --reps steps. The ok column is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop rows
(> 1: coop is faster); the summary adds their geometric means, per kernel and per mode.

Facts (a/b = coop/CUB), as numba_exchange.py's: smem is the kernel's shared memory (our PTX's
.shared bytes: the runs' values, their offsets and the warps' sums; CUB's sizeof(TempStorage), a
union of its scan's storage and the runs' values and offsets); bar and wsync count block barriers
(bar.sync/barrier.sync/bar.red: coop's barrier after the runs reduces a predicate too) and warp
barriers (bar.warp.sync) in the PTX, per tile (tile rows) or per loop iteration (loop rows: CUB's
loop is `#pragma unroll 1`, so its PTX count, with the reuse barrier; for ours, the count from
the kernel's optimized MLIR before LLVM); local is our kernel's local memory in bytes per thread
(the driver's attribute on the GPU, ptxas -v with --compile-only), which must be 0.
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
from numba_select import chosen, input_pattern  # noqa: E402

REFERENCE = HERE / "reference" / "cub_run_length_decode.cu"
BINARY = "cub_run_length_decode"

# The reference's configurations (add_all in cub_run_length_decode.cu), in its order: value
# dtype, block, runs a thread, decoded items a thread.
CONFIGS = (("int32", 128, 2, 4), ("int32", 128, 4, 8), ("int32", 256, 1, 4),
           ("int32", 256, 2, 2), ("int32", 512, 2, 4), ("int32", 1024, 1, 2),
           ("f64", 128, 4, 8), ("f64", 512, 2, 4))
DTYPES = {"int32": np.int32, "f64": np.float64}
MIN_LENGTH = 4  # the reference's: at least every configuration's decoded / runs
TOTAL_BYTES = 1 << 30  # the reference's buffers: 1 GiB
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    dtype: str   # the values': "int32" or "f64"
    block: int
    runs: int
    ipt: int     # decoded items a thread

    @property
    def mode(self) -> str:
        return f"block_rld_runs{self.runs}"

    @property
    def width(self) -> int:
        """0: the group is the block (the decode is a block collective only)."""
        return 0

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]

    @property
    def tiles(self) -> int:
        """Tile rows' blocks: the larger of a block's runs and its window fills 1 GiB."""
        return TOTAL_BYTES // np.dtype(self.numpy_dtype).itemsize \
            // (self.block * max(self.runs, self.ipt))


def configurations() -> list[Config]:
    return [Config(k, dtype, block, runs, ipt) for dtype, block, runs, ipt in CONFIGS
            for k in ("tile", "loop")]


# ---- the kernels ---------------------------------------------------------------------------

def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def kernel_source(c: Config, range_loop: bool = False) -> str:
    B, R, D = c.block, c.runs, c.ipt
    last = "totals" if c.kernel == "tile" else "reps"
    lines = [f"def {kernel_name(c)}(values, lengths, dst, {last}):",
             "    block = coop.this_block()",
             f"    base = cuda.blockIdx.x * {B * R}",
             f"    v = coop.ThreadData({R})",
             '    coop.load(block, values, v, offset=base, algorithm="direct")',
             f"    n = coop.ThreadData({R})",
             '    coop.load(block, lengths, n, offset=base, algorithm="direct")']
    if c.kernel == "tile":
        lines += [f"    items, total = coop.run_length_decode(block, v, n, "
                  f"decoded_items_per_thread={D}, total_decoded_size=True)",
                  f"    coop.store(block, dst, items, offset=cuda.blockIdx.x * {B * D}, "
                  'algorithm="direct")',
                  "    if cuda.threadIdx.x == 0:",
                  "        totals[cuda.blockIdx.x] = total"]
    else:
        head, tail = repeat_lines(range_loop)
        lines.append("    offset = np.uint32(0)")
        lines += head
        lines += [f"        items, total = coop.run_length_decode(block, v, n, "
                  f"decoded_items_per_thread={D}, decoded_window_offset=offset, "
                  "total_decoded_size=True)",
                  f"        for i in range({R}):",
                  f"            v[i] = items[i % {D}]",
                  f"        for i in range({R}, {max(R, D)}):",
                  f"            v[i % {R}] = v[i % {R}] + items[i]",
                  f"        offset = np.uint32(offset + {B * D})",
                  f"        if np.uint32(offset + {B * D}) > total:",
                  "            offset = np.uint32(0)"]
        lines += tail
        lines.append('    coop.store(block, dst, v, offset=base, algorithm="direct")')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np}
    exec(compile(kernel_source(c, range_loop), f"<{' '.join(map(str, c.key))}>", "exec"),
         namespace)
    return coop_jit(cuda, namespace[kernel_name(c)], lto)


def argtypes(c: Config, read_only: bool = False) -> list:
    """The kernel's argument types; `read_only`: the values and lengths are read-only arrays,
    as gpu_timing.ReadOnly arguments are typed."""
    from numba_cuda_mlir import types

    array = (types.int32 if c.dtype == "int32" else types.float64)[::1]

    def source(dtype):
        return types.Array(dtype, 1, "C", readonly=True) if read_only else dtype[::1]
    inputs = [source(array.dtype), source(types.uint32)]
    if c.kernel == "tile":
        return inputs + [array, types.uint32[::1]]
    # reps is an int32, as the reference's `int reps` (see numba_exchange.argtypes).
    return inputs + [array, types.int32]


# ---- the input and the NumPy model ---------------------------------------------------------

def run_lengths(n: int) -> np.ndarray:
    """The reference's n lengths, MIN_LENGTH + ((uint32)(j * 2654435761) >> 29): the top three
    bits of the hash whose bits 12 .. 31 are the values (input_pattern)."""
    return (MIN_LENGTH + (input_pattern(n, np.uint32) >> 17)).astype(np.uint32)


def check_tile(c: Config, values: np.ndarray, lengths: np.ndarray, got: np.ndarray) -> bool:
    """Tile rows' windows: input tiles [k, block * runs] of values and lengths, output tiles
    [k, block * ipt]."""
    from cuda.coop._models import run_length_decode_model

    for k in range(len(values)):
        window, _ = run_length_decode_model(values[k].reshape(c.block, c.runs),
                                            lengths[k].reshape(c.block, c.runs), c.block, c.ipt)
        if not np.array_equal(got[k], window.reshape(-1)):
            return False
    return True


def loop_model(c: Config, values: np.ndarray, lengths: np.ndarray, reps: int) -> np.ndarray:
    """Loop rows: the value tiles after `reps` decode-and-update steps on input tiles
    [k, block * runs] of values and lengths."""
    from cuda.coop._models import run_length_decode_model

    out = np.empty_like(values)
    for k in range(len(values)):
        v = values[k].reshape(c.block, c.runs)
        n = lengths[k].reshape(c.block, c.runs)
        offset = 0
        for _ in range(reps):
            window, total = run_length_decode_model(v, n, c.block, c.ipt, offset)
            v = window[:, np.arange(c.runs) % c.ipt].copy()
            for i in range(c.runs, c.ipt):
                v[:, i % c.runs] += window[:, i]
            offset += c.block * c.ipt
            if offset + c.block * c.ipt > total:
                offset = 0
        out[k] = v.reshape(-1)
    return out


# ---- the CUB reference ---------------------------------------------------------------------
# Its kernels are tile_kernel<MODE, T, BLOCK, IPT> with a tag type per mode: numba_exchange's
# reader takes its output and its kernels' names as they are.

def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in chosen(configurations(), filters)}
    return run_reference_binary(directory, REFERENCE, expected, filters, options)


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    from numba_cuda_mlir import cuda

    run = family_cli.CoopRun(options, SLEEP_US, TOTAL_BYTES)
    lengths = run_lengths(TOTAL_BYTES // 4)
    lengths_device = cuda.to_device(lengths)
    lengths_source = ReadOnly(lengths_device) if options.read_only else lengths_device
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
        tile = c.block * c.runs
        kernel = make_kernel(c, options.lto, options.range_loop)
        out.copy_to_device(zeros)
        if c.kernel == "tile":
            grid, reps = c.tiles, 0
            totals = cuda.to_device(np.zeros(grid, np.uint32))
            args = (source, lengths_source, out, totals)
            kernel[grid, c.block](*args)
            cuda.synchronize()
            window = c.block * c.ipt
            picked = sample(grid)
            ok = bool(np.array_equal(totals.copy_to_host(),
                                     lengths[:grid * tile].reshape(grid, tile).sum(axis=1)))
            ok = ok and check_tile(c, host[:grid * tile].reshape(grid, tile)[picked],
                                   lengths[:grid * tile].reshape(grid, tile)[picked],
                                   out[:grid * window].copy_to_host().reshape(grid,
                                                                              window)[picked])
        else:
            grid, reps = run.loop_grid(tile, host.size)
            args = (source, lengths_source, out, np.int32(reps))
            kernel[grid, c.block](*args)
            cuda.synchronize()
            picked = sample(grid)
            got = out[:grid * tile].copy_to_host().reshape(grid, tile)[picked]
            expected = loop_model(c, host[:grid * tile].reshape(grid, tile)[picked],
                                  lengths[:grid * tile].reshape(grid, tile)[picked], reps)
            ok = bool(np.array_equal(got, expected))
        run.add(c, kernel, grid, args, ok,
                grid * c.block * c.ipt * np.dtype(c.numpy_dtype).itemsize, reps)
    return run.result()


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop), argtypes(c, options.read_only)))


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_run_length_decode", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop,
        read_only="pass the values and lengths read-only (ld.global.nc), as the "
                  "reference's const T* __restrict__",
        variant=lambda args: "inputs read-only" if args.read_only else ""), argv)


if __name__ == "__main__":
    sys.exit(main())
