"""cuda.coop.merge_sort_keys and merge_sort_pairs in Numba-CUDA-MLIR kernels against CUB's block
and warp merge sorts (cub::BlockMergeSort<K, BLOCK, IPT, V> and cub::WarpMergeSort<K, IPT, W>,
benchmarks/reference/cub_merge_sort.cu), in one run on the GPU.

  python3 benchmarks/numba_merge_sort.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_merge_sort.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_merge_sort's own ("all" matches anything) and go to both sides.
The run builds the reference with nvcc -O3 -arch=sm_90 into DIR (skipped while DIR/cub_merge_sort
is newer than the .cu), checks that its `list` is this script's configurations, runs it, then
runs the same configurations as @cuda.jit kernels (coop.merge_sort_keys / merge_sort_pairs with
their default order, `<`, and coop's planned scratch: no temp_storage, and none of the barriers
CUB users write -- coop plans them) and prints one table.

Modes (ascending by `<`, CUB's by a `less` functor, which its merge sorts require; blocked in and
out: thread t's item i is its group's sorted position t * IPT + i, t counted in the group):
block_merge_keys (WIDTH 0: the block), keys = coop.merge_sort_keys(block, keys) (CUB's Sort(keys,
less)), of int32 keys at (BLOCK, IPT) = (128, 4), (256, 4), (256, 8), (512, 2), float32 at
(256, 4) and uint64 at (128, 4); block_merge_pairs (WIDTH 0), keys, values =
coop.merge_sort_pairs(block, keys, values) (CUB's Sort(keys, values, less)) with int32 values, of
int32 keys at (256, 4) and float32 at (128, 8); warp_merge_keys (WIDTH: the logical warp's lanes),
keys = coop.merge_sort_keys(warp, keys) with warp = coop.this_warp() (WIDTH 32) or
coop.this_warp().group_by(WIDTH) (CUB's WarpMergeSort<K, IPT, WIDTH>, each warp its own
TempStorage slot), each logical warp sorting its own WIDTH * IPT keys of the block's tile (warp
w's starts at w * WIDTH * IPT), of int32 keys at (WIDTH, BLOCK, IPT) = (32, 128, 4) and
(16, 128, 8). Both sides' sorts are stable (CUB's Sort is its StableSort). The kernels are the
reference's (its header documents them):

  tile: one tile per block (1 GiB of keys: 1<<30 / itemsize, full tiles; pairs as many int32
        values), loaded blocked (coop.load(..., algorithm="direct") of the sort's group) ->
        sorted -> stored blocked; GB/s of the input read, keys and values.
  loop: --grid blocks load one tile, then --reps times {sort; key i = update(sorted key i, i)},
        then store; ns/op = (t(reps) - t(0)) * SMs / (grid * reps), one iteration of a block (its
        sort, or its BLOCK / WIDTH warps' sorts, with the update) an op. The update gives the
        next sort keys out of order, as numba_radix_sort.py's: integer keys k * 2654435761 + i
        in the key's width (a bijection), float keys i - k (one IEEE subtraction that the
        reference's nvcc cannot fuse, so NumPy rounds as both GPUs do); values only move with
        their keys. The repetition is `rep = np.int32(0); while rep < reps: ...; rep =
        np.int32(rep + 1)`, as in numba_exchange.py (--range-loop: `for _ in range(reps)`).

The keys, on both sides, are numba_radix_sort.py's (input_keys): position j's is a hash of j,
h = (uint32)(j * 2654435761) spread over the key's range: int32 h as signed, uint64
h * 0x9E3779B97F4A7C15, float32 ((int32)h >> 8) / 4096 (exact, both signs). Position j's value is
j (int32), so that the sorted values are the sort's order.

--read-only passes the keys and values as read-only arrays (gpu_timing.ReadOnly, no copy), the
Numba form of the reference's `const K* __restrict__` inputs (coop.load then reads them through
ld.global.nc, as nvcc reads the reference's); with --compile-only, the kernels are compiled for
read-only inputs.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against NumPy, as the reference checks its own: each group's tile of the
sampled tiles (0, 97, 194, ... and the last) sorted by np.argsort(kind="stable"), keys compared
bitwise and values as the moved positions; loop rows after --reps sort-and-update steps (see
model). The ok column is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop rows
(> 1: coop is faster); the summary adds their geometric means, per kernel and per mode.

Facts (a/b = coop/CUB), as numba_exchange.py's: smem is the kernel's shared memory (our PTX's
.shared bytes: the group's keys and one more, in a union with the values, a region per warp for
warp sorts, rounded up to 16 bytes; CUB's sizeof(TempStorage), the same union, of every warp's
slot for warp sorts); bar and wsync count block barriers (bar.sync/barrier.sync) and
warp barriers (bar.warp.sync) in the code, where both sides keep the log2(group) merge rounds a
loop (coop's lowering, for its compile time; nvcc does not unroll CUB's), so a count is one
round's (two barriers, four with values; coop's first round skips its leading one at run time)
and the code around it, not one sort's: per tile (tile rows) or per loop iteration (loop rows:
CUB's loop is `#pragma unroll 1`, so its PTX count, with the reuse barrier; for ours, the count
from the kernel's optimized MLIR before LLVM, which the tile rows check against their PTX's);
local is our kernel's local memory in bytes per thread (the driver's attribute on the GPU,
ptxas -v with --compile-only), which must be 0.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import coop_jit, repeat_lines

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import family_cli  # noqa: E402
from numba_exchange import reference_rows, run_reference_binary  # noqa: E402
from numba_radix_sort import run_sorts, update, update_expression  # noqa: E402
from numba_select import chosen  # noqa: E402

REFERENCE = HERE / "reference" / "cub_merge_sort.cu"
BINARY = "cub_merge_sort"

# The reference's configurations (add_all in cub_merge_sort.cu), in its order: mode, key dtype,
# block, keys a thread, logical warp width (0: the block).
CONFIGS = (("block_merge_keys", "int32", 128, 4, 0), ("block_merge_keys", "int32", 256, 4, 0),
           ("block_merge_keys", "int32", 256, 8, 0), ("block_merge_keys", "int32", 512, 2, 0),
           ("block_merge_keys", "float32", 256, 4, 0), ("block_merge_keys", "uint64", 128, 4, 0),
           ("block_merge_pairs", "int32", 256, 4, 0), ("block_merge_pairs", "float32", 128, 8, 0),
           ("warp_merge_keys", "int32", 128, 4, 32), ("warp_merge_keys", "int32", 128, 8, 16))
DTYPES = {"int32": np.int32, "float32": np.float32, "uint64": np.uint64}


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str    # "block_merge_keys", "block_merge_pairs" or "warp_merge_keys"
    dtype: str   # the keys'
    block: int
    ipt: int
    width: int   # 0: the block; else the logical warp's lanes

    @property
    def counted_per_pass(self) -> bool:
        """False: LLVM keeps the merge rounds' loop, so a tile's barriers in its PTX and in
        its MLIR agree; report_checks compares them (the loop has a constant trip count, and
        an unrolling would show in the PTX's)."""
        return False

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def pairs(self) -> bool:
        return self.mode == "block_merge_pairs"

    @property
    def group(self) -> int:
        """The threads of one sort."""
        return self.width or self.block

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    return [Config(k, mode, dtype, block, ipt, width) for mode, dtype, block, ipt, width in CONFIGS
            for k in ("tile", "loop")]


# ---- the kernels ---------------------------------------------------------------------------

def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def group_expression(c: Config) -> str:
    if c.width == 0:
        return "coop.this_block()"
    return "coop.this_warp()" if c.width == 32 else f"coop.this_warp().group_by({c.width})"


def kernel_source(c: Config, range_loop: bool = False) -> str:
    B, I = c.block, c.ipt
    inputs, outputs = ("src, values", "dst, values_out") if c.pairs else ("src", "dst")
    last = "" if c.kernel == "tile" else ", reps"
    lines = [f"def {kernel_name(c)}({inputs}, {outputs}{last}):",
             f"    group = {group_expression(c)}",
             f"    base = cuda.blockIdx.x * {B * I}",
             f"    a = coop.ThreadData({I})",
             '    coop.load(group, src, a, offset=base, algorithm="direct")']
    if c.pairs:
        lines += [f"    v = coop.ThreadData({I})",
                  '    coop.load(group, values, v, offset=base, algorithm="direct")']
    sort = ("k, w = coop.merge_sort_pairs(group, a, v)" if c.pairs
            else "k = coop.merge_sort_keys(group, a)")
    if c.kernel == "tile":
        lines.append(f"    {sort}")
        keys, moved = "k", "w"
    else:
        head, tail = repeat_lines(range_loop)
        lines += head
        lines += [f"        {sort}",
                  f"        for i in range({I}):",
                  f"            a[i] = {update_expression(c, 'k[i]')}"]
        if c.pairs:
            lines.append("            v[i] = w[i]")
        lines += tail
        keys, moved = "a", "v"
    lines.append(f'    coop.store(group, dst, {keys}, offset=base, algorithm="direct")')
    if c.pairs:
        lines.append(f'    coop.store(group, values_out, {moved}, offset=base, '
                     'algorithm="direct")')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np}
    exec(compile(kernel_source(c, range_loop), f"<{' '.join(map(str, c.key))}>", "exec"),
         namespace)
    return coop_jit(cuda, namespace[kernel_name(c)], lto)


