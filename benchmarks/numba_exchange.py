"""cuda.coop.exchange and cuda.coop.shuffle in Numba-CUDA-MLIR kernels against
CUB (benchmarks/reference/cub_exchange.cu), in one run on the GPU.

  python3 benchmarks/numba_exchange.py DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]
          [--runs=21] [--warmup=3] [--reps=64] [--grid=8192]     # on the GPU machine
  python3 benchmarks/numba_exchange.py DIR [filters] --compile-only  # anywhere: PTX, no GPU

The filters and options are cub_exchange's own ("all" matches anything) and go
to both sides. The run builds the reference with nvcc -O3 -arch=sm_90 into DIR,
runs it, then runs the same configurations as @cuda.jit kernels (with coop's
planned scratch: no temp_storage, and none of the reuse barriers CUB users
write -- coop plans them) and prints one table.

The kernels are the reference's, for every mode:

  tile: one tile per block (1<<28 int32 / 1<<27 f64, full tiles): load striped ->
        forward -> item += threadIdx.x -> inverse -> store striped; GB/s.
  loop: --grid blocks load one tile, then --reps times {forward; += threadIdx.x;
        inverse}, then store; ns/op = (t(reps) - t(0)) * SMs / (grid * reps * ops),
        ops per iteration 2 (2*ipt for the scalar shuffles offset/rotate).
        The repetition is `rep = np.int32(0); while rep < reps: ...; rep = np.int32(rep + 1)`,
        which compiles to the reference's `#pragma unroll 1` int loop (one uniform add, a
        compare and a branch an iteration); `for _ in range(reps)` (--range-loop) is Numba's
        range iterator (a clamped remaining count, unrolled by four by NVVM).
  Scatter ranks reverse the tile, times a kernel argument `step` (1) on both sides,
  so that no compiler proves a thread's ranks consecutive (as for ranks from data).

coop builds its kernels with link-time code generation (as cuda.jit(lto=True)): nvJitLink
generates their code for the whole program (registers as nvcc's); the PTX facts come from the PTX
it generates from their LTO-IR. --no-lto builds them with cuda.jit(lto=False), Numba's default:
Numba's PTX, compiled by nvJitLink as relocatable code.

"Striped" is the block's striped layout; warp modes use each logical warp's own
striped tile. Every row is checked against a NumPy model of the mode (tiles 0,
97, 194, ... and the last, as the reference does): the ok column is ours/CUB's.

Times: the median of --runs launches after --warmup, each between its own event
pair, as the reference does; ours are enqueued behind a sleeping kernel so that
Numba's launch cost is not timed (the reference's few microseconds of
cudaLaunchKernel latency are in its times: about 1% of a tile row, and they
cancel in ns/op). coop/CUB is the speed ratio: GB/s coop/CUB for tile rows,
ns/op CUB/coop for loop rows (> 1: coop is faster).

Facts (a/b = coop/CUB): smem is the kernel's shared memory (our PTX's .shared
bytes; CUB's sizeof(TempStorage)); bar and wsync count block barriers
(bar.sync/barrier.sync/bar.red) and warp barriers (bar.warp.sync) in the PTX, per tile
(tile rows) or per loop iteration (loop rows: CUB's loop is `#pragma unroll 1`,
so its PTX count; for ours, LLVM unrolls the runtime loop, so the count is taken
from the kernel's optimized MLIR before LLVM); local is our kernel's local
memory in bytes per thread (the driver's attribute on the GPU, ptxas -v with
--compile-only), which must be 0.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gpu_timing import (add_lto_option, add_range_loop_option, calibrate, coop_jit, kernel_ptx,
                        launched_overload, print_code_generators, print_run_header,
                        print_summary, ptxas_versions, repeat_lines)
from gpu_timing import sleeper as _sleeper

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference" / "cub_exchange.cu"

# The reference's configurations (add_all in cub_exchange.cu), in its order.
BLOCK_MODES = ("striped", "striped_timesliced", "warp_striped", "scatter", "shuffle_up_down")
SCALAR_MODES = ("shuffle_offset", "shuffle_rotate")
WARP_MODES = ("warp_exchange_striped", "warp_exchange_scatter")
MODES = BLOCK_MODES + SCALAR_MODES + WARP_MODES
BLOCK_CONFIGS = ((128, 1), (128, 4), (256, 4), (256, 8), (128, 16))
SCALAR_CONFIGS = ((128, 1), (256, 1), (128, 4), (256, 4))
WARP_CONFIGS = ((32, 128, 4), (32, 256, 8), (8, 128, 4), (8, 256, 8))  # width, block, ipt
DTYPES = {"int32": np.int32, "f64": np.float64}
TOTAL_BYTES = 1 << 30  # the reference's buffer: 1 GiB
SLEEP_US = 20000  # a sleeping kernel ahead of each timed batch (covers Numba's launch cost)


@dataclass(frozen=True)
class Config:
    kernel: str  # "tile" or "loop"
    mode: str
    dtype: str   # "int32" or "f64"
    block: int
    ipt: int
    width: int   # 0: the block

    @property
    def key(self) -> tuple:
        return (self.kernel, self.mode, self.dtype, self.block, self.ipt, self.width)

    @property
    def ops(self) -> int:
        return 2 * self.ipt if self.mode in SCALAR_MODES else 2

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype]


def configurations() -> list[Config]:
    out = []
    for dtype in DTYPES:
        def add(mode, block, ipt, width=0):
            out.extend(Config(k, mode, dtype, block, ipt, width) for k in ("tile", "loop"))
        for mode in BLOCK_MODES:
            for block, ipt in BLOCK_CONFIGS:
                add(mode, block, ipt)
        for mode in SCALAR_MODES:
            for block, ipt in SCALAR_CONFIGS:
                add(mode, block, ipt)
        for mode in WARP_MODES:
            for width, block, ipt in WARP_CONFIGS:
                add(mode, block, ipt, width)
    return out


def select(configs, filters) -> list[Config]:
    """cub_exchange's filter rule: "all" matches anything; float64 means f64."""
    filters = list(filters) + ["all"] * (6 - len(filters))

    def match(f, v):
        return f == "all" or f == str(v) or (f == "float64" and v == "f64")
    return [c for c in configs if all(match(f, v) for f, v in zip(filters, c.key))]


