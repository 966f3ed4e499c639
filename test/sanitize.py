"""Runs GPU test suites under compute-sanitizer (memcheck, racecheck, synccheck)
and prints one table of test counts and sanitizer findings.

  python test/sanitize.py numba            # test_numba_gpu.py + test_kernel_plan_gpu.py
  python test/sanitize.py lowering         # test_lowering_gpu.py (COOP_GPU_KERNELS set)
  python test/sanitize.py collectives      # test_collectives_gpu.py (exchange, shuffle)
  python test/sanitize.py combining        # test_combining_gpu.py (reduce, scans)
  python test/sanitize.py compat           # test_compat_gpu.py (official cuda.coop forms)
  python test/sanitize.py select           # test_select_gpu.py
  python test/sanitize.py family           # histogram, reduce_batched, run_length_decode
  python test/sanitize.py run_length_decode # one of them (also: histogram)
  python test/sanitize.py sorting          # radix rank and sort, top-k, merge sort
  python test/sanitize.py cute             # test_cute_gpu.py (CUDA_COOP_CUTE_CUBINS set)
  python test/sanitize.py numba -k transpose --tools racecheck
  python test/sanitize.py lowering --parts load_int8 store_int8 --jobs 6 --timeout 500
  python test/sanitize.py numba combining --shards 16 --jobs 16

Each row is one compute-sanitizer process running one pytest process: a
suite, a tool and a part (a pytest -k expression; `-k` alone is one part),
or with `--shards N` every N-th of the part's tests (collected first,
without the sanitizer).
pytest-xdist workers inside one sanitizer made no progress in 270 s on the
H200 where one process sanitizes 74 exchange tests in 20 s, so parallelism
comes from `--jobs` rows at once, each a process of its own. Every kernel
launch of the selected tests is checked; child processes too (the spec
examples run as scripts). A row past `--timeout` seconds is killed and
counted as a failure. Exit status 1 when any test fails or any tool reports
an error or a hazard.
"""

from __future__ import annotations

import argparse
import itertools
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent / "python"
SUITES = {
    "numba": ["test_numba_gpu.py", "test_kernel_plan_gpu.py"],
    "lowering": ["test_lowering_gpu.py"],
    "collectives": ["test_collectives_gpu.py"],
    "combining": ["test_combining_gpu.py"],
    "compat": ["test_compat_gpu.py"],
    "select": ["test_select_gpu.py"],
    "family": ["test_histogram_gpu.py", "test_reduce_batched_gpu.py",
               "test_run_length_decode_gpu.py"],
    "run_length_decode": ["test_run_length_decode_gpu.py"],
    "histogram": ["test_histogram_gpu.py"],
    "sorting": ["test_radix_sort_gpu.py", "test_merge_sort_gpu.py"],
    "cute": ["test_cute_gpu.py"],
}
TOOLS = ("memcheck", "racecheck", "synccheck")


