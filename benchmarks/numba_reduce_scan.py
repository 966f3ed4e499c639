"""cuda.coop.reduce/sum and the scan family in Numba-CUDA-MLIR kernels against CUB
(benchmarks/reference/cub_reduce_scan.cu), in one run on the GPU.

  python3 benchmarks/numba_reduce_scan.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192] [--cub=BINARY]   # on the GPU
  python3 benchmarks/numba_reduce_scan.py DIR [filters] --compile-only [--jobs=N]  # no GPU

The filters and options are cub_reduce_scan's own ("all" matches anything; f32 and f64 match
float32 and float64; a filter may list alternatives with commas: `loop
exclusive_sum.raking,exclusive_sum.raking_memoize int32 128,256`) and go to both sides. The
run builds the reference with nvcc -O3 -arch=sm_90 into DIR (skipped while DIR/cub_reduce_scan
is newer than the .cu), or takes a prebuilt one with --cub (a BINARY.xz is unpacked into DIR:
the binary is 15 MB, 2 MB packed), checks that its `list` is this script's configurations,
runs it, then runs the same
configurations as @cuda.jit kernels (with coop's planned scratch: no temp_storage, and none of
the reuse barriers CUB users write -- coop plans them) and prints one table.

The kernels are the reference's (its header documents them), for every mode:

  tile: 1 GiB of items in [-7, 7] (1<<28 4-byte or 1<<27 8-byte items), one tile of
        BLOCK * IPT items per block, loaded with coop.load(..., algorithm="transpose") (warp
        modes: coop.load(logical warp, ...), each logical warp its own tile of WIDTH * IPT).
          reduce: coop.sum/coop.reduce(..., broadcast=False); thread 0 (lane 0 of each logical
            warp) writes the aggregate, one item per tile (per warp tile). sum_partial: the
            first valid(k) = TILE - (k * 7919) % TILE items only (valid_items on the load and
            the sum). GB/s counts the items read and the aggregates written.
          scan: the scan, then coop.store(..., algorithm="transpose"); GB/s = 2 * items.
          exclusive_sum_prefix: a persistent grid, every block resident at once (SMs times
            the blocks of the kernel an SM holds, by the driver's occupancy calculator: each
            side its own, as a persistent kernel sizes its grid), block b scanning tiles
            [b * tiles / grid, (b + 1) * tiles / grid) in order, each
            seeded by a prefix function carrying a running total (CUB: a
            BlockPrefixCallbackOp; coop: prefix_op=coop.StatefulFunction(running_total,
            state), the state a 1-element local array).
  loop: --grid blocks load one tile with algorithm="striped" (the registers are taken as the
        tile in blocked order, as the reference does), then --reps times {op; feedback}, then
        store it striped. Feedback: reduce: thread 0 (lane 0) sets a[i] = wrap(a[i] +
        aggregate); scan and prefix: a[i] = wrap(out[i]), the prefix function keeping its running
        total as wrap(running + aggregate); wrap(x) = x mod 256 (x & 255; 8-byte integers with
        their high word folded in, (x ^ (x >> 32)) & 255, so that no compiler may compute them
        in 32 bits; x - floor(x / 256) * 256).
        ns/op = (t(reps) - t(0)) * SMs / (grid * reps).
        The repetition is `rep = np.int32(0); while rep < reps: ...; rep = np.int32(rep + 1)`:
        as the reference's `#pragma unroll 1` int loop, it compiles to one uniform add, a
        compare and a branch an iteration, so that ns/op is the collective's and its feedback's.
        `for _ in range(reps)` (--range-loop) costs more: Numba's range iterator decrements a
        remaining count with a clamp at zero (three instructions an iteration) and NVVM unrolls
        it by four; an issue-bound loop of a short collective (a warp sum) pays up to a sixth.

Every row is checked against a NumPy model of the mode (tiles or blocks 0, 97, 194, ... and the
last, as the reference does; prefix tile rows: those blocks' whole runs of tiles): the ok column
is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event pair, as the
reference does; ours are enqueued behind a sleeping kernel so that Numba's launch cost is not
timed (the reference's few microseconds of cudaLaunchKernel latency are in its times and cancel
in ns/op). coop/CUB is the speed ratio: GB/s coop/CUB for tile rows, ns/op CUB/coop for loop
rows (> 1: coop is faster).

Facts (a/b = coop/CUB): smem is our PTX's .shared bytes (the whole kernel's: tile rows include
the transpose's storage) against CUB's temp= (sizeof the collective's TempStorage, per block);
bar and wsync count block barriers (bar.sync/barrier.sync) and warp barriers (bar.warp.sync) in
the PTX, per tile, or per iteration for the kernels with a loop (loop rows and prefix tile rows:
CUB's loops are `#pragma unroll 1`, so its PTX count; for ours, LLVM may unroll the runtime loop,
so the count is taken from the kernel's optimized MLIR before LLVM); these are static counts
(CUB's partial-tile reductions have a branch with one more barrier). local is the kernel's local
memory in bytes per thread (ours: the driver's attribute on the GPU, ptxas -v's stack frame with
--compile-only; CUB's: the SASS stack frame from cuobjdump --dump-resource-usage), which must be
0: the summary lists the kernels that have some, apart those where CUB's has a stack frame too
(the 8-byte raking scans of 1024 threads, whose 64 registers a thread do not hold the raking
segment), and only the others fail the run. regs is registers per thread (ours: the driver's
attribute on the GPU, ptxas -v with --compile-only; CUB's: cuobjdump --dump-resource-usage): at
1024 threads a block, more than 32 leaves one block on an SM instead of two. coop builds its
kernels with link-time code generation (as cuda.jit(lto=True)): Numba hands nvJitLink LTO-IR and
the kernel's code is generated for the whole program, which allocates registers as nvcc does for
the reference; --compile-only runs ptxas -v on the PTX nvJitLink generates from that LTO-IR.
The header names the ptxas release that generated each side's code (coop's: the nvJitLink of
the machine that runs it; CUB's: the nvcc that built the binary), and warns where they differ:
releases schedule the same kernel differently, so a fair table builds the reference with the
nvcc of that nvJitLink's release (the H200's is 13.0.88: `bash
benchmarks/reference/cuda_release.sh 13.0 /tmp/cuda-13.0`, then this script with
/tmp/cuda-13.0/bin first on PATH builds DIR's reference with it).

--no-lto builds the kernels with cuda.jit(lto=False), as Numba does by default: nvJitLink then
compiles Numba's PTX as relocatable code (ptxas -c, as --compile-only does with the option),
which cannot target the kernel's occupancy and allocates more registers (1024x8 int32 raking sum:
40 against 31; float64 exclusive_sum.warp_scans 1024x4: 63 and 8 bytes of spills against 38).

--auto-sync gives the block reductions and scans of the loop kernels an explicit
coop.TempStorage(auto_sync=True): the reuse barrier then follows each call, where the reference's
loop has its __syncthreads, instead of where the planner puts it (before the next iteration's first
scratch write, so after the loop's own arithmetic).

--read-only passes the input as a read-only array (gpu_timing.ReadOnly, no copy), the Numba form
of the reference's `const T* __restrict__` input: coop.load then reads it through ld.global.nc
(LDG.E.CONSTANT), as nvcc reads the reference's. With --compile-only, the kernels are compiled
for a read-only input.
"""

