"""cuda.coop.reduce_batched in Numba-CUDA-MLIR kernels against a hand-written CUDA C++ batched
warp reduction (benchmarks/reference/cub_reduce_batched.cu), in one run on the GPU.

  python3 benchmarks/numba_reduce_batched.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_reduce_batched.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_reduce_batched's own ("all" matches anything; float64 matches
f64) and go to both sides; IPT is the batch count B. The run builds the reference with nvcc -O3
-arch=sm_90 into DIR (skipped while DIR/cub_reduce_batched is newer than the .cu), checks that its
`list` is this script's configurations, runs it, then runs the same configurations as @cuda.jit
kernels (coop.reduce_batched of coop.this_warp() or coop.this_warp().group_by(WIDTH)) and prints
one table.

The reference is not CUB: the CCCL this was written against (CUDA 13.0's, CUB 3.0) has no
cub::WarpReduceBatched, so the reference writes by hand, in CUDA C++, the algorithm coop lowers
to (lib/Conversion/CoopToGPU/ReduceBatched.cpp): recursive halving, the batches padded to a
multiple of W with the lane's last item; for d = W/2 down to 1 the lane whose bit d is set keeps
the upper of each pair of partials and sends the lower (send = bit ? lo : hi; keep = bit ? hi :
lo; v = op(keep, __shfl_xor_sync(~0u, send, d, W))); striped results: slot i of lane r is batch
r + i*W; blocked: batch r*ceil(B/W) + i. Fully unrolled at compile time (no local memory). The
table's "CUB" column is that reference; the comparison is of code generation (nvcc's against
coop's lowering and Numba-CUDA-MLIR's) for one algorithm, not of two algorithms.

Modes: sum_striped, sum_blocked (int32 and f64), max_striped, max_blocked (int32); each in
(WIDTH, BLOCK, B) = (32, 128, 32), (32, 128, 64), (32, 256, 32), (16, 128, 16), (8, 128, 8),
(8, 128, 32), (32, 128, 8). The kernels are the reference's (its header documents them):

  tile: 1<<28 int32 / 1<<27 f64 items, thread g = blockIdx.x * BLOCK + threadIdx.x (lane
        r = g % W of the logical warp whose W * B items start at (g - r) * B, slot-major) loads
        its slot b from src[(g - r) * B + b * W + r] (coop.load(group, src, items,
        algorithm="striped", offset=blockIdx.x * BLOCK * B), which adds the logical warp's
        origin in the block: a warp's loads of one slot are coalesced),
        reduce_batched, writes its ceil(B/W) result slots the same way (coop.store, striped)
        to dst[(g - r) * S + i * W + r]; GB/s of the input. The reference indexes the same
        elements by hand (what cub::LoadDirectStriped<W> writes).
  loop: --grid blocks, each lane loads its B items once, then --reps times
        {out = reduce_batched(items); items[b] = fold(items[b], out[b % S])}, then stores its
        items where it loaded them; fold: int32 (v + r) & 0xFFFFF, f64 v * 0.5 + r * (0.5 / W);
        where B % W != 0, a result slot that holds no batch (unspecified) folds 0 instead. ns/op = (t(reps) - t(0))
        * SMs / (grid * reps): one step of a block (BLOCK/W reductions, with the fold).
        The repetition is `rep = np.int32(0); while rep < reps: ...; rep = np.int32(rep + 1)`,
        as in numba_exchange.py (--range-loop: `for _ in range(reps)`).

The input is (uint32)(j * 2654435761) >> 12 at position j (below 2^20), on both sides.

Both sides load with plain ld.global: the reference's pointers are not __restrict__ because
coop.load of a mutable array compiles to ld.global (there is no --read-only here, unlike
numba_select.py); a const __restrict__ input would read through ld.global.nc, a difference in
the loads rather than in the reduction.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against cuda.coop._models.reduce_batched_model (blocks 0, 97, 194, ... and
the last, as the reference does), logical warp by logical warp: tile rows compare the result
slots that reduce_batched_specified marks, loop rows every item after --reps steps. The model is
evaluated vectorized over the sampled warps (reduce_batched_model is a Python loop per slot);
that form is compared with reduce_batched_model itself on every warp of the first sampled block
(and, for loop rows, on the first step), and a disagreement fails the row. f64 compares to a
relative 1e-9 (the lanes combine in butterfly order; the tile sums are exact: integers below
2^25). The ok column is ours/the reference's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio against the reference: GB/s coop/ref for tile rows, ns/op
ref/coop for loop rows (> 1: coop is faster); the summary adds their geometric means, per kernel,
per mode and per width.

Facts (a/b = coop/reference), as numba_exchange.py's: smem is the kernel's shared memory (our
PTX's .shared bytes; the reference has none: 0); bar and wsync count block barriers
(bar.sync/barrier.sync) and warp barriers (bar.warp.sync) in the PTX, per tile (tile rows) or per
loop iteration (loop rows: the reference's loop is `#pragma unroll 1`, so its PTX count; for
ours, the count from the kernel's optimized MLIR before LLVM) -- all should be 0: the shuffles
are shfl.sync, no barrier; local is our kernel's local memory in bytes per thread (the driver's
attribute on the GPU, ptxas -v with --compile-only), which must be 0 (the reference's is 0 too).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import coop_jit, repeat_lines

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import family_cli  # noqa: E402
from numba_exchange import run_reference_binary, sample  # noqa: E402
from family_cli import geomean  # noqa: E402
from numba_select import input_pattern  # noqa: E402

REFERENCE = HERE / "reference" / "cub_reduce_batched.cu"
BINARY = "cub_reduce_batched"

# The reference's configurations (add_all in cub_reduce_batched.cu), in its order.
CONFIGS = ((32, 128, 32), (32, 128, 64), (32, 256, 32), (16, 128, 16), (8, 128, 8),
           (8, 128, 32), (32, 128, 8))  # width, block, batches (ipt)
MODES = {"int32": ("sum_striped", "sum_blocked", "max_striped", "max_blocked"),
         "f64": ("sum_striped", "sum_blocked")}
DTYPES = {"int32": np.int32, "f64": np.float64}
TOTAL_BYTES = 1 << 30  # the reference's buffer: 1 GiB
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)
RTOL = 1e-9  # f64 comparisons


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str    # "{sum,max}_{striped,blocked}"
    dtype: str   # "int32" or "f64"
    block: int
    ipt: int     # the batch count B
    width: int   # the logical warp's lanes W

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def op(self) -> str:
        return self.mode.split("_")[0]

    @property
    def layout(self) -> str:
        return self.mode.split("_")[1]

    @property
    def slots(self) -> int:
        """Result slots a lane: ceil(B / W)."""
        return -(-self.ipt // self.width)

    @property
    def warps(self) -> int:
        """Logical warps a block."""
        return self.block // self.width

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    out = []
    for dtype, modes in MODES.items():
        for width, block, ipt in CONFIGS:
            for mode in modes:
                out.extend(Config(k, mode, dtype, block, ipt, width) for k in ("tile", "loop"))
    return out


def chosen(configs, filters) -> list[Config]:
    """cub_reduce_batched's filter rule: "all" matches anything; float64 means f64."""
    filters = list(filters) + ["all"] * (6 - len(filters))

    def match(f, v):
        return f == "all" or f == str(v) or (f == "float64" and v == "f64")
    return [c for c in configs if all(match(f, v) for f, v in zip(filters, c.key))]


