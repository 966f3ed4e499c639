"""Runs GPU test suites under compute-sanitizer (memcheck, racecheck, synccheck)
and prints one table of test counts and sanitizer findings.

  python test/sanitize.py numba            # test_numba_gpu.py + test_kernel_plan_gpu.py
  python test/sanitize.py lowering         # test_lowering_gpu.py (COOP_GPU_KERNELS set)
  python test/sanitize.py collectives      # test_collectives_gpu.py (exchange, shuffle)
  python test/sanitize.py combining        # test_combining_gpu.py (reduce, scans)
  python test/sanitize.py numba -k transpose --tools racecheck

Tests run in one process per tool: pytest-xdist workers under
compute-sanitizer made no progress in 270 s on the H200 where one process
sanitizes 74 exchange tests in 20 s. Every kernel launch of the selected tests is checked; child processes too (the
spec examples run as scripts). Exit status 1 when any test fails or any tool
reports an error or a hazard.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent / "python"
SUITES = {
    "numba": ["test_numba_gpu.py", "test_kernel_plan_gpu.py"],
    "lowering": ["test_lowering_gpu.py"],
    "collectives": ["test_collectives_gpu.py"],
    "combining": ["test_combining_gpu.py"],
}
TOOLS = ("memcheck", "racecheck", "synccheck")


def run(suite: str, tool: str, select: str | None) -> dict:
    command = ["compute-sanitizer", "--tool", tool, "--target-processes", "all",
               "--print-limit", "20"]
    if tool == "racecheck":
        command += ["--racecheck-report", "all"]
    command += [sys.executable, "-m", "pytest", "-m", "gpu", "-q", "-p", "no:cacheprovider",
                *SUITES[suite]]
    if select:
        command += ["-k", select]
    began = time.monotonic()
    result = subprocess.run(command, cwd=HERE, capture_output=True, text=True)
    output = result.stdout + result.stderr
    counts = {word: sum(int(n) for n in re.findall(rf"(\d+) {word}", tail))
              for word, tail in (("passed", _pytest_summary(output)),
                                 ("failed", _pytest_summary(output)))}
    errors = sum(int(n) for n in re.findall(r"ERROR SUMMARY: (\d+) error", output))
    hazards = sum(int(n) for n in re.findall(r"RACECHECK SUMMARY: (\d+) hazard", output))
    return {"suite": suite, "tool": tool, **counts, "errors": errors, "hazards": hazards,
            "seconds": time.monotonic() - began, "returncode": result.returncode,
            "output": output}


def _pytest_summary(output: str) -> str:
    lines = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    return lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suites", nargs="+", choices=sorted(SUITES))
    parser.add_argument("-k", dest="select", help="pytest -k expression to run a part")
    parser.add_argument("--tools", default=",".join(TOOLS))
    args = parser.parse_args()
    # Each row prints as soon as its run ends: a device call that times out
    # still reports the runs it finished.
    print(f"{'suite':11} {'tool':10} {'passed':>6} {'failed':>6} {'errors':>6} {'hazards':>7} "
          f"{'seconds':>7}", flush=True)
    bad = False
    for suite in args.suites:
        for tool in args.tools.split(","):
            row = run(suite, tool, args.select)
            print(f"{row['suite']:11} {row['tool']:10} {row['passed']:6d} {row['failed']:6d} "
                  f"{row['errors']:6d} {row['hazards']:7d} {row['seconds']:7.0f}", flush=True)
            if row["failed"] or row["errors"] or row["hazards"] or not row["passed"] \
                    or row["returncode"]:
                bad = True
                print(row["output"][-3000:], flush=True)
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
