"""The timing protocol the Numba-side benchmarks share with their CUB
references: the median of per-launch event pairs, enqueued behind a sleeping
kernel so Numba's launch cost is not timed, and a cudaMemcpy anchor; and the
read-only view that matches the references' `const T* __restrict__` inputs."""

from __future__ import annotations

import re

import numpy as np


class ReadOnly:
    """A device array's memory as a read-only array: its CUDA array interface with the
    read-only flag set, which Numba types `readonly array(...)`. It is the Numba kernel's
    form of the references' `const T* __restrict__` input, which coop.load reads through
    ld.global.nc as nvcc reads the reference's (LDG.E.CONSTANT). No copy is made."""

    def __init__(self, array):
        self._array = array  # keeps the memory alive
        self.dtype = array.dtype
        interface = dict(array.__cuda_array_interface__)
        interface["data"] = (interface["data"][0], True)
        self.__cuda_array_interface__ = interface


def sleeper():
    from numba_cuda_mlir import cuda

    @cuda.jit
    def sleep(microseconds):
        for _ in range(microseconds):
            cuda.nanosleep(1000)
    return sleep


def calibrate(cuda, options, sleep, sleep_us: int, total_bytes: int):
    """(median_ms(launch), the sleep's measured ms, cudaMemcpy D2D GB/s over
    `total_bytes`); `options` gives runs and warmup."""

    def median_ms(launch) -> float:
        """The reference's protocol, enqueued behind a sleeping kernel."""
        events = [(cuda.event(), cuda.event()) for _ in range(options.runs)]
        cuda.synchronize()
        sleep[1, 1](sleep_us)
        for _ in range(options.warmup):
            launch()
        for start, stop in events:
            start.record()
            launch()
            stop.record()
        events[-1][1].synchronize()
        times = sorted(cuda.event_elapsed_time(start, stop) for start, stop in events)
        return times[options.runs // 2]

    start, stop = cuda.event(), cuda.event()
    sleep[1, 1](10)
    start.record()
    sleep[1, 1](sleep_us)
    stop.record()
    stop.synchronize()
    slept = cuda.event_elapsed_time(start, stop)

    a = cuda.device_array(total_bytes // 4, np.int32)
    b = cuda.device_array(total_bytes // 4, np.int32)
    memcpy = 2.0 * total_bytes / (median_ms(lambda: b.copy_to_device(a)) * 1e6)
    del a, b
    return median_ms, slept, memcpy


def launched_overload(kernel):
    """The compile result of a kernel's last launch configuration."""
    return list(kernel._launch_config_overloads.values())[-1]


def kernel_ptx(overload) -> str:
    """A compiled kernel's PTX: Numba's, or for an LTO kernel (coop's default), which has none
    of its own, the PTX nvJitLink generates from its LTO-IR."""
    if overload.metadata["ptx"]:
        return overload.metadata["ptx"]
    from numba_cuda_mlir.mlir_optimization import get_lto_ptx

    return get_lto_ptx(overload)


def coop_jit(cuda, function, lto: bool | None):
    """`function` as a kernel built as coop builds it (link-time code generation), or with
    the `lto` the benchmark's --no-lto asks for."""
    return cuda.jit(function) if lto is None else cuda.jit(lto=lto)(function)


def add_lto_option(parser) -> None:
    """--no-lto: `args.lto` False (cuda.jit(lto=False)), else None (coop's default)."""
    parser.add_argument("--no-lto", dest="lto", action="store_const", const=False,
                        help="compile with cuda.jit(lto=False): Numba's PTX, linked as "
                             "relocatable code")


def add_range_loop_option(parser) -> None:
    """--range-loop: `args.range_loop`, loop kernels repeating as `for _ in range(reps)`."""
    parser.add_argument("--range-loop", action="store_true",
                        help="loop kernels repeat with `for _ in range(reps)` (Numba's range "
                             "iterator, unrolled by NVVM) instead of an int32 while loop")


def repeat_lines(range_loop: bool) -> tuple[list[str], list[str]]:
    """A loop kernel's repetition: (lines before its body, lines ending its body), at one
    indent. The int32 while loop compiles as the references' `#pragma unroll 1` int loop
    (one uniform add, a compare and a branch an iteration); Numba's range iterator
    decrements a clamped remaining count and NVVM unrolls it by four."""
    if range_loop:
        return ["    for _ in range(reps):"], []
    return ["    rep = np.int32(0)", "    while rep < reps:"], ["        rep = np.int32(rep + 1)"]


RELOCATABLE = "; coop kernels: cuda.jit(lto=False), linked as relocatable PTX"
AUTO_SYNC = "; loop kernels' block calls: coop.TempStorage(auto_sync=True)"
RANGE_LOOP = "; loop kernels: for _ in range(reps)"


# A cubin's toolkit note names the ptxas that generated its code.
_PTXAS_NOTE = re.compile(rb"ptxas\0+Cuda compilation tools, release [\d.]+, V([\d.]+)")


def ptxas_versions(code: bytes | None) -> set[str]:
    """The ptxas releases that generated `code`: a cubin (coop's, from the
    nvJitLink of the machine that runs it) or an executable holding cubins
    (the reference, from the nvcc that built it)."""
    return {m.group(1).decode() for m in _PTXAS_NOTE.finditer(code or b"")}


def print_code_generators(rows, reference) -> None:
    """Which ptxas generated each side's code: the rows' kernels (their facts'
    "ptxas") and the reference binary (a Path). Releases schedule and allocate
    differently (13.0's rematerializes the shared window's base inside a loop
    that 13.5 keeps in a register: float32 sum.warp_reductions 1024x4 loop
    0.90 of CUB 13.5's speed with the same instructions otherwise), so rows
    compare code generation only where both sides share one."""
    coop = set().union(*(facts.get("ptxas", set()) for *_, facts in rows))
    cub = ptxas_versions(reference.read_bytes())
    ours, theirs = ", ".join(sorted(coop)) or "?", ", ".join(sorted(cub)) or "?"
    same = coop and coop == cub
    print(f"code generation: coop's kernels by ptxas {ours} (nvJitLink), CUB's by ptxas "
          f"{theirs}" + ("" if same else
                         " -- not the same ptxas: build the reference with the nvcc of "
                         "that release (benchmarks/reference/cuda_release.sh) to compare "
                         "like with like"))


def print_run_header(cub_out: str, memcpy: float, sms: int, slept: float, args) -> None:
    """The run's conditions on both sides: this run's cudaMemcpy bandwidth
    beside the reference's own anchor, SM counts and the timing options."""
    anchor = re.search(r"D2D \(anchor\)\s+([\d.]+)", cub_out)
    head = re.search(r"SMs=(\d+)", cub_out)
    print(f"cudaMemcpy D2D: {memcpy:.1f} GB/s (this run); CUB reference's own anchor: "
          f"{anchor.group(1) if anchor else '?'} GB/s; SMs={sms} (CUB: "
          f"{head.group(1) if head else '?'}); runs={args.runs} warmup={args.warmup} "
          f"loop reps={args.reps} grid={args.grid}; coop's launches wait behind a "
          f"{slept:.1f} ms sleep{RELOCATABLE if getattr(args, 'lto', None) is False else ''}"
          f"{AUTO_SYNC if getattr(args, 'auto_sync', False) else ''}"
          f"{RANGE_LOOP if getattr(args, 'range_loop', False) else ''}")


def print_summary(summary: dict) -> None:
    """Per kernel kind, the worst coop/CUB ratio and the rows >= 0.97; the
    rows verified on both sides."""
    print("columns a/b: coop/CUB; coop/CUB > 1: coop faster (GB/s ratio for tile rows, "
          "ns/op CUB/coop for loop rows)")
    for kind, ratios in summary["ratios"].items():
        if ratios:
            worst = min(ratios, key=lambda rc: rc[0])
            good = sum(1 for r, _ in ratios if r >= 0.97)
            print(f"{kind}: worst coop/CUB {worst[0]:.3f} ({' '.join(map(str, worst[1].key))}); "
                  f"{good}/{len(ratios)} rows >= 0.97")
    print(f"verified: {summary['rows'] - len(summary['bad'])}/{summary['rows']} rows OK on both "
          "sides")