# ---- the kernels ---------------------------------------------------------------------------

def _fold(c: Config, item: str, result: str) -> str:
    """The loop's update of an item by a result, as the reference's fold."""
    if c.dtype == "int32":
        return f"({item} + {result}) & 0xFFFFF"
    return f"{item} * 0.5 + {result} * {0.5 / c.width!r}"


def _batch(c: Config, lane: str, slot: str) -> str:
    """The batch result slot `slot` of lane `lane` holds."""
    if c.layout == "striped":
        return f"{lane} + {slot} * {c.width}"
    return f"{lane} * {c.slots} + {slot}"


def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def kernel_source(c: Config, range_loop: bool = False) -> str:
    B, W, S = c.ipt, c.width, c.slots
    group = "coop.this_warp()" if W == 32 else f"coop.this_warp().group_by({W})"
    call = (f'out = coop.reduce_batched(group, items, binary_op="{c.op}", '
            f'output_layout="{c.layout}")')
    lines = [f"def {kernel_name(c)}(src, dst{', reps' if c.kernel == 'loop' else ''}):",
             f"    group = {group}",
             f"    items = coop.ThreadData({B})",
             # The block's origin: a warp group's load adds its logical warp's own.
             f'    coop.load(group, src, items, algorithm="striped", '
             f'offset=cuda.blockIdx.x * {c.block * B})']
    if c.kernel == "tile":
        lines += [f"    {call}",
                  f'    coop.store(group, dst, out, algorithm="striped", '
                  f'offset=cuda.blockIdx.x * {c.block * S})']
        return "\n".join(lines) + "\n"
    partial = B % W != 0  # some result slots hold no batch: they fold 0, as the reference's
    if partial:
        zero = "np.int32(0)" if c.dtype == "int32" else "0.0"
        dtype = "np.int32" if c.dtype == "int32" else "np.float64"
        lines += [f"    lane = cuda.threadIdx.x % {W}",
                  f"    r = cuda.local.array({S}, {dtype})"]
    head, tail = repeat_lines(range_loop)
    lines += head
    lines.append(f"        {call}")
    if partial:
        lines += [f"        for i in range({S}):",
                  f"            r[i] = out[i] if {_batch(c, 'lane', 'i')} < {B} else {zero}"]
    source = "r" if partial else "out"
    lines += [f"        for b in range({B}):",
              f"            items[b] = {_fold(c, 'items[b]', f'{source}[b % {S}]')}"]
    lines += tail
    lines.append(f'    coop.store(group, dst, items, algorithm="striped", '
                 f'offset=cuda.blockIdx.x * {c.block * B})')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np}
    exec(compile(kernel_source(c, range_loop), f"<{' '.join(map(str, c.key))}>", "exec"),
         namespace)
    return coop_jit(cuda, namespace[kernel_name(c)], lto)