def collect(suite: str, select: str | None) -> list[str]:
    """The node ids of the suite's GPU tests that `select` picks."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "gpu",
               "-p", "no:cacheprovider", *SUITES[suite]]
    if select:
        command += ["-k", select]
    result = subprocess.run(command, cwd=HERE, capture_output=True, text=True)
    # pytest names them from the repository's root; they run from HERE.
    root = HERE.parent.parent
    tests = [str((root / path).relative_to(HERE)) + "::" + rest
             for path, _, rest in (line.partition("::") for line in result.stdout.splitlines()
                                   if "::" in line)]
    if not tests:
        sys.exit(f"no {suite} tests collected:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return tests


def run(suite: str, tool: str, select: str | None, timeout: float | None,
        tests: list[str] | None = None, label: str | None = None) -> dict:
    command = ["compute-sanitizer", "--tool", tool, "--target-processes", "all",
               "--print-limit", "20"]
    if tool == "racecheck":
        command += ["--racecheck-report", "all"]
    command += [sys.executable, "-m", "pytest", "-m", "gpu", "-q", "-p", "no:cacheprovider",
                *(tests or SUITES[suite])]
    if select and not tests:
        command += ["-k", select]
    began = time.monotonic()
    try:
        result = subprocess.run(command, cwd=HERE, capture_output=True, text=True,
                                timeout=timeout)
        output, returncode, timed_out = result.stdout + result.stderr, result.returncode, False
    except subprocess.TimeoutExpired as expired:
        output = _text(expired.stdout) + _text(expired.stderr)
        returncode, timed_out = None, True
    counts = {word: sum(int(n) for n in re.findall(rf"(\d+) {word}", _pytest_summary(output)))
              for word in ("passed", "failed")}
    errors = sum(int(n) for n in re.findall(r"ERROR SUMMARY: (\d+) error", output))
    hazards = sum(int(n) for n in re.findall(r"RACECHECK SUMMARY: (\d+) hazard", output))
    return {"suite": suite, "tool": tool, "part": label or select or "", **counts, "errors": errors,
            "hazards": hazards, "seconds": time.monotonic() - began,
            "returncode": returncode, "timed_out": timed_out, "output": output}


def _text(stream) -> str:
    return stream.decode(errors="replace") if isinstance(stream, bytes) else stream or ""


def _pytest_summary(output: str) -> str:
    lines = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    return lines[-1] if lines else ""


def _findings(output: str, most: int = 60) -> str:
    """What to read of a bad row: the tool's reports without their host
    backtraces (the kernel, the access, the device frames: a tail of
    backtraces told nothing), then pytest's failures and summary."""
    reports = [line for line in output.splitlines()
               if line.startswith("=========") and line.strip("= ")
               and "Host Frame" not in line]
    failures = [line for line in output.splitlines()
                if line.startswith(("FAILED", "ERROR", "E  ")) or _pytest_summary(line)]
    return "\n".join(reports[:most] + failures[-20:])


def _is_bad(row: dict) -> bool:
    return bool(row["failed"] or row["errors"] or row["hazards"] or not row["passed"]
                or row["returncode"] or row["timed_out"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suites", nargs="+", choices=sorted(SUITES))
    parser.add_argument("-k", dest="select", help="pytest -k expression to run a part")
    parser.add_argument("--parts", nargs="+", metavar="EXPR",
                        help="several -k expressions, each a row of its own")
    parser.add_argument("--shards", type=int, default=1,
                        help="split each part's tests into this many rows")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--jobs", type=int, default=1, help="rows run at once")
    parser.add_argument("--timeout", type=float, help="seconds a row may take")
    args = parser.parse_args()
    if args.parts and args.select:
        parser.error("give -k or --parts, not both")
    parts = args.parts or [args.select]
    tools = args.tools.split(",")
    # (suite, tool, part, tests, label): tests None runs the part by -k.
    rows = []
    for suite, part in itertools.product(args.suites, parts):
        if args.shards > 1:
            tests = collect(suite, part)
            shards = [(tests[i::args.shards], f"{part or 'all'} shard {i + 1}/{args.shards}")
                      for i in range(min(args.shards, len(tests)))]
        else:
            shards = [(None, None)]
        rows += [(suite, tool, part, chosen, label) for tool in tools
                 for chosen, label in shards]
    # Tools in the outer order: every suite's memcheck rows start first.
    rows.sort(key=lambda row: tools.index(row[1]))
    # Each row prints as soon as its run ends: a device call that times out
    # still reports the rows it finished.
    print(f"{'suite':11} {'tool':10} {'passed':>6} {'failed':>6} {'errors':>6} {'hazards':>7} "
          f"{'seconds':>7}  part", flush=True)
    bad = False
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run, suite, tool, part, args.timeout, tests, label)
                   for suite, tool, part, tests, label in rows]
        for future in as_completed(futures):
            row = future.result()
            note = " (timed out)" if row["timed_out"] else ""
            print(f"{row['suite']:11} {row['tool']:10} {row['passed']:6d} {row['failed']:6d} "
                  f"{row['errors']:6d} {row['hazards']:7d} {row['seconds']:7.0f}  "
                  f"{row['part']}{note}", flush=True)
            if _is_bad(row):
                bad = True
                print(_findings(row["output"]), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