# ---- the kernels ---------------------------------------------------------------------------
# Each mode: the statements of one forward -> += tid -> inverse step, from payload `a` to
# payload `c`, with `b` between; CUB's TempStorage reuse barriers are not written (coop plans
# them). Scatter ranks are computed where the reference computes them (in each operation), times
# the kernel's `step` argument (1) as there: a compiler can then not prove them consecutive, as
# for ranks computed from data.

def _ranks(name: str, expression: str, ipt: int) -> list[str]:
    return [f"for i in range({ipt}):", f"    {name}[i] = {expression}"]


def _add_tid(name: str, ipt: int) -> list[str]:
    return [f"for i in range({ipt}):", f"    {name}[i] += tid"]


def _step(c: Config) -> tuple[list[str], list[str]]:
    """(prologue payloads, step statements) of a mode."""
    B, I, W = c.block, c.ipt, c.width
    last = B * I - 1
    exchanges = {"striped": ("striped_to_blocked", "blocked_to_striped", ""),
                 "striped_timesliced": ("striped_to_blocked", "blocked_to_striped",
                                        ", warp_time_slicing=True"),
                 "warp_striped": ("warp_striped_to_blocked", "blocked_to_warp_striped", ""),
                 "warp_exchange_striped": ("striped_to_blocked", "blocked_to_striped", "")}
    if c.mode in exchanges:
        fwd, inv, extra = exchanges[c.mode]
        return [], [f'b = coop.exchange(group, a, mode="{fwd}"{extra})', *_add_tid("b", I),
                    f'c = coop.exchange(group, b, mode="{inv}"{extra})']
    if c.mode == "scatter":
        return ["ranks = coop.ThreadData(%d, dtype=np.int32)" % I], [
            # input striped: reverse the tile
            *_ranks("ranks", f"{last} - (i * {B} + tid) * step", I),
            'b = coop.exchange(group, a, mode="scatter_to_blocked", ranks=ranks)',
            *_add_tid("b", I),
            # input blocked: reverse the tile
            *_ranks("ranks", f"{last} - (tid * {I} + i) * step", I),
            'c = coop.exchange(group, b, mode="scatter_to_striped", ranks=ranks)']
    if c.mode == "warp_exchange_scatter":
        reverse = _ranks("ranks", f"{W * I - 1} - (i * {W} + tid % {W}) * step", I)
        return ["ranks = coop.ThreadData(%d, dtype=np.int32)" % I], [
            *reverse, 'b = coop.exchange(group, a, mode="scatter_to_striped", ranks=ranks)',
            *_add_tid("b", I),
            *reverse, 'c = coop.exchange(group, b, mode="scatter_to_striped", ranks=ranks)']
    if c.mode == "shuffle_up_down":
        # The vacated element keeps its own value (the reference pre-sets the output).
        return [], ['b = coop.shuffle(group, a, mode="up", fill=a[0])', *_add_tid("b", I),
                    f'c = coop.shuffle(group, b, mode="down", fill=b[{I - 1}])']
    # Scalar shuffles, one per item, unrolled as the reference's #pragma unroll; out of range
    # (offset) keeps its own value.
    kind, there, back = ("offset", 1, -1) if c.mode == "shuffle_offset" else ("rotate", 1, B - 1)
    dtype = "np.int32" if c.dtype == "int32" else "np.float64"
    payloads = [f"{name} = coop.ThreadData({I}, dtype={dtype})" for name in ("b", "c")]
    return payloads, [
        *(f'b[{i}] = coop.shuffle(group, a[{i}], mode="{kind}", distance={there})'
          for i in range(I)),
        *_add_tid("b", I),
        *(f'c[{i}] = coop.shuffle(group, b[{i}], mode="{kind}", distance={back})'
          for i in range(I))]