from __future__ import annotations

import argparse
import lzma
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import (ReadOnly, add_lto_option, add_range_loop_option, calibrate, coop_jit,
                        kernel_ptx, launched_overload, print_code_generators, print_run_header,
                        print_summary, ptxas_versions, repeat_lines)
from gpu_timing import sleeper as _sleeper

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from numba_exchange import (BAR, WSYNC, mlir_barriers, ptx_entries, sample,  # noqa: E402
                            shared_bytes)

REFERENCE = HERE / "reference" / "cub_reduce_scan.cu"
BINARY = "cub_reduce_scan"

# The reference's configurations (add_all in cub_reduce_scan.cu), in its order.
REDUCE_ALGORITHMS = ("warp_reductions", "raking", "raking_commutative_only")
SCAN_ALGORITHMS = ("raking", "raking_memoize", "warp_scans")
SWEEP = ((128, 1), (128, 4), (256, 1), (256, 4), (256, 8), (512, 4), (512, 8), (1024, 1),
         (1024, 4))
SWEEP_4_BYTE = SWEEP + ((1024, 8),)  # 8-byte transpose storage at 1024 x 8 would be 64 KiB
SOME = ((128, 1), (256, 4), (256, 8), (1024, 4))
WARP_CONFIGS = ((128, 1), (256, 1), (256, 4), (1024, 1), (1024, 4))
# (mode, configurations, logical warp widths; (0,) for the block), as add_all adds them.
MODE_TABLE = (
    *((f"sum.{a}", "sweep", (0,)) for a in REDUCE_ALGORITHMS),
    ("max.warp_reductions", "some", (0,)),
    *((f"sum_partial.{a}", "some", (0,)) for a in REDUCE_ALGORITHMS),
    ("warp_sum", "warp", (32, 16, 8)),
    *((f"inclusive_sum.{a}", "sweep", (0,)) for a in SCAN_ALGORITHMS),
    *((f"exclusive_sum.{a}", "sweep", (0,)) for a in SCAN_ALGORITHMS),
    *((f"exclusive_max.{a}", "some", (0,)) for a in SCAN_ALGORITHMS),
    *((f"exclusive_sum_prefix.{a}", "some", (0,)) for a in SCAN_ALGORITHMS),
    ("warp_inclusive_sum", "warp", (32, 16)),
    ("warp_exclusive_sum", "warp", (32, 16)),
)
MODES = tuple(m for m, _, _ in MODE_TABLE)
DTYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
TOTAL_BYTES = 1 << 30  # the reference's buffers: 1 GiB each
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str
    dtype: str   # "int32", "int64", "float32" or "float64"
    block: int
    ipt: int
    width: int   # 0: the block

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def op(self) -> str:
        """sum, max, sum_partial, warp_sum, inclusive_sum, exclusive_sum, exclusive_max,
        exclusive_sum_prefix, warp_inclusive_sum or warp_exclusive_sum."""
        return self.mode.split(".")[0]

    @property
    def algorithm(self) -> str | None:
        return self.mode.split(".")[1] if "." in self.mode else None

    @property
    def family(self) -> str:
        if self.op in ("sum", "max", "sum_partial", "warp_sum"):
            return "reduce"
        return "prefix" if self.op == "exclusive_sum_prefix" else "scan"

    @property
    def kind(self) -> str:
        """What is computed: sum, max, inclusive_sum, exclusive_sum, exclusive_max or
        exclusive_sum_prefix (the reference's Kind)."""
        return {"sum_partial": "sum", "warp_sum": "sum", "warp_inclusive_sum": "inclusive_sum",
                "warp_exclusive_sum": "exclusive_sum"}.get(self.op, self.op)

    @property
    def partial(self) -> bool:
        return self.op == "sum_partial"

    @property
    def looped(self) -> bool:
        """The kernel repeats its collective in a runtime loop (barriers counted per iteration)."""
        return self.kernel == "loop" or self.family == "prefix"

    @property
    def tile(self) -> int:
        return self.block * self.ipt

    @property
    def groups(self) -> int:
        return self.block // self.width if self.width else 1

    @property
    def group_tile(self) -> int:
        return (self.width or self.block) * self.ipt

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    out = []
    for dtype in DTYPES:
        sweep = SWEEP_4_BYTE if np.dtype(DTYPES[dtype]).itemsize == 4 else SWEEP
        lists = {"sweep": sweep, "some": SOME, "warp": WARP_CONFIGS}
        for mode, which, widths in MODE_TABLE:
            for width in widths:
                for block, ipt in lists[which]:
                    out.extend(Config(k, mode, dtype, block, ipt, width) for k in ("tile", "loop"))
    return out


def select(configs, filters) -> list[Config]:
    """cub_reduce_scan's filter rule: "all" matches anything; f32/f64 mean float32/float64;
    "a,b" matches what a or b matches."""
    filters = list(filters) + ["all"] * (6 - len(filters))

    def match(f, v):
        return f == "all" or f == str(v) or (f, v) in (("f32", "float32"), ("f64", "float64"))
    return [c for c in configs
            if all(any(match(a, v) for a in f.split(",")) for f, v in zip(filters, c.key))]


def reference_table(source: str) -> list[tuple]:
    """The configurations cub_reduce_scan.cu's add_all instantiates (the `list` of a binary
    built from it), read from its source: keys in its order."""
    def body(name):
        m = re.search(r"static void " + name + r"\(std::vector<Entry>& v\) \{(.*?)\n\}", source,
                      re.S)
        return m.group(1)

    def adds(text):
        return [(int(b), int(i), cond) for cond, b, i in
                re.findall(r"(if constexpr \(sizeof\(T\) == 4\) )?add<M(?:<W>)?, T, (\d+), (\d+)>",
                           text)]
    lists = {"add_sweep": adds(body("add_sweep")), "add_some": adds(body("add_some")),
             "add_warp_width": adds(body("add_warp_width"))}
    names = dict(re.findall(r"struct (\w+)\s*:[^{]*\{\s*static constexpr const char\* name = "
                            r"\"([\w.]+)\"", source))
    names.update(re.findall(r"SCAN_MODE\((\w+), \"([\w.]+)\"", source))
    names.update({"warp_sum": "warp_sum"})
    calls = re.findall(r"(add_sweep|add_some|add_warp_width)<(\w+),\s*(?:(\d+),\s*)?T>\(v\);",
                       body("add_all"))
    keys = []
    for dtype in re.findall(r"add_all<(\w+)>\(entries\);", source):
        name = {"int32_t": "int32", "int64_t": "int64", "float": "float32",
                "double": "float64"}[dtype]
        four = dtype in ("int32_t", "float")
        for function, mode, width in calls:
            for block, ipt, cond in lists[function]:
                if cond and not four:
                    continue
                keys += [(k, names[mode], name, block, ipt, int(width or 0))
                         for k in ("tile", "loop")]
    return keys