def argtypes(c: Config, read_only: bool = False) -> list:
    """The kernel's argument types; `read_only`: the keys and values are read-only arrays, as
    gpu_timing.ReadOnly arguments are typed."""
    from numba_cuda_mlir import types

    key = getattr(types, c.dtype)

    def source(dtype):
        return types.Array(dtype, 1, "C", readonly=True) if read_only else dtype[::1]
    if c.pairs:
        arrays = [source(key), source(types.int32), key[::1], types.int32[::1]]
    else:
        arrays = [source(key), key[::1]]
    # reps is an int32, as the reference's `int reps` (see numba_exchange.argtypes).
    return arrays if c.kernel == "tile" else arrays + [types.int32]


# ---- the NumPy model -----------------------------------------------------------------------

def model(c: Config, inputs: np.ndarray, positions: np.ndarray, sorts: int,
          updated: bool) -> tuple[np.ndarray, np.ndarray]:
    """The key tiles and their values (the input positions) after `sorts` sorts of input tiles
    [k, block * ipt] at `positions` [k, block * ipt], each group's tile (group * ipt keys)
    sorted on its own by a stable sort, each sort followed by the loop's update where
    `updated`."""
    rows = (-1, c.group * c.ipt)
    keys, values = inputs.reshape(rows), positions.reshape(rows)
    for _ in range(sorts):
        order = np.argsort(keys, axis=1, kind="stable")
        keys = np.take_along_axis(keys, order, axis=1)
        values = np.take_along_axis(values, order, axis=1)
        if updated:
            # Every group's tile is whole threads' items, so position p is item p % ipt.
            keys = update(keys.reshape(-1), c.ipt).reshape(rows)
    return keys.reshape(inputs.shape), values.reshape(positions.shape)