def kernel_source(c: Config, range_loop: bool = False) -> str:
    group = ("coop.this_block()" if c.width == 0 else "coop.this_warp()" if c.width == 32
             else f"coop.this_warp().group_by({c.width})")
    prologue, step = _step(c)
    lines = [f"def {c.kernel}_{c.mode}(src, dst{', reps' if c.kernel == 'loop' else ''}, step):",
             f"    group = {group}",
             "    tid = cuda.threadIdx.x",
             f"    base = cuda.blockIdx.x * {c.block * c.ipt}",
             f"    a = coop.ThreadData({c.ipt})",
             *(f"    {p}" for p in prologue),
             '    coop.load(group, src, a, offset=base, algorithm="striped")']
    if c.kernel == "tile":
        lines += [f"    {s}" for s in step]
        lines.append('    coop.store(group, dst, c, offset=base, algorithm="striped")')
    else:
        head, tail = repeat_lines(range_loop)
        lines += head
        lines += [f"        {s}" for s in step]
        lines += [f"        for i in range({c.ipt}):", "            a[i] = c[i]"]
        lines += tail
        lines.append('    coop.store(group, dst, a, offset=base, algorithm="striped")')
    return "\n".join(lines) + "\n"


def make_kernel(c: Config, lto: bool | None = None, range_loop: bool = False):
    from numba_cuda_mlir import cuda

    import cuda.coop.numba_mlir as coop

    namespace = {"cuda": cuda, "coop": coop, "np": np}
    exec(compile(kernel_source(c, range_loop), f"<{' '.join(map(str, c.key))}>", "exec"),
         namespace)
    function = namespace[f"{c.kernel}_{c.mode}"]
    return coop_jit(cuda, function, lto)