def argtypes(c: Config) -> list:
    from numba_cuda_mlir import types

    array = (types.int32 if c.dtype == "int32" else types.float64)[::1]
    # reps is an int32, as the reference's `int reps` (see numba_exchange.argtypes).
    return [array, array] + ([types.int32] if c.kernel == "loop" else [])


# ---- the NumPy model -----------------------------------------------------------------------
# A block's threads are block // W logical warps of W consecutive threads, and a logical warp's
# W * B items are stored slot-major (lane r's slot b at b * W + r), so a block's items are
# [warps, B, W]; the models take them as [warps, W, B] (lane r's slot b at [w, r, b]).

def lanes(c: Config, stored: np.ndarray, grid: int, slots: int) -> np.ndarray:
    """`grid` blocks' items as the kernels store them ([grid, warps, slots, W]) in the models'
    order [grid, warps, W, slots]."""
    return stored.reshape(grid, c.warps, slots, c.width).swapaxes(-1, -2)


def batched(c: Config, values: np.ndarray) -> np.ndarray:
    """reduce_batched_model vectorized over leading axes: values [..., W, B] -> each lane's
    result slots [..., W, S] (slots that hold no batch: 0, where the loop folds 0)."""
    if c.op == "sum":
        reduced = values.sum(axis=-2, dtype=values.dtype)
    else:
        reduced = values.max(axis=-2)
    W, B, S = c.width, c.ipt, c.slots
    padded = np.zeros(reduced.shape[:-1] + (S * W,), values.dtype)
    padded[..., :B] = reduced
    r, i = np.meshgrid(np.arange(W), np.arange(S), indexing="ij")
    return padded[..., r + i * W if c.layout == "striped" else r * S + i]


def _equal(c: Config, got: np.ndarray, expected: np.ndarray) -> bool:
    if c.dtype == "f64":
        return bool(np.allclose(got, expected, rtol=RTOL, atol=0.0))
    return bool(np.array_equal(got, expected))


def agrees_with_model(c: Config, values: np.ndarray) -> bool:
    """batched() against cuda.coop._models.reduce_batched_model on every warp of values
    [warps, W, B], on the slots reduce_batched_specified marks."""
    from cuda.coop._models import reduce_batched_model, reduce_batched_specified

    mine = batched(c, values)
    specified = reduce_batched_specified(c.width, c.ipt, c.layout)
    return all(_equal(c, mine[w][specified],
                      reduce_batched_model(c.op, values[w], c.layout)[specified])
               for w in range(len(values)))


