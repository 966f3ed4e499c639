"""The command line and the run of the family benchmarks (numba_select.py,
numba_reduce_batched.py, numba_histogram.py, numba_run_length_decode.py,
numba_radix_sort.py, numba_merge_sort.py):
each compares coop's kernels with a C++ reference binary over the same
configurations, filtered alike, and prints one table.

  SCRIPT DIR [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]] [--runs=21] [--warmup=3]
         [--reps=64] [--grid=8192] [--compile-only] [--no-lto] [--range-loop]
         [--read-only where the script reads arrays through ld.global.nc] [its own options]
"""

from __future__ import annotations

import argparse
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from gpu_timing import (add_lto_option, add_range_loop_option, print_code_generators,
                        print_run_header, print_summary)
from numba_exchange import BAR, WSYNC, print_table, ptx_entries, report_checks


@dataclass(frozen=True)
class FamilyBenchmark:
    script: str                  # "numba_select": the --compile-only header names it
    binary: str                  # the reference binary ("cub_select")
    doc: str                     # the script's docstring (its --help)
    configurations: Callable     # () -> the script's configurations
    chosen: Callable             # (configurations, filters) -> the filtered ones
    compile_only: Callable       # (configs, directory, args) -> rows
    run_reference: Callable      # (directory, filters, options) -> (cub, bars, output)
    run_coop: Callable           # (configs, args) -> (rows, memcpy, sms, slept)
    read_only: str | None = None     # --read-only's help; None: no such option
    options: Callable | None = None  # (parser) -> None: the script's own options
    variant: Callable | None = None  # (args) -> what the options change, or ""
    note: str = ""                   # printed under the run header
    geomeans: Callable | None = None  # (summary) -> None; default print_geomeans


def geomean(values) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def print_geomeans(summary: dict) -> None:
    """The geometric mean of the coop/reference ratios, per kernel and per kernel and mode."""
    for kind, ratios in summary["ratios"].items():
        if not ratios:
            continue
        parts = [f"all {geomean([r for r, _ in ratios]):.3f} ({len(ratios)} rows)"]
        for mode in dict.fromkeys(c.mode for _, c in ratios):
            mine = [r for r, c in ratios if c.mode == mode]
            parts.append(f"{mode} {geomean(mine):.3f} ({len(mine)})")
        print(f"{kind}: geometric mean coop/CUB: " + ", ".join(parts))


def main(bench: FamilyBenchmark, argv=None) -> int:
    parser = argparse.ArgumentParser(description=bench.doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path, help="where the reference binary, PTX and "
                        "logs go")
    parser.add_argument("filters", nargs="*",
                        help=f"KERNEL MODE DTYPE BLOCK IPT WIDTH, as {bench.binary} "
                             "('all': any)")
    parser.add_argument("--compile-only", action="store_true",
                        help="compile every selected configuration to PTX (no GPU) and check it")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--reps", type=int, default=64)
    parser.add_argument("--grid", type=int, default=8192)
    if bench.read_only:
        parser.add_argument("--read-only", action="store_true", help=bench.read_only)
    if bench.options:
        bench.options(parser)
    add_lto_option(parser)
    add_range_loop_option(parser)
    args = parser.parse_args(argv)
    if len(args.filters) > 6:
        parser.error("at most six filters: KERNEL MODE DTYPE BLOCK IPT WIDTH")
    configs = bench.chosen(bench.configurations(), args.filters)
    if not configs:
        parser.error("no configuration matches the filters")
    args.directory.mkdir(parents=True, exist_ok=True)
    variant = bench.variant(args) if bench.variant else ""

    if args.compile_only:
        rows = bench.compile_only(configs, args.directory, args)
        print(f"# {bench.script} --compile-only: {len(rows)} kernels compiled for sm_90 "
              f"(PTX in {args.directory}){'; ' + variant if variant else ''}")
        summary = print_table(rows, {}, {})
        return 1 if report_checks(rows, summary) else 0

    options = [f"--runs={args.runs}", f"--warmup={args.warmup}", f"--reps={args.reps}",
               f"--grid={args.grid}"]
    cub, cub_bars, cub_out = bench.run_reference(args.directory, args.filters, options)
    rows, memcpy, sms, slept = bench.run_coop(configs, args)
    print_run_header(cub_out, memcpy, sms, slept, args)
    for line in (variant, bench.note):
        if line:
            print(line)
    print_code_generators(rows, args.directory / bench.binary)
    summary = print_table(rows, cub, cub_bars)
    print_summary(summary)
    (bench.geomeans or print_geomeans)(summary)
    checks_failed = report_checks(rows, summary)
    return 1 if summary["bad"] or checks_failed else 0


