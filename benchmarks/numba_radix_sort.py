"""cuda.coop.radix_sort_keys and radix_sort_pairs in Numba-CUDA-MLIR kernels against CUB's block
radix sort (cub::BlockRadixSort<K, BLOCK, IPT, V>, 4-bit digits,
benchmarks/reference/cub_radix_sort.cu), in one run on the GPU.

  python3 benchmarks/numba_radix_sort.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_radix_sort.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_radix_sort's own ("all" matches anything) and go to both sides.
The run builds the reference with nvcc -O3 -arch=sm_90 into DIR (skipped while DIR/cub_radix_sort
is newer than the .cu), checks that its `list` is this script's configurations, runs it, then
runs the same configurations as @cuda.jit kernels (coop.radix_sort_keys / radix_sort_pairs with
coop's planned scratch: no temp_storage, and none of the barriers CUB users write -- coop plans
them) and prints one table.

Modes (WIDTH is 0: the block; every bit of the key, ascending, blocked in and out: thread t's
item i is sorted position t * IPT + i): block_sort_keys, keys = coop.radix_sort_keys(block,
keys) (CUB's Sort(keys)), of uint32 keys at (BLOCK, IPT) = (128, 4), (256, 4), (256, 8),
(512, 2), int32 at (1024, 4), float32 at (256, 4), uint64 at (128, 4) and uint8 at (256, 8);
block_sort_pairs, keys, values = coop.radix_sort_pairs(block, keys, values) (CUB's Sort(keys,
values)) with int32 values, of uint32 keys at (256, 4), float32 at (128, 8) and uint64 at
(256, 2). The kernels are the reference's (its header documents them):

  tile: one tile per block (1 GiB of keys: 1<<30 / itemsize, full tiles; pairs as many int32
        values), loaded blocked (coop.load(..., algorithm="direct")) -> sorted -> stored
        blocked; GB/s of the input read, keys and values.
  loop: --grid blocks load one tile, then --reps times {sort; key i = update(sorted key i, i)},
        then store; ns/op = (t(reps) - t(0)) * SMs / (grid * reps), one block sort (with the
        update) an iteration. The update gives the next sort keys out of order: integer keys
        k * 2654435761 + i in the key's width (a bijection), float keys i - k (one IEEE
        subtraction that the reference's nvcc cannot fuse, so NumPy rounds as both GPUs do);
        values only move with their keys. The repetition is `rep = np.int32(0); while rep <
        reps: ...; rep = np.int32(rep + 1)`, as in numba_exchange.py (--range-loop: `for _ in
        range(reps)`).

The keys, on both sides (see input_keys): position j's is a hash of j, h = (uint32)(j *
2654435761) (numba_select.py's input before its >> 12) spread over the key's range: uint32 h,
int32 h as signed, uint64 h * 0x9E3779B97F4A7C15, uint8 h >> 24, float32 ((int32)h >> 8) / 4096
(exact, both signs). Position j's value is j (int32), so that the sorted values are the sort's
order.

--read-only passes the keys and values as read-only arrays (gpu_timing.ReadOnly, no copy), the
Numba form of the reference's `const K* __restrict__` inputs (coop.load then reads 32- and 64-bit
items through ld.global.nc, as nvcc reads the reference's; uint8 keys stay ld.global.u8, see
numba_histogram.py); with --compile-only, the kernels are compiled for read-only inputs.

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)); --no-lto builds
them with cuda.jit(lto=False) (see numba_exchange.py).

Every row is checked against NumPy, as the reference checks its own: the sampled tiles (0, 97,
194, ... and the last) sorted by cuda.coop._models.radix_sort_order (a stable sort by the keys'
bit-ordered form, as CUB orders them), keys compared bitwise and values as the moved positions;
loop rows after --reps sort-and-update steps (see model). The ok column is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed. coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop rows
(> 1: coop is faster); the summary adds their geometric means, per kernel and per mode.

Facts (a/b = coop/CUB), as numba_exchange.py's: smem is the kernel's shared memory (our PTX's
.shared bytes: the ranking's counters and the exchanges' keys and values; CUB's
sizeof(TempStorage), a union of the same); bar and wsync count block barriers
(bar.sync/barrier.sync) and warp barriers (bar.warp.sync) in the code, where both sides keep the
digit passes a loop (CUB's over its 4-bit digits; ours over a runtime bit range), so a count is
one pass's and the code around it, not one sort's: per tile (tile rows) or per loop iteration
(loop rows: CUB's loop is `#pragma unroll 1`, so its PTX count, with the reuse barrier; for ours,
the count from the kernel's optimized MLIR before LLVM); local is our kernel's local memory in
bytes per thread (the driver's attribute on the GPU, ptxas -v with --compile-only), which must
be 0.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import ReadOnly, calibrate, coop_jit, repeat_lines
from gpu_timing import sleeper as _sleeper

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import family_cli  # noqa: E402
from numba_exchange import reference_rows, run_reference_binary, sample  # noqa: E402
from numba_select import chosen  # noqa: E402

REFERENCE = HERE / "reference" / "cub_radix_sort.cu"
BINARY = "cub_radix_sort"

# The reference's configurations (add_all in cub_radix_sort.cu), in its order: mode, key dtype,
# block, keys a thread.
CONFIGS = (("block_sort_keys", "uint32", 128, 4), ("block_sort_keys", "uint32", 256, 4),
           ("block_sort_keys", "uint32", 256, 8), ("block_sort_keys", "uint32", 512, 2),
           ("block_sort_keys", "int32", 1024, 4), ("block_sort_keys", "float32", 256, 4),
           ("block_sort_keys", "uint64", 128, 4), ("block_sort_keys", "uint8", 256, 8),
           ("block_sort_pairs", "uint32", 256, 4), ("block_sort_pairs", "float32", 128, 8),
           ("block_sort_pairs", "uint64", 256, 2))
DTYPES = {"uint8": np.uint8, "uint32": np.uint32, "int32": np.int32, "float32": np.float32,
          "uint64": np.uint64}
TOTAL_BYTES = 1 << 30  # the reference's key buffer: 1 GiB
VALUES = TOTAL_BYTES // 4  # the values of the most keys (uint8 keys have no pairs row)
MULTIPLIER = 2654435761  # the loop's update of integer keys
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str    # "block_sort_keys" or "block_sort_pairs"
    dtype: str   # the keys'
    block: int
    ipt: int

    @property
    def width(self) -> int:
        """0: the group is the block (the sort is a block collective only)."""
        return 0

    @property
    def counted_per_pass(self) -> bool:
        """Barriers counted once per digit pass of a loop LLVM may unroll."""
        return True

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def pairs(self) -> bool:
        return self.mode == "block_sort_pairs"

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    return [Config(k, mode, dtype, block, ipt) for mode, dtype, block, ipt in CONFIGS
            for k in ("tile", "loop")]


# ---- the kernels ---------------------------------------------------------------------------

def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode}"


def update_expression(c: Config, key: str) -> str:
    """The loop's update of a thread's sorted key `key`, item i: in the key's unsigned width
    for integers (the store into the keys truncates Numba's wider product)."""
    if c.dtype == "float32":
        return f"np.float32(i) - {key}"
    unsigned = "np.uint64" if c.dtype == "uint64" else "np.uint32"
    return f"{key} * {unsigned}({MULTIPLIER}) + {unsigned}(i)"


def kernel_source(c: Config, range_loop: bool = False) -> str:
    B, I = c.block, c.ipt
    inputs, outputs = ("src, values", "dst, values_out") if c.pairs else ("src", "dst")
    last = "" if c.kernel == "tile" else ", reps"
    lines = [f"def {kernel_name(c)}({inputs}, {outputs}{last}):",
             "    block = coop.this_block()",
             f"    base = cuda.blockIdx.x * {B * I}",
             f"    a = coop.ThreadData({I})",
             '    coop.load(block, src, a, offset=base, algorithm="direct")']
    if c.pairs:
        lines += [f"    v = coop.ThreadData({I})",
                  '    coop.load(block, values, v, offset=base, algorithm="direct")']
    sort = ("k, w = coop.radix_sort_pairs(block, a, v)" if c.pairs
            else "k = coop.radix_sort_keys(block, a)")
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
    lines.append(f'    coop.store(block, dst, {keys}, offset=base, algorithm="direct")')
    if c.pairs:
        lines.append(f'    coop.store(block, values_out, {moved}, offset=base, '
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


# ---- the input and the NumPy model ---------------------------------------------------------

def input_keys(n: int, dtype, chunk: int = 1 << 24) -> np.ndarray:
    """The reference's n keys (key_at in cub_radix_sort.cu): from h = (uint32)(j * 2654435761),
    uint32 h, int32 h, uint64 h * 0x9E3779B97F4A7C15, uint8 h >> 24, float32 ((int32)h >> 8) /
    4096; computed `chunk` positions at a time (no n-long 64-bit temporaries)."""
    dtype = np.dtype(dtype)
    out = np.empty(n, dtype)
    for start in range(0, n, chunk):
        h = np.arange(start, min(n, start + chunk), dtype=np.uint32) * np.uint32(MULTIPLIER)
        if dtype == np.float32:
            keys = (h.view(np.int32) >> 8).astype(np.float32) * np.float32(1 / 4096)
        elif dtype == np.uint64:
            keys = h.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        elif dtype == np.uint8:
            keys = (h >> np.uint32(24)).astype(np.uint8)
        else:
            keys = h.view(dtype)
        out[start:start + h.size] = keys
    return out


def update(keys: np.ndarray, ipt: int) -> np.ndarray:
    """The loop's update of a sorted tile (blocked: position p is item p % ipt of its
    thread), as the kernels' (see update_expression)."""
    i = np.arange(keys.size) % ipt
    if keys.dtype.kind == "f":
        return i.astype(keys.dtype) - keys
    unsigned = np.dtype(f"uint{keys.dtype.itemsize * 8}")
    wide = keys.view(unsigned).astype(np.uint64) * np.uint64(MULTIPLIER) + i.astype(np.uint64)
    return wide.astype(unsigned).view(keys.dtype)


def model(c: Config, inputs: np.ndarray, positions: np.ndarray, sorts: int,
          updated: bool) -> tuple[np.ndarray, np.ndarray]:
    """The key tiles and their values (the input positions) after `sorts` sorts of input tiles
    [k, block * ipt] at `positions` [k, block * ipt], each followed by the loop's update where
    `updated`."""
    from cuda.coop._models import radix_sort_order

    keys, values = np.empty_like(inputs), np.empty_like(positions)
    for k in range(len(inputs)):
        r, v = inputs[k], positions[k]
        for _ in range(sorts):
            order = radix_sort_order(r)
            r, v = r[order], v[order]
            if updated:
                r = update(r, c.ipt)
        keys[k], values[k] = r, v
    return keys, values


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Keys compared bitwise (a sort keeps -0.0 and NaNs as they are)."""
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint8), b.view(np.uint8)))


# ---- the CUB reference ---------------------------------------------------------------------

LINE = re.compile(r"(tile|loop)\s+(block_sort_keys|block_sort_pairs)\s+(\w+)\s+block=\s*(\d+)"
                  r" ipt=\s*(\d+) width=\s*(\d+)\s+ms=\s*([\d.]+)\s+"
                  r"(?:GB/s=\s*([\d.]+)|base_ms=\s*([\d.]+) ns/op=\s*(-?[\d.]+))"
                  r"\s+temp=\s*(\d+)\s+(OK|FAIL)")
C_TYPES = {"unsigned char": "uint8", "unsigned int": "uint32", "int": "int32",
           "float": "float32", "unsigned long": "uint64", "unsigned long long": "uint64"}
CUB_NAME = re.compile(r"(tile|loop)_kernel<(block_sort_keys|block_sort_pairs),\s*"
                      r"(unsigned char|unsigned int|unsigned long long|unsigned long|int|float),"
                      r"\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+)>")


def parse_reference(out: str) -> dict:
    return reference_rows(out, LINE)


def cub_key(pretty: str):
    m = CUB_NAME.search(pretty)
    if not m:
        return None
    return Config(m.group(1), m.group(2), C_TYPES[m.group(3)], int(m.group(4)),
                  int(m.group(5))).key


def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in chosen(configurations(), filters)}
    _, _, out = run_reference_binary(directory, REFERENCE, expected, filters, options)
    return parse_reference(out), family_cli.cub_barriers(directory / BINARY, cub_key), out


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    return run_sorts(configs, options, make_kernel, model)


def run_sorts(configs, options, make_kernel, model) -> tuple[list, float, int, float]:
    """Runs and checks the sort kernels `make_kernel(c, lto, range_loop)` of `configs` (this
    script's and numba_merge_sort.py's: the same inputs, values and timing) against `model`."""
    from numba_cuda_mlir import cuda

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    median_ms, slept, memcpy = calibrate(cuda, options, _sleeper(), SLEEP_US, TOTAL_BYTES)

    rows = []
    buffers: dict = {}
    values: tuple = ()
    for number, c in enumerate(configs, 1):
        print(f"[{number}/{len(configs)}] {' '.join(map(str, c.key))}", file=sys.stderr,
              flush=True)
        if c.dtype not in buffers:
            buffers.clear()
            n = TOTAL_BYTES // np.dtype(c.numpy_dtype).itemsize
            host = input_keys(n, c.numpy_dtype)
            src = cuda.to_device(host)
            buffers[c.dtype] = (host, src, ReadOnly(src) if options.read_only else src,
                                cuda.device_array(n, c.numpy_dtype),
                                cuda.to_device(np.zeros(n, c.numpy_dtype)))
        host, _, source, out, zeros = buffers[c.dtype]
        if c.pairs and not values:
            device = cuda.to_device(np.arange(VALUES, dtype=np.int32))
            values = (device, ReadOnly(device) if options.read_only else device,
                      cuda.device_array(VALUES, np.int32),
                      cuda.to_device(np.zeros(VALUES, np.int32)))
        arrays = ((source, values[1], out, values[2]) if c.pairs else (source, out))
        tile = c.block * c.ipt
        kernel = make_kernel(c, options.lto, options.range_loop)
        out.copy_to_device(zeros)
        if c.pairs:
            values[2].copy_to_device(values[3])
        if c.kernel == "tile":
            grid, sorts = host.size // tile, 1
            args = arrays
        else:
            grid, sorts = options.grid, options.reps
            if grid * tile > host.size:
                raise SystemExit(f"--grid={grid} too large for a 1 GiB buffer")
            args = arrays + (np.int32(sorts),)
        kernel[grid, c.block](*args)
        cuda.synchronize()
        picked = sample(grid)
        positions = (picked[:, None] * tile + np.arange(tile)).astype(np.int32)
        keys, moved = model(c, host[:grid * tile].reshape(grid, tile)[picked], positions, sorts,
                            c.kernel == "loop")
        ok = same_bits(out[:grid * tile].copy_to_host().reshape(grid, tile)[picked], keys)
        if c.pairs:
            got = values[2][:grid * tile].copy_to_host().reshape(grid, tile)[picked]
            ok = ok and bool(np.array_equal(got, moved))
        ms = median_ms(lambda: kernel[grid, c.block](*args))
        if c.kernel == "tile":
            itemsize = np.dtype(c.numpy_dtype).itemsize + (4 if c.pairs else 0)
            value = grid * tile * itemsize / (ms * 1e6)
        else:
            base = median_ms(lambda: kernel[grid, c.block](*arrays, np.int32(0)))
            ops = grid * sorts / sms
            value = (ms - base) * 1e6 / ops if sorts > 0 else 0.0
        facts = family_cli.launched_facts(c, kernel)
        rows.append((c, value, ok, facts))
    return rows, memcpy, sms, slept


def compile_only(configs, directory: Path, options) -> list:
    return family_cli.compile_only_rows(
        configs, directory,
        lambda c: (make_kernel(c, options.lto, options.range_loop), argtypes(c, options.read_only)))


def main(argv=None) -> int:
    return family_cli.main(family_cli.FamilyBenchmark(
        "numba_radix_sort", BINARY, __doc__, configurations, chosen, compile_only,
        run_reference, run_coop,
        read_only="pass the keys and values read-only (ld.global.nc), as the reference's "
                  "const K* __restrict__",
        variant=lambda args: "inputs read-only" if args.read_only else ""), argv)


if __name__ == "__main__":
    sys.exit(main())