def check_tile(c: Config, inputs: np.ndarray, got: np.ndarray) -> bool:
    """Tile rows: inputs [k, warps, W, B], results [k, warps, W, S]; the specified slots."""
    from cuda.coop._models import reduce_batched_specified

    if not agrees_with_model(c, inputs[0]):
        return False
    specified = reduce_batched_specified(c.width, c.ipt, c.layout)
    return _equal(c, got[..., specified], batched(c, inputs)[..., specified])


def fold(c: Config, items: np.ndarray, results: np.ndarray) -> np.ndarray:
    """The loop's update: items [..., W, B] by results [..., W, S] (item b by slot b % S)."""
    r = results[..., np.arange(c.ipt) % c.slots]
    if c.dtype == "int32":
        return (items + r) & np.int32(0xFFFFF)
    return items * 0.5 + r * (0.5 / c.width)


def loop_model(c: Config, inputs: np.ndarray, reps: int) -> np.ndarray | None:
    """Loop rows: the items [k, warps, W, B] after `reps` steps; None where batched() and
    reduce_batched_model disagree on the first step."""
    if reps and not agrees_with_model(c, inputs[0]):
        return None
    items = inputs.copy()
    for _ in range(reps):
        items = fold(c, items, batched(c, items)).astype(items.dtype)
    return items


# ---- the reference -------------------------------------------------------------------------

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
            buffers[c.dtype] = (host, cuda.to_device(host), cuda.device_array(n, c.numpy_dtype),
                                cuda.to_device(np.zeros(n, c.numpy_dtype)))
        host, source, out, zeros = buffers[c.dtype]
        per_block = c.block * c.ipt  # input items a block
        kernel = make_kernel(c, options.lto, options.range_loop)
        if c.kernel == "tile":
            grid, reps = host.size // per_block, 1
            args = (source, out)
        else:
            grid, reps = run.loop_grid(per_block, host.size)
            args = (source, out, np.int32(reps))
        out.copy_to_device(zeros)
        kernel[grid, c.block](*args)
        cuda.synchronize()
        picked = sample(grid)
        inputs = lanes(c, host[:grid * per_block], grid, c.ipt)[picked]
        if c.kernel == "tile":
            got = lanes(c, out[:grid * c.block * c.slots].copy_to_host(), grid, c.slots)[picked]
            ok = check_tile(c, inputs, got)
        else:
            got = lanes(c, out[:grid * per_block].copy_to_host(), grid, c.ipt)[picked]
            expected = loop_model(c, inputs, reps)
            ok = expected is not None and _equal(c, got, expected)
        run.add(c, kernel, grid, args, ok, grid * per_block * np.dtype(c.numpy_dtype).itemsize,
                reps)
    return run.result()


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop), argtypes(c)))


# ---- the summary ---------------------------------------------------------------------------

def print_geomeans(summary: dict) -> None:
    """The geometric mean of the coop/reference ratios, per kernel; per mode, dtype and width."""
    for kind, ratios in summary["ratios"].items():
        if not ratios:
            continue
        parts = [f"all {geomean([r for r, _ in ratios]):.3f} ({len(ratios)} rows)"]
        for name, attribute in (("", "mode"), ("", "dtype"), ("width ", "width")):
            for value in dict.fromkeys(getattr(c, attribute) for _, c in ratios):
                mine = [r for r, c in ratios if getattr(c, attribute) == value]
                parts.append(f"{name}{value} {geomean(mine):.3f} ({len(mine)})")
        print(f"{kind}: geometric mean coop/reference: " + ", ".join(parts))


REFERENCE_NOTE = ("CUB column: the hand-written CUDA C++ reduce_batched of " + REFERENCE.name +
                  " (this CCCL has no cub::WarpReduceBatched): the same algorithm as coop's")


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_reduce_batched", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop, note=REFERENCE_NOTE, geomeans=print_geomeans), argv)


if __name__ == "__main__":
    sys.exit(main())
