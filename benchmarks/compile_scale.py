"""Memory of a process that compiles many distinct coop kernels, beside the
same loop over plain Numba kernels without coop calls.

Runs on the CPU (no GPU). Each loop runs in its own Python process, so
both start from the same imports; every `STEP` kernels it prints the
process's resident set (VmRSS), so growth beyond Numba's own shows as the
difference of the two columns. Kernel i has a load, a reduction or scan
and a store, with items_per_thread, algorithm and block size cycling and
the constant i in its code; every fourth reduces with a Python function
defined for that kernel alone (a user's kernel factory). The loop keeps
no kernel: what stays resident is held by the libraries.

    python benchmarks/compile_scale.py [N]     (N kernels, default 500)
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
STEP = 50
IPTS = (1, 2, 4, 8)
ALGORITHMS = ("direct", "striped", "transpose", "warp_transpose")
BLOCKS = (64, 128, 256)


def kernel_source(i: int, with_coop: bool) -> str:
    ipt = IPTS[i % len(IPTS)]
    algorithm = ALGORITHMS[(i // len(IPTS)) % len(ALGORITHMS)]
    if not with_coop:
        return (f"def kernel(src, dst):\n"
                f"    items = cuda.local.array({ipt}, types.int32)\n"
                f"    base = cuda.blockIdx.x * (src.size // cuda.gridDim.x) + cuda.threadIdx.x * {ipt}\n"
                f"    acc = 0\n"
                f"    for j in range({ipt}):\n"
                f"        items[j] = src[base + j]\n"
                f"        acc += items[j]\n"
                f"    for j in range({ipt}):\n"
                f"        dst[base + j] = items[j]\n"
                f"    dst[base] = acc + {i}\n")
    if i % 4 == 3:
        collective = "acc = coop.reduce(block, items, combine)"
    elif i % 2:
        collective = "acc = coop.sum(block, items)"
    else:
        collective = "items = coop.exclusive_sum(block, items)\n    acc = items[0]"
    return (f"def combine(a, b):\n"
            f"    return a + b\n"
            f"def kernel(src, dst):\n"
            f"    block = coop.this_block()\n"
            f"    items = coop.ThreadData({ipt})\n"
            f"    base = cuda.blockIdx.x * (src.size // cuda.gridDim.x)\n"
            f"    coop.load(block, src, items, algorithm='{algorithm}', offset=base)\n"
            f"    {collective}\n"
            f"    coop.store(block, dst, items, algorithm='{algorithm}', offset=base)\n"
            f"    dst[base] = acc + {i}\n")


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def run_loop(count: int, with_coop: bool) -> None:
    """Compiles `count` kernels, printing `kernels rss_mib seconds` after the
    imports and every STEP kernels, then the sizes of our caches."""
    sys.path.insert(0, str(HERE.parent / "test" / "python"))
    import numba_compile as nc  # sets the sm_90 compile-only mode
    from numba_cuda_mlir import cuda, types

    import cuda.coop.numba_mlir as coop
    from cuda.coop.numba_mlir import _operators, _passes

    start = time.perf_counter()
    print(0, f"{rss_mib():.1f}", "0.0", flush=True)
    for i in range(count):
        namespace = {"coop": coop, "cuda": cuda, "types": types}
        exec(kernel_source(i, with_coop), namespace)
        cres = nc.compile_for_launch(cuda.jit(namespace["kernel"]), [nc.ARRAY, nc.ARRAY],
                                     (BLOCKS[i % len(BLOCKS)],), with_ptx=False)
        assert cres.metadata["cubin"]
        del namespace, cres
        if (i + 1) % STEP == 0 or i + 1 == count:
            gc.collect()
            print(i + 1, f"{rss_mib():.1f}", f"{time.perf_counter() - start:.1f}", flush=True)
    print("caches", _passes._lower_site.cache_info().currsize, len(_operators._DEVICE))


def measure(count: int, with_coop: bool) -> tuple[dict[int, tuple[float, float]], str]:
    """The child's rows (kernels -> (RSS MiB, seconds)) and its cache line."""
    result = subprocess.run([sys.executable, "-W", "ignore", __file__, "--loop", str(count),
                             "coop" if with_coop else "plain"],
                            stdout=subprocess.PIPE, text=True, check=True)
    lines = result.stdout.splitlines()
    rows = {int(k): (float(rss), float(s)) for k, rss, s in (line.split() for line in lines[:-1])}
    return rows, lines[-1]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    coop_rows, caches = measure(count, True)
    plain_rows, _ = measure(count, False)
    print(f"{count} distinct kernels compiled to cubins (sm_90, no GPU), one process per column; "
          f"RSS = VmRSS in MiB after gc.collect()")
    print(f"{'kernels':>7} {'coop RSS':>9} {'plain RSS':>9} {'coop growth':>11} "
          f"{'plain growth':>12} {'coop s':>7} {'plain s':>7}")
    for kernels in sorted(coop_rows):
        (rss, seconds), (plain, plain_seconds) = coop_rows[kernels], plain_rows[kernels]
        print(f"{kernels:7d} {rss:9.1f} {plain:9.1f} {rss - coop_rows[0][0]:11.1f} "
              f"{plain - plain_rows[0][0]:12.1f} {seconds:7.1f} {plain_seconds:7.1f}")
    _, site_texts, device_functions = caches.split()
    print(f"after the coop loop: {site_texts} lowered site texts in _passes._lower_site's "
          f"cache, {device_functions} operator functions in _operators._DEVICE")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--loop"]:
        run_loop(int(sys.argv[2]), sys.argv[3] == "coop")
    else:
        main()