# ---- the kernels ---------------------------------------------------------------------------
# Generated source per configuration. T is the item type (np.int32, ...) in the kernel's
# namespace, LOWEST its lowest value, Q and K 1/256 and 256 in T (floats wrap in their own
# precision, as the reference's floorf does).

def _group(c: Config) -> str:
    return ("coop.this_block()" if c.width == 0 else "coop.this_warp()" if c.width == 32
            else f"coop.this_warp().group_by({c.width})")


def _leader(c: Config) -> str:
    return "tid == 0" if c.width == 0 else f"tid % {c.width} == 0"


def _algorithm(c: Config) -> str:
    return f', algorithm="{c.algorithm}"' if c.algorithm else ""


def _wrap(c: Config, target: str, expression: str) -> list[str]:
    """target = wrap(expression): x mod 256, as the reference's wrap256."""
    dtype = np.dtype(c.numpy_dtype)
    if dtype.kind in "iu" and dtype.itemsize == 8:
        return [f"x = T({expression})", f"{target} = T((x ^ (x >> 32)) & 255)"]
    if dtype.kind in "iu":
        return [f"{target} = T(({expression}) & 255)"]
    return [f"x = {expression}", f"{target} = x - np.floor(x * Q) * K"]


def _reduce(c: Config, items: str, valid: bool) -> str:
    options = (", valid_items=valid" if valid else "") + ", broadcast=False" + _algorithm(c)
    if c.kind == "max":
        return f'coop.reduce(group, {items}, "max"{options})'
    return f"coop.sum(group, {items}{options})"


def _scan(c: Config, items: str) -> str:
    if c.kind == "exclusive_max":
        return f'coop.exclusive_scan(group, {items}, "max", initial_value=LOWEST{_algorithm(c)})'
    if c.kind == "exclusive_sum_prefix":
        return f"coop.exclusive_sum(group, {items}, prefix_op=prefix{_algorithm(c)})"
    return f"coop.{c.kind}(group, {items}{_algorithm(c)})"


def _loop_over(lines: list[str], indent: str, count: int) -> list[str]:
    """`for i in range(count):` over lines."""
    return [f"{indent}for i in range({count}):", *(f"{indent}    {s}" for s in lines)]


def kernel_name(c: Config) -> str:
    return f"{c.kernel}_{c.mode.replace('.', '_')}"


def _with_storage(call: str) -> str:
    """A coop call with temp_storage=temp as its last argument."""
    return call[:-1] + ", temp_storage=temp)"


def kernel_source(c: Config, auto_sync: bool = False, range_loop: bool = False) -> str:
    I = c.ipt
    third = {"loop": ", reps", "tile": ", tiles" if c.family == "prefix" else ""}[c.kernel]
    lines = []
    if c.family == "prefix":
        # The reference's RunningTotal: wrapped only in the loop kernel.
        update = _wrap(c, "state[0]", "old + aggregate") if c.kernel == "loop" \
            else ["state[0] = T(old + aggregate)"]
        lines += ["def running_total(state, aggregate):",
                  "    old = state[0]",
                  *(f"    {s}" for s in update),
                  "    return old",
                  ""]
    lines += [f"def {kernel_name(c)}(src, dst{third}):",
             f"    group = {_group(c)}",
             # Unsigned, as the reference's threadIdx.x: its leader test and output slot
             # (tid % WIDTH, tid // WIDTH) are a mask and a shift there, where a signed
             # index costs Python's floor-division sign fixups (about 30 instructions).
             "    tid = np.uint32(cuda.threadIdx.x)",
             f"    a = coop.ThreadData({I})"]
    if c.family == "prefix":
        lines += ["    state = cuda.local.array(1, T)",
                  "    state[0] = T(0)",
                  "    prefix = coop.StatefulFunction(running_total, state)"]
    if c.kernel == "tile" and c.family == "prefix":
        lines += ["    blocks = np.int64(cuda.gridDim.x)",
                  "    b = np.int64(cuda.blockIdx.x)",
                  "    for k in range(b * tiles // blocks, (b + 1) * tiles // blocks):",
                  f"        base = k * {c.tile}",
                  '        coop.load(group, src, a, offset=base, algorithm="transpose")',
                  f"        o = {_scan(c, 'a')}",
                  '        coop.store(group, dst, o, offset=base, algorithm="transpose")']
        return "\n".join(lines) + "\n"
    # Zero-extended, as the reference's `long k = blockIdx.x`: an output index known to be
    # non-negative needs no negative-index wraparound.
    lines += ["    k = np.int64(np.uint32(cuda.blockIdx.x))",
              f"    base = k * {c.tile}"]
    if c.partial:
        # k is a block index, never negative: unsigned, the remainder is a mask, as nvcc
        # makes the reference's (long) remainder knowing blockIdx.x unsigned.
        lines.append(f"    valid = np.int32({c.tile} - (np.uint64(k) * np.uint64(7919))"
                     f" % np.uint64({c.tile}))")
    if c.kernel == "tile":
        guarded = ", valid_items=valid" if c.partial else ""
        lines.append(f'    coop.load(group, src, a, offset=base, algorithm="transpose"{guarded})')
        if c.family == "reduce":
            at = f"k * {c.groups} + tid // {c.width}" if c.width else "k"
            lines += [f"    r = {_reduce(c, 'a', c.partial)}",
                      f"    if {_leader(c)}:",
                      f"        dst[{at}] = r"]
        else:
            lines += [f"    o = {_scan(c, 'a')}",
                      '    coop.store(group, dst, o, offset=base, algorithm="transpose")']
        return "\n".join(lines) + "\n"
    explicit = auto_sync and not c.width
    own = _with_storage if explicit else (lambda call: call)
    if explicit:
        lines.append("    temp = coop.TempStorage(auto_sync=True)")
    lines.append('    coop.load(group, src, a, offset=base, algorithm="striped")')
    head, tail = repeat_lines(range_loop)
    lines += head
    if c.family == "reduce":
        lines += [f"        r = {own(_reduce(c, 'a', c.partial))}",
                  f"        if {_leader(c)}:",
                  *_loop_over(_wrap(c, "a[i]", "a[i] + r"), "            ", I)]
    else:
        lines += [f"        o = {own(_scan(c, 'a'))}",
                  *_loop_over(_wrap(c, "a[i]", "o[i]"), "        ", I)]
    lines += tail
    lines.append('    coop.store(group, dst, a, offset=base, algorithm="striped")')
    return "\n".join(lines) + "\n"