def argtypes(c: Config) -> list:
    from numba_cuda_mlir import types

    array = (types.int32 if c.dtype == "int32" else types.float64)[::1]
    # reps is an int32, as the reference's `int reps`: an int64 trip count costs the loop a
    # 64-bit counter, which is not the exchange's.
    return [array, array] + ([types.int32] if c.kernel == "loop" else []) + [types.int32]


# ---- the NumPy model -----------------------------------------------------------------------
# Registers are [tiles, block * ipt] with thread t's item i at t * ipt + i; every mode's forward
# and inverse are gathers o[:, j] = r[:, src[j]].

def _position(layout: str, B: int, I: int, W: int) -> np.ndarray:
    t, i = np.arange(B)[:, None], np.arange(I)[None, :]
    pos = {"striped": i * B + t,
           "blocked": t * I + i,
           "warp_striped": (t // 32) * 32 * I + t % 32 + 32 * i,
           "lw_striped": (t // max(W, 1)) * W * I + i * W + t % max(W, 1),
           "lw_blocked": (t // max(W, 1)) * W * I + (t % max(W, 1)) * I + i}[layout]
    return np.broadcast_to(pos, (B, I)).reshape(-1)


def _gather(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Item k goes to tile position source[k]; register j then takes position target[j]."""
    inverse = np.empty_like(source)
    inverse[source] = np.arange(source.size)
    return inverse[target]


def model_gathers(mode: str, B: int, I: int, W: int):
    """(positions the tile is loaded from/stored to, forward gather, inverse gather)."""
    t, i = np.repeat(np.arange(B), I), np.tile(np.arange(I), B)
    last = B * I - 1
    striped, blocked = _position("striped", B, I, W), _position("blocked", B, I, W)
    if mode in WARP_MODES:
        lw_striped, lw_blocked = _position("lw_striped", B, I, W), _position("lw_blocked", B, I, W)
        if mode == "warp_exchange_striped":
            return lw_striped, _gather(lw_striped, lw_blocked), _gather(lw_blocked, lw_striped)
        reverse = (t // W) * W * I + W * I - 1 - (i * W + t % W)
        return lw_striped, _gather(reverse, lw_striped), _gather(reverse, lw_striped)
    if mode in ("striped", "striped_timesliced"):
        return striped, _gather(striped, blocked), _gather(blocked, striped)
    if mode == "warp_striped":
        warp = _position("warp_striped", B, I, W)
        return striped, _gather(warp, blocked), _gather(blocked, warp)
    if mode == "scatter":
        return striped, _gather(last - striped, blocked), _gather(last - blocked, striped)
    p = np.arange(B * I)
    if mode == "shuffle_up_down":
        return striped, np.maximum(p - 1, 0), np.minimum(p + 1, last)
    if mode == "shuffle_offset":
        return (striped, np.where(t + 1 < B, p + I, p), np.where(t >= 1, p - I, p))
    assert mode == "shuffle_rotate", mode
    return striped, (t + 1) % B * I + i, (t + B - 1) % B * I + i


def model(c: Config, tiles: np.ndarray, reps: int) -> np.ndarray:
    """The output tiles ([k, block * ipt]) of the kernel for input tiles."""
    positions, forward, inverse = model_gathers(c.mode, c.block, c.ipt, c.width)
    r = tiles[:, positions]
    tid = np.repeat(np.arange(c.block), c.ipt).astype(tiles.dtype)
    for _ in range(reps):
        r = r[:, forward] + tid
        r = r[:, inverse]
    out = np.empty_like(tiles)
    out[:, positions] = r
    return out


def sample(count: int) -> np.ndarray:
    """The reference's sampled tiles: 0, 97, 194, ... and the last."""
    s = list(range(0, count, 97))
    if s[-1] != count - 1:
        s.append(count - 1)
    return np.array(s)


# ---- facts from PTX and MLIR ---------------------------------------------------------------

# Block barriers, with those that reduce a predicate too (bar.red: run-length decode's).
BAR = re.compile(r"\b(?:bar|barrier)\.(?:sync|red)\b")
WSYNC = re.compile(r"\bbar\.warp\.sync\b")


def ptx_entries(ptx: str) -> dict[str, str]:
    """Entry name -> body, for each kernel of a PTX text."""
    parts = re.split(r"\.entry\s+([\w$]+)\s*\(", ptx)
    return {parts[k]: parts[k + 1] for k in range(1, len(parts), 2)}


def shared_bytes(ptx: str) -> int:
    return sum(int(n) for n in re.findall(r"^\s*\.shared\s[^;\[]*\[(\d+)\]", ptx, re.M))


def mlir_barriers(mlir: str) -> tuple[int, int]:
    """Block and warp barriers in an optimized (LLVM-dialect) kernel module."""
    return (len(re.findall(r"\bnvvm\.barrier\w*\b", mlir)),
            len(re.findall(r"\bnvvm\.bar\.warp\.sync\b", mlir)))


def coop_facts(c: Config, ptx: str, mlir: str) -> dict:
    kernels = [body for name, body in ptx_entries(ptx).items() if not name.startswith("__coop")]
    body = kernels[0] if len(kernels) == 1 else ptx
    facts = {"smem": shared_bytes(ptx), "ptx_bar": len(BAR.findall(body)),
             "ptx_wsync": len(WSYNC.findall(body)), "depot": "__local_depot" in ptx}
    facts["mlir_bar"], facts["mlir_wsync"] = mlir_barriers(mlir)
    if c.kernel == "tile":
        facts["bar"], facts["wsync"] = facts["ptx_bar"], facts["ptx_wsync"]
    else:
        facts["bar"], facts["wsync"] = facts["mlir_bar"], facts["mlir_wsync"]
    return facts


def ptxas_local_bytes(ptx: str) -> int | None:
    """Stack frame plus spill bytes from ptxas -v (pip's ptxas, else the one on PATH)."""
    candidates = []
    try:
        import nvidia.cu13

        candidates.append(str(Path(nvidia.cu13.__path__[0]) / "bin" / "ptxas"))
    except ImportError:
        pass
    candidates.append("ptxas")
    for ptxas in candidates:
        try:
            result = subprocess.run([ptxas, "-arch=sm_90", "-v", "-", "-o", "/dev/null"],
                                    input=ptx, capture_output=True, text=True)
        except OSError:
            continue
        if result.returncode != 0:
            continue
        numbers = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                             r"(\d+) bytes spill loads", result.stderr)
        return sum(int(x) for row in numbers for x in row)
    return None


# ---- the CUB reference ---------------------------------------------------------------------

LINE = re.compile(r"(tile|loop)\s+(\w+)\s+(int32|f64)\s+block=\s*(\d+) ipt=\s*(\d+)"
                  r" width=\s*(\d+)\s+ms=\s*([\d.]+)\s+"
                  r"(?:GB/s=\s*([\d.]+)|base_ms=\s*([\d.]+) ns/op=\s*(-?[\d.]+))"
                  r"\s+temp=\s*(\d+)\s+(OK|FAIL)")
CUB_NAME = re.compile(r"(tile|loop)_kernel<(\w+)(?:<(?:\(int\))?(\d+)>)?,\s*(int|double),"
                      r"\s*(?:\(int\))?(\d+),\s*(?:\(int\))?(\d+)>")


def reference_rows(out: str, line: re.Pattern) -> dict:
    """A reference binary's result lines (`line`: kernel, mode, dtype, block, ipt, width, ms,
    GB/s or ns/op, temp, OK/FAIL), by configuration key."""
    rows = {}
    for m in line.finditer(out):
        key = (m.group(1), m.group(2), m.group(3), int(m.group(4)), int(m.group(5)),
               int(m.group(6)))
        value = float(m.group(8)) if m.group(1) == "tile" else float(m.group(10))
        rows[key] = {"value": value, "ms": float(m.group(7)), "temp": int(m.group(11)),
                     "ok": m.group(12) == "OK"}
    return rows


def parse_reference(out: str) -> dict:
    return reference_rows(out, LINE)


def cub_key(pretty: str):
    m = CUB_NAME.search(pretty)
    if not m:
        return None
    return (m.group(1), m.group(2), "int32" if m.group(4) == "int" else "f64", int(m.group(5)),
            int(m.group(6)), int(m.group(3) or 0))


def cub_barriers(binary: Path) -> dict:
    """Per CUB kernel: block and warp barriers in the binary's PTX (-arch=sm_90 embeds it);
    from its SASS (BAR.SYNC, WARPSYNC) if it has none."""
    ptx = subprocess.run(["cuobjdump", "-ptx", str(binary)], capture_output=True, text=True,
                         check=True).stdout
    entries = ptx_entries(ptx)
    bar, wsync = BAR, WSYNC
    if not entries:
        print("no PTX in the CUB binary: its barriers are counted in SASS", file=sys.stderr)
        sass = subprocess.run(["cuobjdump", "-sass", str(binary)], capture_output=True,
                              text=True, check=True).stdout
        entries = dict(re.findall(r"Function : (\S+)\n(.*?)(?=\n\s*Function : |\Z)", sass, re.S))
        bar, wsync = re.compile(r"\bBAR\.(?:SYNC|RED)"), re.compile(r"\bWARPSYNC\b")
    names = list(entries)
    pretty = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True,
                            text=True, check=True).stdout.splitlines()
    facts = {}
    for name, readable in zip(names, pretty):
        key = cub_key(readable)
        if key:
            facts[key] = {"bar": len(bar.findall(entries[name])),
                          "wsync": len(wsync.findall(entries[name]))}
    return facts


def run_reference(directory: Path, filters, options) -> tuple[dict, dict, str]:
    expected = {" ".join(map(str, c.key)) for c in select(configurations(), filters)}
    return run_reference_binary(directory, REFERENCE, expected, filters, options)


def run_reference_binary(directory: Path, source: Path, expected: set, filters,
                         options) -> tuple[dict, dict, str]:
    """Builds the reference `source` into `directory` (nvcc, when stale), checks that its
    `list` of the filters' configurations is `expected` (the script's keys, joined by
    spaces), runs it and returns its parsed rows, its barriers and its output."""
    name = source.stem
    binary = directory / name
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        print(f"building {binary} (nvcc -O3 -arch=sm_90)", file=sys.stderr, flush=True)
        subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-std=c++17", "-o", str(binary),
                        str(source)], check=True)
    listed = subprocess.run([str(binary), "list", *filters], capture_output=True, text=True,
                            check=True).stdout.split("\n")
    if {line for line in listed if line} != expected:
        raise SystemExit(f"{name}'s configurations differ from this script's "
                         f"(update configurations() to match add_all in {source.name})")
    print(f"running {binary.name}", file=sys.stderr, flush=True)
    out = subprocess.run([str(binary), *filters, "--anchor", *options], capture_output=True,
                         text=True, check=True).stdout
    (directory / f"{name}.txt").write_text(out)
    return parse_reference(out), cub_barriers(binary), out


# ---- running ours --------------------------------------------------------------------------

def run_coop(configs, options) -> tuple[list, float, int, float]:
    from numba_cuda_mlir import cuda

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    median_ms, slept, memcpy = calibrate(cuda, options, _sleeper(), SLEEP_US, TOTAL_BYTES)

    rows = []
    buffers: dict = {}
    for number, c in enumerate(configs, 1):
        print(f"[{number}/{len(configs)}] {' '.join(map(str, c.key))}", file=sys.stderr,
              flush=True)
        if c.dtype not in buffers:
            buffers.clear()
            n = TOTAL_BYTES // np.dtype(c.numpy_dtype).itemsize
            host = (np.arange(n) % 1000003).astype(c.numpy_dtype)
            buffers[c.dtype] = (host, cuda.to_device(host), cuda.device_array(n, c.numpy_dtype),
                                cuda.to_device(np.zeros(n, c.numpy_dtype)))
        host, src, out, zeros = buffers[c.dtype]
        tile = c.block * c.ipt
        kernel = make_kernel(c, options.lto, options.range_loop)
        if c.kernel == "tile":
            grid, reps = host.size // tile, 1
            args = (src, out, np.int32(1))
        else:
            grid, reps = options.grid, options.reps
            if grid * tile > host.size:
                raise SystemExit(f"--grid={grid} too large for a 1 GiB buffer")
            args = (src, out, np.int32(reps), np.int32(1))
        out.copy_to_device(zeros)
        kernel[grid, c.block](*args)
        cuda.synchronize()
        chosen = sample(grid)
        got = out[:grid * tile].copy_to_host().reshape(grid, tile)[chosen]
        expected = model(c, host[:grid * tile].reshape(grid, tile)[chosen], reps)
        ok = bool(np.array_equal(got, expected))
        ms = median_ms(lambda: kernel[grid, c.block](*args))
        if c.kernel == "tile":
            value = 2.0 * grid * tile * np.dtype(c.numpy_dtype).itemsize / (ms * 1e6)
        else:
            base = median_ms(lambda: kernel[grid, c.block](src, out, np.int32(0), np.int32(1)))
            ops = grid * reps * c.ops / sms
            value = (ms - base) * 1e6 / ops if reps > 0 else 0.0
        overload = launched_overload(kernel)
        facts = coop_facts(c, kernel_ptx(overload),
                           str(overload.metadata.get("mlir_module_optimized", "")))
        overload._ensure_kernel_attrs()
        facts["local"] = overload.metadata.get("local_mem_per_thread")
        facts["ptxas"] = ptxas_versions(overload.metadata.get("cubin"))
        rows.append((c, value, ok, facts))
    return rows, memcpy, sms, slept


def compile_only(configs, directory: Path, range_loop: bool = False) -> list:
    """Every configuration compiled to PTX for sm_90 without a GPU."""
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    import numba_compile as nc  # pretends to be sm_90

    from numba_cuda_mlir import types

    nc.compile_for_launch(_sleeper(), [types.int64], (1,), grid=1)  # the timing helper
    rows = []
    for c in configs:
        kernel = make_kernel(c, range_loop=range_loop)
        cres = nc.compile_for_launch(kernel, argtypes(c), (c.block,))
        ptx = cres.metadata["ptx"]
        (directory / ("coop_" + "_".join(map(str, c.key)) + ".ptx")).write_text(ptx)
        facts = coop_facts(c, ptx, str(cres.metadata.get("mlir_module_optimized", "")))
        facts["local"] = ptxas_local_bytes(ptx)
        rows.append((c, None, None, facts))
    return rows


# ---- the table -----------------------------------------------------------------------------

def _pair(ours, theirs, width=5) -> str:
    a = "?" if ours is None else str(ours)
    b = "?" if theirs is None else str(theirs)
    return f"{a:>{width}}/{b:<{width}}"


def print_table(rows, cub: dict, cub_bars: dict) -> dict:
    header = (f"{'kernel':4} {'mode':22} {'dtype':5} {'block':>5} {'ipt':>3} {'width':>5} "
              f"{'coop':>9} {'CUB':>9} {'unit':5} {'coop/CUB':>8} {'ok':>7}  "
              f"{'smem':>11} {'bar':>7} {'wsync':>7} {'local':>5}")
    print(header)
    print("-" * len(header))
    summary = {"rows": 0, "bad": [], "local": [], "ratios": {"tile": [], "loop": []}}
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
            summary["local"].append(c)
        summary["rows"] += 1
        fmt = (lambda v: f"{v:9.1f}") if c.kernel == "tile" else (lambda v: f"{v:9.3f}")
        print(f"{c.kernel:4} {c.mode:22} {c.dtype:5} {c.block:5d} {c.ipt:3d} {c.width:5d} "
              f"{'-' if value is None else fmt(value):>9} "
              f"{'-' if ref is None else fmt(ref['value']):>9} {unit:5} "
              f"{'-' if ratio is None else f'{ratio:8.3f}':>8} {ours_ok + '/' + theirs_ok:>7}  "
              f"{_pair(facts['smem'], ref and ref['temp'])} "
              f"{_pair(facts['bar'], bars.get('bar'), 3)} "
              f"{_pair(facts['wsync'], bars.get('wsync'), 3)} "
              f"{'?' if facts['local'] is None else facts['local']:>5}")
    return summary


def report_checks(rows, summary) -> bool:
    """Prints the kernels with local memory (or none known) and those whose barrier count from
    MLIR differs from their PTX's in a tile kernel (the loop rows' count would then not be the
    executed one; configurations that count a loop's barriers once a pass, which LLVM may
    unroll, are not checked); True if there are any."""
    local = summary["local"]
    if local:
        print(f"local memory (or no ptxas to tell) in {len(local)} kernels:",
              "; ".join(" ".join(map(str, c.key)) for c in local))
    else:
        print(f"local memory: none in {len(rows)} kernels")
    mismatched = [c for c, _, _, f in rows if c.kernel == "tile" and
                  not getattr(c, "counted_per_pass", False) and
                  (f["ptx_bar"], f["ptx_wsync"]) != (f["mlir_bar"], f["mlir_wsync"])]
    for c in mismatched:
        print("barriers in PTX and MLIR differ:", *c.key)
    return bool(local or mismatched)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path, help="where the CUB binary, PTX and logs go")
    parser.add_argument("filters", nargs="*",
                        help="KERNEL MODE DTYPE BLOCK IPT WIDTH, as cub_exchange ('all': any)")
    parser.add_argument("--compile-only", action="store_true",
                        help="compile every selected configuration to PTX (no GPU) and check it")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--reps", type=int, default=64)
    parser.add_argument("--grid", type=int, default=8192)
    add_lto_option(parser)
    add_range_loop_option(parser)
    args = parser.parse_args(argv)
    if len(args.filters) > 6:
        parser.error("at most six filters: KERNEL MODE DTYPE BLOCK IPT WIDTH")
    configs = select(configurations(), args.filters)
    if not configs:
        parser.error("no configuration matches the filters")
    args.directory.mkdir(parents=True, exist_ok=True)

    if args.compile_only:
        rows = compile_only(configs, args.directory, args.range_loop)
        print(f"# numba_exchange --compile-only: {len(rows)} kernels compiled for sm_90 "
              f"(PTX in {args.directory})")
        summary = print_table(rows, {}, {})
        return 1 if report_checks(rows, summary) else 0

    options = [f"--runs={args.runs}", f"--warmup={args.warmup}", f"--reps={args.reps}",
               f"--grid={args.grid}"]
    cub, cub_bars, cub_out = run_reference(args.directory, args.filters, options)
    rows, memcpy, sms, slept = run_coop(configs, args)
    print_run_header(cub_out, memcpy, sms, slept, args)
    print_code_generators(rows, args.directory / "cub_exchange")
    summary = print_table(rows, cub, cub_bars)
    print_summary(summary)
    checks_failed = report_checks(rows, summary)
    return 1 if summary["bad"] or checks_failed else 0


if __name__ == "__main__":
    sys.exit(main())