class CoopRun:
    """What the family benchmarks' coop halves share: the calibrated timer (the reference's
    protocol, behind a sleeping kernel), the SM count, a progress line a configuration and
    each row's value: GB/s of the bytes a tile row moves; for loop rows the SM-time of one
    step, ns/op = (t(reps) - t(0)) * SMs / (grid * reps)."""

    def __init__(self, options, sleep_us: int, total_bytes: int):
        from numba_cuda_mlir import cuda

        from gpu_timing import calibrate, sleeper

        self.options = options
        self.sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
        self.median_ms, self.slept, self.memcpy = calibrate(cuda, options, sleeper(),
                                                            sleep_us, total_bytes)
        self.rows: list = []

    def each(self, configs):
        """`configs`, each announced on stderr as it starts."""
        import sys

        for number, c in enumerate(configs, 1):
            print(f"[{number}/{len(configs)}] {' '.join(map(str, c.key))}", file=sys.stderr,
                  flush=True)
            yield c

    def loop_grid(self, per_block: int, size: int) -> tuple[int, int]:
        """A loop row's (grid, reps): --grid blocks of `per_block` items of a buffer of
        `size`."""
        grid = self.options.grid
        if grid * per_block > size:
            raise SystemExit(f"--grid={grid} too large for a 1 GiB buffer")
        return grid, self.options.reps

    def add(self, c, kernel, grid: int, args: tuple, ok: bool, tile_bytes: int = 0,
            reps: int = 0) -> None:
        """Times `kernel[grid, c.block](*args)` and records the row: tile rows move
        `tile_bytes`; a loop row's last argument is its `reps`, timed again with 0."""
        import numpy as np

        ms = self.median_ms(lambda: kernel[grid, c.block](*args))
        if c.kernel == "tile":
            value = tile_bytes / (ms * 1e6)
        else:
            idle = args[:-1] + (np.int32(0),)
            base = self.median_ms(lambda: kernel[grid, c.block](*idle))
            value = (ms - base) * 1e6 / (grid * reps / self.sms) if reps > 0 else 0.0
        self.rows.append((c, value, ok, launched_facts(c, kernel)))

    def result(self) -> tuple[list, float, int, float]:
        """(rows, cudaMemcpy GB/s, SMs, the sleep's ms): what a script's run_coop returns."""
        return self.rows, self.memcpy, self.sms, self.slept


def launched_facts(config, kernel) -> dict:
    """The table's facts of a kernel that ran: its PTX's (numba_exchange.coop_facts), the
    driver's local memory per thread and the ptxas that built it."""
    from gpu_timing import kernel_ptx, launched_overload, ptxas_versions
    from numba_exchange import coop_facts

    overload = launched_overload(kernel)
    facts = coop_facts(config, kernel_ptx(overload),
                       str(overload.metadata.get("mlir_module_optimized", "")))
    overload._ensure_kernel_attrs()
    facts["local"] = overload.metadata.get("local_mem_per_thread")
    facts["ptxas"] = ptxas_versions(overload.metadata.get("cubin"))
    return facts


def compile_only_rows(configs, directory: Path, compile_args) -> list:
    """Every configuration compiled to PTX for sm_90 without a GPU (PTX files in
    `directory`); `compile_args(c)` gives the kernel and its argument types."""
    import sys

    from gpu_timing import sleeper
    from numba_exchange import coop_facts, ptxas_local_bytes

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "test" / "python"))
    import numba_compile as nc  # pretends to be sm_90

    from numba_cuda_mlir import types

    nc.compile_for_launch(sleeper(), [types.int64], (1,), grid=1)  # the timing helper
    rows = []
    for c in configs:
        kernel, argument_types = compile_args(c)
        cres = nc.compile_for_launch(kernel, argument_types, (c.block,))
        ptx = cres.metadata["ptx"]
        (directory / ("coop_" + "_".join(map(str, c.key)) + ".ptx")).write_text(ptx)
        facts = coop_facts(c, ptx, str(cres.metadata.get("mlir_module_optimized", "")))
        facts["local"] = ptxas_local_bytes(ptx)
        rows.append((c, None, None, facts))
    return rows


def cub_barriers(binary: Path, cub_key: Callable) -> dict:
    """Per CUB kernel of `binary`, by the configuration key `cub_key` reads from its
    demangled name: block and warp barriers in its PTX (-arch=sm_90 embeds it)."""
    ptx = subprocess.run(["cuobjdump", "-ptx", str(binary)], capture_output=True, text=True,
                         check=True).stdout
    entries = ptx_entries(ptx)
    names = list(entries)
    pretty = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True,
                            text=True, check=True).stdout.splitlines()
    return {key: {"bar": len(BAR.findall(entries[name])),
                  "wsync": len(WSYNC.findall(entries[name]))}
            for name, key in zip(names, map(cub_key, pretty)) if key}