def lowest(dtype):
    dtype = np.dtype(dtype)
    return dtype.type(np.iinfo(dtype).min if dtype.kind in "iu" else np.finfo(dtype).min)


def make_kernel(c: Config, lto: bool | None = None, auto_sync: bool = False,
                range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    T = c.numpy_dtype
    namespace = {"cuda": cuda, "coop": coop, "np": np, "T": T, "LOWEST": lowest(T),
                 "Q": T(0.00390625), "K": T(256)}
    exec(compile(kernel_source(c, auto_sync, range_loop), f"<{' '.join(map(str, c.key))}>",
                 "exec"),
         namespace)
    function = namespace[kernel_name(c)]
    return coop_jit(cuda, function, lto)


def argtypes(c: Config, read_only: bool = False) -> list:
    """The kernel's argument types; `read_only`: the input is a read-only array, as a
    gpu_timing.ReadOnly argument is typed."""
    from numba_cuda_mlir import types

    array = getattr(types, c.dtype)[::1]
    source = types.Array(array.dtype, 1, "C", readonly=True) if read_only else array
    # reps is an int32, as the reference's `int reps`: an int64 trip count costs the loop a
    # 64-bit counter (about two more instructions per iteration), which is not the collective's.
    if c.kernel == "loop":
        return [source, array, types.int32]
    return [source, array] + ([types.int64] if c.family == "prefix" else [])


# ---- the NumPy model -----------------------------------------------------------------------
# A block's tile as the collective sees it ("logical", blocked order) is `groups` group tiles
# of WIDTH * IPT (block: BLOCK * IPT) items one after the other. In memory it is the same order
# for the tile kernels; the loop kernels load and store striped per group, so logical item p is
# at loop_positions()[p].

def input_values(count: int) -> np.ndarray:
    """The reference's input_value(j), in [-7, 7], for j < count (int8)."""
    h = np.arange(count, dtype=np.uint32)
    h *= np.uint32(2654435761)
    h ^= h >> np.uint32(15)
    h *= np.uint32(2246822519)
    h ^= h >> np.uint32(13)
    h %= np.uint32(15)
    return (h.astype(np.int8) - np.int8(7))


def valid_items(k, tile: int):
    """The sum_partial modes' valid items of tile (loop: block) k."""
    return tile - (np.asarray(k, dtype=np.int64) * 7919) % tile


def loop_positions(c: Config) -> np.ndarray:
    """Where logical item p of a block's tile is in memory for the loop kernels."""
    p = np.arange(c.tile)
    if c.width == 0:
        return (p % c.ipt) * c.block + p // c.ipt
    g, q = p // c.group_tile, p % c.group_tile
    return g * c.group_tile + (q % c.ipt) * c.width + q // c.ipt


def wrap(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu" and x.dtype.itemsize == 8:
        return (x ^ (x >> x.dtype.type(32))) & x.dtype.type(255)
    if x.dtype.kind in "iu":
        return x & x.dtype.type(255)
    return x - np.floor(x * x.dtype.type(0.00390625)) * x.dtype.type(256)


def reduce_groups(c: Config, x: np.ndarray, valid) -> np.ndarray:
    """[S, groups, gt] -> [S, groups]: each group tile's first valid[s] items reduced."""
    dtype = x.dtype
    if valid is not None:
        keep = np.arange(x.shape[2])[None, None, :] < np.asarray(valid)[:, None, None]
        x = np.where(keep, x, lowest(dtype) if c.kind == "max" else dtype.type(0))
    return x.max(axis=2) if c.kind == "max" else x.sum(axis=2, dtype=dtype)


def scan_groups(c: Config, x: np.ndarray, prefix=None) -> np.ndarray:
    """[S, groups, gt] scanned along the group tile (prefix: [S, groups] added)."""
    dtype = x.dtype
    first = np.full(x.shape[:2] + (1,), lowest(dtype) if c.kind == "exclusive_max" else 0, dtype)
    if c.kind == "exclusive_max":
        return np.concatenate([first, np.maximum.accumulate(x, axis=2)[..., :-1]], axis=2)
    inclusive = np.cumsum(x, axis=2, dtype=dtype)
    if c.kind == "inclusive_sum":
        return inclusive
    out = np.concatenate([first, inclusive[..., :-1]], axis=2)
    return out if prefix is None else (out + prefix[..., None]).astype(dtype)


def model_tile(c: Config, tiles: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Input tiles k ([S, tile]) -> the tile kernel's output for them: [S, groups] aggregates
    (reduce) or [S, tile] (scan; prefix modes: see model_prefix_tile)."""
    x = tiles.reshape(len(tiles), c.groups, c.group_tile)
    if c.family == "reduce":
        return reduce_groups(c, x, valid_items(k, c.tile) if c.partial else None)
    return scan_groups(c, x).reshape(tiles.shape)


def model_prefix_tile(c: Config, run: np.ndarray) -> np.ndarray:
    """One block's run of consecutive tiles scanned with a running total from 0: the exclusive
    sum of the whole run."""
    out = np.zeros_like(run)
    np.cumsum(run[:-1], dtype=run.dtype, out=out[1:])
    return out


def model_loop(c: Config, tiles: np.ndarray, k: np.ndarray, reps: int) -> np.ndarray:
    """Blocks k's input tiles ([S, tile], memory order) -> the loop kernel's output."""
    positions = loop_positions(c)
    x = tiles[:, positions].reshape(len(tiles), c.groups, c.group_tile)
    valid = valid_items(k, c.tile) if c.partial else None
    total = np.zeros(x.shape[:2], x.dtype)
    for _ in range(reps):
        if c.family == "reduce":
            aggregate = reduce_groups(c, x, valid)
            x[..., :c.ipt] = wrap((x[..., :c.ipt] + aggregate[..., None]).astype(x.dtype))
        elif c.family == "prefix":
            out = scan_groups(c, x, total)
            total = wrap((total + x.sum(axis=2, dtype=x.dtype)).astype(x.dtype))
            x = wrap(out)
        else:
            x = wrap(scan_groups(c, x))
    out = np.empty_like(tiles)
    out[:, positions] = x.reshape(len(tiles), c.tile)
    return out


def prefix_grid(kernel, c: Config, sms: int, source, out, tiles: int) -> int:
    """The prefix modes' persistent grid: SMs times the blocks of the kernel an SM holds (the
    driver's occupancy calculator, with the kernel's dynamic shared memory), at most one block
    a tile. The kernel is specialized per launch grid, so each candidate grid is compiled (by
    a launch with no tiles) until the grid its occupancy gives is the one it was compiled for;
    the first candidate is the SMs' 2048 threads in blocks."""
    from numba_cuda_mlir._whole_function_planners import _REQUIRED_DYNAMIC_SHARED_MEMORY_KEY

    grid = min(tiles, sms * max(1, 2048 // c.block))
    for _ in range(4):
        kernel[grid, c.block](source, out, 0)
        overload = launched_overload(kernel)
        dynamic = overload.metadata.get(_REQUIRED_DYNAMIC_SHARED_MEMORY_KEY) or 0
        resident = min(tiles, overload.max_cooperative_grid_blocks(c.block, dynamic))
        if resident == grid:
            return grid
        grid = resident
    raise SystemExit(f"no persistent grid for {' '.join(map(str, c.key))}: the occupancy "
                     "changes with the grid")


def tile_bytes(c: Config, n: int) -> float:
    """Bytes a tile row moves (the reference's count)."""
    itemsize = np.dtype(c.numpy_dtype).itemsize
    if c.family != "reduce":
        return 2.0 * n * itemsize
    tiles = n // c.tile
    read = float(valid_items(np.arange(tiles), c.tile).sum()) if c.partial else float(n)
    return (read + tiles * c.groups) * itemsize


# ---- facts from PTX and MLIR ---------------------------------------------------------------

def coop_facts(c: Config, ptx: str, mlir: str) -> dict:
    kernels = [body for name, body in ptx_entries(ptx).items() if not name.startswith("__coop")]
    body = kernels[0] if len(kernels) == 1 else ptx
    facts = {"smem": shared_bytes(ptx), "ptx_bar": len(BAR.findall(body)),
             "ptx_wsync": len(WSYNC.findall(body)), "depot": "__local_depot" in ptx}
    facts["mlir_bar"], facts["mlir_wsync"] = mlir_barriers(mlir)
    if c.looped:
        facts["bar"], facts["wsync"] = facts["mlir_bar"], facts["mlir_wsync"]
    else:
        facts["bar"], facts["wsync"] = facts["ptx_bar"], facts["ptx_wsync"]
    return facts


# ---- the CUB reference ---------------------------------------------------------------------

LINE = re.compile(r"(tile|loop)\s+([\w.]+)\s+(int32|int64|float32|float64)\s+block=\s*(\d+)"
                  r" ipt=\s*(\d+) width=\s*(\d+)\s+ms=\s*([\d.]+)\s+"
                  r"(?:GB/s=\s*([\d.]+)\s+%memcpy=\s*[\d.]+|base_ms=\s*([\d.]+)"
                  r" ns/op=\s*(-?[\d.]+))\s+temp=\s*(\d+)\s+(OK|FAIL)(?: grid=(\d+))?")
CUB_NAME = re.compile(r"(?:reduce|scan|prefix)_(tile|loop)_kernel<(\w+)(?:<(?:\(int\))?(\d+)>)?,"
                      r"\s*(int|long|long long|float|double),\s*(?:\(int\))?(\d+),"
                      r"\s*(?:\(int\))?(\d+)>")
CUB_DTYPES = {"int": "int32", "long": "int64", "long long": "int64", "float": "float32",
              "double": "float64"}
STRUCTS = {m.replace(".", "_"): m for m in MODES}


def parse_reference(out: str) -> dict:
    rows = {}
    for m in LINE.finditer(out):
        key = (m.group(1), m.group(2), m.group(3), int(m.group(4)), int(m.group(5)),
               int(m.group(6)))
        value = float(m.group(8)) if m.group(1) == "tile" else float(m.group(10))
        rows[key] = {"value": value, "ms": float(m.group(7)), "temp": int(m.group(11)),
                     "ok": m.group(12) == "OK", "grid": m.group(13) and int(m.group(13))}
    return rows


def cub_key(pretty: str):
    m = CUB_NAME.search(pretty)
    if not m or m.group(2) not in STRUCTS:
        return None
    return (m.group(1), STRUCTS[m.group(2)], CUB_DTYPES[m.group(4)], int(m.group(5)),
            int(m.group(6)), int(m.group(3) or 0))


def _tool(name: str) -> str | None:
    """A CUDA tool on PATH, else pip's (nvidia-cuda-nvcc, nvidia.cu13)."""
    found = shutil.which(name)
    if found:
        return found
    try:
        import nvidia.cu13

        path = Path(nvidia.cu13.__path__[0]) / "bin" / name
        return str(path) if path.exists() else None
    except ImportError:
        return None


def _demangle(names: list[str], demangler: str) -> list[str]:
    return subprocess.run([demangler], input="\n".join(names), capture_output=True, text=True,
                          check=True).stdout.splitlines()


def resource_usage(cuobjdump: str, binary) -> list[tuple[str, int, int]]:
    """(function, registers, stack frame) of each function in a binary, from cuobjdump."""
    usage = subprocess.run([cuobjdump, "--dump-resource-usage", str(binary)],
                           capture_output=True, text=True, check=True).stdout
    return [(name, int(regs), int(stack)) for name, regs, stack in
            re.findall(r"Function (\S+):\s*\n\s*REG:(\d+) STACK:(\d+)", usage)]


def cub_facts(binary: Path) -> dict:
    """Per CUB kernel: block and warp barriers in the binary's PTX (-arch=sm_90 embeds it;
    from its SASS, BAR.SYNC and WARPSYNC, if it has none) and its SASS stack frame (cuobjdump
    --dump-resource-usage). {} without cuobjdump or a demangler."""
    cuobjdump = _tool("cuobjdump")
    demangler = _tool("cu++filt") or shutil.which("c++filt")
    if not cuobjdump or not demangler:
        print("no cuobjdump or demangler: CUB's barriers are not counted", file=sys.stderr)
        return {}
    ptx = subprocess.run([cuobjdump, "-ptx", str(binary)], capture_output=True, text=True,
                         check=True).stdout
    entries = ptx_entries(ptx)
    bar, wsync = BAR, WSYNC
    if not entries:
        print("no PTX in the CUB binary: its barriers are counted in SASS", file=sys.stderr)
        sass = subprocess.run([cuobjdump, "-sass", str(binary)], capture_output=True,
                              text=True, check=True).stdout
        entries = dict(re.findall(r"Function : (\S+)\n(.*?)(?=\n\s*Function : |\Z)", sass, re.S))
        bar, wsync = re.compile(r"\bBAR\.SYNC"), re.compile(r"\bWARPSYNC\b")
    names = list(entries)
    facts = {}
    for name, readable in zip(names, _demangle(names, demangler)):
        key = cub_key(readable)
        if key:
            facts[key] = {"bar": len(bar.findall(entries[name])),
                          "wsync": len(wsync.findall(entries[name]))}
    stacks = resource_usage(cuobjdump, binary)
    for (name, regs, stack), readable in zip(stacks,
                                             _demangle([n for n, _, _ in stacks], demangler)):
        key = cub_key(readable)
        if key in facts:
            facts[key]["stack"] = stack
            facts[key]["regs"] = regs
    return facts


def ptxas_usage(ptx: str, relocatable: bool) -> tuple[int | None, int | None]:
    """The kernel's stack frame (its local memory per thread; spills live in it) and registers
    per thread from ptxas -v for sm_90 (pip's ptxas, else the one on PATH), compiled as nvJitLink
    compiles it: an LTO kernel's PTX whole, Numba's PTX relocatable (-c, whose registers can
    differ: 1024x8 warp_reductions 40, not 32); Nones without a ptxas that takes the PTX."""
    candidates = [t for t in (_tool("ptxas"),) if t]
    try:
        import nvidia.cu13

        candidates.insert(0, str(Path(nvidia.cu13.__path__[0]) / "bin" / "ptxas"))
    except ImportError:
        pass
    for ptxas in candidates:
        try:
            mode = ["-c"] if relocatable else []
            result = subprocess.run([ptxas, "-arch=sm_90", *mode, "-v", "-", "-o", "/dev/null"],
                                    input=ptx, capture_output=True, text=True)
        except OSError:
            continue
        if result.returncode != 0:
            continue
        return (max(map(int, re.findall(r"(\d+) bytes stack frame", result.stderr)), default=0),
                max(map(int, re.findall(r"Used (\d+) registers", result.stderr)), default=None))
    return None, None


def reference_binary(directory: Path, prebuilt: Path | None, build: bool) -> Path | None:
    """The CUB binary: --cub's (a .xz is unpacked into DIR), else DIR's, built by nvcc when it
    is missing or older than the .cu (only when `build`)."""
    if prebuilt is not None:
        if prebuilt.suffix != ".xz":
            return prebuilt
        binary = directory / BINARY
        if not binary.exists() or binary.stat().st_mtime < prebuilt.stat().st_mtime:
            binary.write_bytes(lzma.decompress(prebuilt.read_bytes()))
            binary.chmod(0o755)
        return binary
    binary = directory / BINARY
    fresh = binary.exists() and binary.stat().st_mtime >= REFERENCE.stat().st_mtime
    if fresh or not build:
        return binary if fresh else None
    print(f"building {binary} (nvcc -O3 -arch=sm_90; ~4 CPU-minutes)", file=sys.stderr,
          flush=True)
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-std=c++17", "-o", str(binary),
                    str(REFERENCE)], check=True)
    return binary


def check_list(binary: Path, filters) -> None:
    result = subprocess.run([str(binary), "list", *filters], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{binary} does not take the filters {' '.join(filters)} "
                         f"({result.stderr.strip()}); a binary older than comma alternatives "
                         "must be rebuilt from cub_reduce_scan.cu")
    listed = result.stdout.split("\n")
    expected = {" ".join(map(str, c.key)) for c in select(configurations(), filters)}
    if {line for line in listed if line} != expected:
        raise SystemExit(f"{binary.name}'s configurations differ from this script's "
                         "(update MODE_TABLE to match add_all in cub_reduce_scan.cu)")


def run_reference(binary: Path, directory: Path, filters, options) -> tuple[dict, dict, str]:
    check_list(binary, filters)
    print(f"running {binary.name}", file=sys.stderr, flush=True)
    out = subprocess.run([str(binary), *filters, "--anchor", *options], capture_output=True,
                         text=True, check=True).stdout
    (directory / f"{BINARY}.txt").write_text(out)
    return parse_reference(out), cub_facts(binary), out


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    from numba_cuda_mlir import cuda

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    median_ms, slept, memcpy = calibrate(cuda, options, _sleeper(), SLEEP_US, TOTAL_BYTES)

    values = input_values(TOTAL_BYTES // 4)
    pinned = cuda.pinned_array(TOTAL_BYTES, np.uint8)  # the output, back for the checks
    rows = []
    buffers: dict = {}
    for number, c in enumerate(configs, 1):
        print(f"[{number}/{len(configs)}] {' '.join(map(str, c.key))}", file=sys.stderr,
              end=" ", flush=True)
        try:
            row = _run_one(c, options, cuda, sms, median_ms, values, pinned, buffers)
        except KeyboardInterrupt:
            print(f"stopped: the table has the {number - 1} rows before this one",
                  file=sys.stderr, flush=True)
            break
        except Exception as error:  # noqa: BLE001 -- a failed row is reported, the run goes on
            print(f"FAILED: {type(error).__name__}: {str(error)[:2000]}", file=sys.stderr,
                  flush=True)
            row = (c, None, False, {"smem": None, "bar": None, "wsync": None, "local": None,
                                    "depot": False, "ptx_bar": None, "ptx_wsync": None,
                                    "mlir_bar": None, "mlir_wsync": None})
        else:
            print(f"{row[1]:.3f} {'OK' if row[2] else 'FAIL'}", file=sys.stderr, flush=True)
        rows.append(row)
    return rows, memcpy, sms, slept


def _run_one(c: Config, options, cuda, sms: int, median_ms, values, pinned, buffers) -> tuple:
    """One configuration on the GPU: (config, GB/s or ns/op, verified, facts)."""
    itemsize = np.dtype(c.numpy_dtype).itemsize
    n_all = TOTAL_BYTES // itemsize
    if c.dtype not in buffers:
        buffers.clear()
        host = values[:n_all].astype(c.numpy_dtype)
        buffers[c.dtype] = (host, cuda.to_device(host), cuda.device_array(n_all, c.numpy_dtype),
                            cuda.to_device(np.zeros(n_all, c.numpy_dtype)))
    host, src, out, zeros = buffers[c.dtype]
    source = ReadOnly(src) if options.read_only else src
    tile = c.tile
    tiles = n_all // tile
    n = tiles * tile
    kernel = Build.of(options).kernel(c)
    if c.kernel == "loop":
        grid, reps = options.grid, options.reps
        if grid * tile > n_all:
            raise SystemExit(f"--grid={grid} too large for a 1 GiB buffer")
        args = (source, out, np.int32(reps))
    elif c.family == "prefix":
        grid, reps = prefix_grid(kernel, c, sms, source, out, tiles), 1
        args = (source, out, tiles)
    else:
        grid, reps = tiles, 1
        args = (source, out)
    out.copy_to_device(zeros)
    kernel[grid, c.block](*args)
    cuda.synchronize()

    def back(count):
        view = pinned.view(c.numpy_dtype)[:count]
        out[:count].copy_to_host(view)
        return view
    if c.kernel == "loop":
        chosen = sample(grid)
        got = back(grid * tile).reshape(grid, tile)[chosen]
        expected = model_loop(c, host[:grid * tile].reshape(grid, tile)[chosen], chosen, reps)
        ok = bool(np.array_equal(got, expected))
    elif c.family == "reduce":
        chosen = sample(tiles)
        got = back(tiles * c.groups).reshape(tiles, c.groups)[chosen]
        expected = model_tile(c, host[:n].reshape(tiles, tile)[chosen], chosen)
        ok = bool(np.array_equal(got, expected))
    elif c.family == "scan":
        chosen = sample(tiles)
        got = back(n).reshape(tiles, tile)[chosen]
        expected = model_tile(c, host[:n].reshape(tiles, tile)[chosen], chosen)
        ok = bool(np.array_equal(got, expected))
    else:  # each sampled block's run of tiles
        runs = [(b * tiles // grid * tile, (b + 1) * tiles // grid * tile)
                for b in sample(grid)]
        ok = all(np.array_equal(out[lo:hi].copy_to_host(), model_prefix_tile(c, host[lo:hi]))
                 for lo, hi in runs)
    ms = median_ms(lambda: kernel[grid, c.block](*args))
    if c.kernel == "tile":
        value = tile_bytes(c, n) / (ms * 1e6)
    else:
        base = median_ms(lambda: kernel[grid, c.block](source, out, np.int32(0)))
        value = (ms - base) * 1e6 * sms / (grid * reps) if reps > 0 else 0.0
    overload = launched_overload(kernel)
    facts = coop_facts(c, kernel_ptx(overload),
                       str(overload.metadata.get("mlir_module_optimized", "")))
    overload._ensure_kernel_attrs()
    facts["local"] = overload.metadata.get("local_mem_per_thread")
    facts["regs"] = overload.metadata.get("regs_per_thread")
    facts["ptxas"] = ptxas_versions(overload.metadata.get("cubin"))
    if c.family == "prefix" and c.kernel == "tile":
        facts["grid"] = grid
    return c, value, ok, facts


@dataclass(frozen=True)
class Build:
    """How coop's kernels are built and called: --no-lto (lto False), --auto-sync,
    --read-only, --range-loop."""
    lto: bool | None = None
    auto_sync: bool = False
    read_only: bool = False
    range_loop: bool = False

    @classmethod
    def of(cls, args) -> Build:
        return cls(args.lto, args.auto_sync, args.read_only, args.range_loop)

    def kernel(self, c: Config):
        return make_kernel(c, self.lto, self.auto_sync, self.range_loop)


def _compile_keys(keys, directory: str, build: Build) -> list:
    """Compiles configurations (keys) to PTX for sm_90 without a GPU; [(key, facts)]."""
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    import numba_compile as nc  # pretends to be sm_90

    out = []
    for key in keys:
        c = Config(*key)
        cres = nc.compile_for_launch(build.kernel(c), argtypes(c, build.read_only),
                                     (c.block,))
        ptx = cres.metadata["ptx"]
        (Path(directory) / ("coop_" + "_".join(map(str, c.key)) + ".ptx")).write_text(ptx)
        facts = coop_facts(c, ptx, str(cres.metadata.get("mlir_module_optimized", "")))
        facts["local"], facts["regs"] = ptxas_usage(ptx, relocatable=build.lto is False)
        out.append((key, facts))
    return out


def compile_only(configs, directory: Path, jobs: int = 1, build: Build = Build()) -> list:
    """Every configuration compiled to PTX for sm_90 without a GPU (in `jobs` processes)."""
    import warnings

    warnings.filterwarnings("ignore", message="Persistent disk cache is disabled")
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    import numba_compile as nc

    from numba_cuda_mlir import types

    nc.compile_for_launch(_sleeper(), [types.int64], (1,), grid=1)  # the timing helper
    keys = [c.key for c in configs]
    if jobs <= 1 or len(keys) < 2 * jobs:
        facts = dict(_compile_keys(keys, str(directory), build))
    else:
        import multiprocessing

        chunks = [keys[j::jobs] for j in range(jobs)]
        with multiprocessing.get_context("spawn").Pool(jobs, initializer=_quiet) as pool:
            facts = dict(item for part in pool.starmap(
                _compile_keys, [(chunk, str(directory), build) for chunk in chunks])
                for item in part)
    return [(c, None, None, facts[c.key]) for c in configs]


def _quiet():
    import warnings

    warnings.filterwarnings("ignore", message="Persistent disk cache is disabled")


# ---- the table -----------------------------------------------------------------------------

def _pair(ours, theirs, width=5) -> str:
    a = "?" if ours is None else str(ours)
    b = "?" if theirs is None else str(theirs)
    return f"{a:>{width}}/{b:<{width}}"


def print_table(rows, cub: dict, cub_bars: dict) -> dict:
    header = (f"{'kernel':4} {'mode':35} {'dtype':7} {'block':>5} {'ipt':>3} {'width':>5} "
              f"{'coop':>9} {'CUB':>9} {'unit':5} {'coop/CUB':>8} {'ok':>7}  "
              f"{'smem':>13} {'bar':>7} {'wsync':>7} {'regs':>7} {'local':>9}")
    print(header)
    print("-" * (len(header) + 8))
    summary = {"rows": 0, "bad": [], "local": [], "local_cub_too": [],
               "ratios": {"tile": [], "loop": []}}
    for c, value, ok, facts in rows:
        ref = cub.get(c.key)
        bars = cub_bars.get(c.key, {})
        unit = "GB/s" if c.kernel == "tile" else "ns/op"
        ratio = None
        if value is not None and ref is not None and ref["value"] > 0 and value > 0:
            ratio = value / ref["value"] if c.kernel == "tile" else ref["value"] / value
            summary["ratios"][c.kernel].append((ratio, c))
        ours_ok = "-" if ok is None else ("OK" if ok else "FAIL")
        theirs_ok = "-" if ref is None else ("OK" if ref["ok"] else "FAIL")
        if ok is False or (ref is not None and not ref["ok"]):
            summary["bad"].append(c)
        if facts["local"] != 0 or facts["depot"]:
            summary["local_cub_too" if bars.get("stack") else "local"].append(c)
        summary["rows"] += 1
        fmt = (lambda v: f"{v:9.1f}") if c.kernel == "tile" else (lambda v: f"{v:9.3f}")
        print(f"{c.kernel:4} {c.mode:35} {c.dtype:7} {c.block:5d} {c.ipt:3d} {c.width:5d} "
              f"{'-' if value is None else fmt(value):>9} "
              f"{'-' if ref is None else fmt(ref['value']):>9} {unit:5} "
              f"{'-' if ratio is None else f'{ratio:8.3f}':>8} {ours_ok + '/' + theirs_ok:>7}  "
              f"{_pair(facts['smem'], ref and ref['temp'], 6)} "
              f"{_pair(facts['bar'], bars.get('bar'), 3)} "
              f"{_pair(facts['wsync'], bars.get('wsync'), 3)} "
              f"{_pair(facts.get('regs'), bars.get('regs'), 3)} "
              f"{_pair(facts['local'], bars.get('stack'), 4)}")
    return summary


def barrier_summary(rows, cub_bars: dict) -> None:
    """Per mode and kernel: the block barriers (coop/CUB) and how many configurations have
    them."""
    print("block barriers per mode (coop/CUB: configurations), tile | loop:")
    per_mode: dict = {}
    for c, _, _, facts in rows:
        pair = f"{facts['bar']}/{cub_bars.get(c.key, {}).get('bar', '?')}"
        counts = per_mode.setdefault(c.mode, {"tile": {}, "loop": {}})[c.kernel]
        counts[pair] = counts.get(pair, 0) + 1
    for mode, kinds in per_mode.items():
        text = [" ".join(f"{p}:{n}" for p, n in sorted(kinds[k].items())) or "-"
                for k in ("tile", "loop")]
        print(f"  {mode:35} {text[0]:24} | {text[1]}")


def grid_summary(rows, cub: dict) -> None:
    """The prefix tile rows' persistent grids (coop/CUB), each side's resident blocks."""
    grids = [f"{c.mode.split('.')[1]} {c.dtype} {c.block}x{c.ipt} {facts['grid']}/"
             f"{cub.get(c.key, {}).get('grid') or '?'}"
             for c, _, _, facts in rows if "grid" in facts]
    if grids:
        print("persistent grids of the prefix tile rows (blocks, coop/CUB):", "; ".join(grids))


def report_checks(rows, summary) -> bool:
    """Prints the kernels with local memory (or none known), apart those where CUB's kernel has
    a stack frame too, and those whose barrier count from MLIR differs from their PTX's in a
    kernel without a loop (the loop rows' count would then not be the executed one); True if
    there are any but the kernels where CUB has a stack frame too."""
    local, both = summary["local"], summary["local_cub_too"]
    if local:
        print(f"local memory (or no ptxas to tell) in {len(local)} kernels where CUB has none "
              "(or is not known):", "; ".join(" ".join(map(str, c.key)) for c in local))
    if both:
        print(f"local memory in {len(both)} kernels where CUB's has a stack frame too:",
              "; ".join(" ".join(map(str, c.key)) for c in both))
    if not local and not both:
        print(f"local memory: none in {len(rows)} kernels")
    mismatched = [c for c, _, _, f in rows if not c.looped and
                  (f["ptx_bar"], f["ptx_wsync"]) != (f["mlir_bar"], f["mlir_wsync"])]
    for c in mismatched:
        print("barriers in PTX and MLIR differ:", *c.key)
    return bool(local or mismatched)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path, help="where the CUB binary, PTX and logs go")
    parser.add_argument("filters", nargs="*",
                        help="KERNEL MODE DTYPE BLOCK IPT WIDTH, as cub_reduce_scan ('all': any)")
    parser.add_argument("--compile-only", action="store_true",
                        help="compile every selected configuration to PTX (no GPU) and check it")
    parser.add_argument("--cub", type=Path, default=None,
                        help="a prebuilt cub_reduce_scan (or cub_reduce_scan.xz) instead of "
                             "building DIR/cub_reduce_scan")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                        help="processes compiling with --compile-only")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--reps", type=int, default=64)
    parser.add_argument("--grid", type=int, default=8192)
    parser.add_argument("--read-only", action="store_true",
                        help="pass the input read-only (ld.global.nc), as the reference's "
                             "const T* __restrict__")
    add_lto_option(parser)
    parser.add_argument("--auto-sync", action="store_true",
                        help="loop kernels' block calls take coop.TempStorage(auto_sync=True): "
                             "the reuse barrier right after each call, as the reference's")
    add_range_loop_option(parser)
    args = parser.parse_args(argv)
    if len(args.filters) > 6:
        parser.error("at most six filters: KERNEL MODE DTYPE BLOCK IPT WIDTH")
    configs = select(configurations(), args.filters)
    if not configs:
        parser.error("no configuration matches the filters")
    if args.runs < 1 or args.warmup < 0 or args.reps < 0 or args.grid < 1:
        parser.error("bad option value")
    args.directory.mkdir(parents=True, exist_ok=True)

    if args.compile_only:
        # CUB's barriers without a GPU when its binary is at hand (nothing is built).
        binary = reference_binary(args.directory, args.cub, build=False)
        cub_bars = {}
        if binary is not None:
            check_list(binary, args.filters)
            cub_bars = cub_facts(binary)
        rows = compile_only(configs, args.directory, args.jobs, Build.of(args))
        relocatable = " --no-lto" if args.lto is False else ""
        print(f"# numba_reduce_scan --compile-only{relocatable}: {len(rows)} kernels"
              f" compiled for sm_90 (PTX in {args.directory}); CUB barriers: "
              f"{f'from {binary}' if cub_bars else 'none (no CUB binary or cuobjdump)'}")
        summary = print_table(rows, {}, cub_bars)
        barrier_summary(rows, cub_bars)
        return 1 if report_checks(rows, summary) else 0

    options = [f"--runs={args.runs}", f"--warmup={args.warmup}", f"--reps={args.reps}",
               f"--grid={args.grid}"]
    binary = reference_binary(args.directory, args.cub, build=True)
    assert binary is not None
    cub, cub_bars, cub_out = run_reference(binary, args.directory, args.filters, options)
    # A run stopped by SIGTERM (a time limit) or Ctrl-C still prints the rows it measured.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        rows, memcpy, sms, slept = run_coop(configs, args)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print_run_header(cub_out, memcpy, sms, slept, args)
    if len(rows) < len(configs):
        print(f"stopped: {len(rows)} of {len(configs)} configurations measured")
    print_code_generators(rows, binary)
    summary = print_table(rows, cub, cub_bars)
    print_summary(summary)
    barrier_summary(rows, cub_bars)
    grid_summary(rows, cub)
    checks_failed = report_checks(rows, summary)
    return 1 if summary["bad"] or checks_failed or len(rows) < len(configs) else 0


if __name__ == "__main__":
    sys.exit(main())