# ---- the CUB reference ---------------------------------------------------------------------

LINE = re.compile(r"(tile|loop)\s+(block_merge_keys|block_merge_pairs|warp_merge_keys)\s+(\w+)"
                  r"\s+block=\s*(\d+) ipt=\s*(\d+) width=\s*(\d+)\s+ms=\s*([\d.]+)\s+"
                  r"(?:GB/s=\s*([\d.]+)|base_ms=\s*([\d.]+) ns/op=\s*(-?[\d.]+))"
                  r"\s+temp=\s*(\d+)\s+(OK|FAIL)")
C_TYPES = {"int": "int32", "float": "float32", "unsigned long": "uint64",
           "unsigned long long": "uint64"}
CUB_NAME = re.compile(r"(tile|loop)_kernel<(block_merge_keys|block_merge_pairs|warp_merge_keys)"
                      r"(?:<(?:\(int\))?(\d+)>)?,\s*"
                      r"(unsigned long long|unsigned long|int|float),"
                      r"\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+)>")


def parse_reference(out: str) -> dict:
    return reference_rows(out, LINE)


def cub_key(pretty: str):
    m = CUB_NAME.search(pretty)
    if not m:
        return None
    return Config(m.group(1), m.group(2), C_TYPES[m.group(4)], int(m.group(5)), int(m.group(6)),
                  int(m.group(3) or 0)).key


def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in chosen(configurations(), filters)}
    _, _, out = run_reference_binary(directory, REFERENCE, expected, filters, options)
    return parse_reference(out), family_cli.cub_barriers(directory / BINARY, cub_key), out


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    return run_sorts(configs, options, make_kernel, model)


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop), argtypes(c, options.read_only)))


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_merge_sort", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop,
        read_only="pass the keys and values read-only (ld.global.nc), as the reference's "
                  "const K* __restrict__",
        variant=lambda args: "inputs read-only" if args.read_only else ""), argv)


if __name__ == "__main__":
    sys.exit(main())
