"""Compiling Numba-CUDA-MLIR kernels with coop calls on a machine without a
GPU: pretend to be sm_90 and compile for a launch configuration through the
dispatcher's launch-config path (the one a launch takes)."""

from __future__ import annotations

import re
import struct
import subprocess
from pathlib import Path

import numba_cuda_mlir.tools

numba_cuda_mlir.tools._cached_cc = (9, 0)

from numba_cuda_mlir import types  # noqa: E402
from numba_cuda_mlir._launch_config import _launch_config_key  # noqa: E402
from numba_cuda_mlir.mlir_optimization import get_lto_ptx  # noqa: E402

EXAMPLES = Path(__file__).parent / "spec_examples"


def compile_for_launch(kernel, argtypes, block, grid=4, with_ptx=True):
    """The compile result of `kernel` for `argtypes` launched with `block`; `with_ptx`: with
    its PTX in metadata["ptx"] even where it is an LTO kernel (an extra nvJitLink run, which
    compile-time measurements leave out)."""
    block = tuple(block) + (1,) * (3 - len(tuple(block)))
    key = _launch_config_key({"grid": (grid, 1, 1), "block": block, "sharedmem": 0,
                              "cluster": None})
    before = set(kernel._launch_config_overloads)
    kernel._compile_launch_config_signature(tuple(argtypes), key)
    new = [v for k, v in kernel._launch_config_overloads.items() if k not in before]
    cres = (new or list(kernel._launch_config_overloads.values()))[-1]
    if with_ptx and not cres.metadata["ptx"]:
        # An LTO kernel (coop's default) has no PTX of its own: the PTX
        # nvJitLink generates from its LTO-IR, which is the code that runs,
        # stands in for it, without the NUL that ends nvJitLink's buffer
        # (ptxas reading a file of it stops at "Unexpected EOF").
        cres.metadata["ptx"] = get_lto_ptx(cres).rstrip("\0")
    return cres


def pip_ptxas() -> str:
    import nvidia.cu13

    return str(Path(nvidia.cu13.__path__[0]) / "bin" / "ptxas")


def ptxas_report(ptx: str) -> str:
    """ptxas -v's report on a coop kernel's PTX (Numba emits PTX newer than some system
    ptxas), compiled as nvJitLink compiles an LTO kernel, as the whole program: registers
    and spills are the kernel's on the GPU."""
    result = subprocess.run([pip_ptxas(), "-arch=sm_90", "-v", "-", "-o", "/dev/null"],
                            input=ptx, capture_output=True, text=True, check=True)
    return result.stderr


def cubin_registers(cubin: bytes) -> int:
    """The registers a thread of the cubin's kernel takes (the most of its functions): the
    EIATTR_REGCOUNT entries of its .nv.info sections, as cuobjdump -res-usage reads them."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entsize, count, names = struct.unpack_from("<HHH", cubin, 0x3A)

    def section(i):
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", cubin, shoff + i * entsize)
        return name, offset, size

    strings = section(names)[1]
    found = []
    for i in range(count):
        name, offset, size = section(i)
        if not cubin[strings + name:].startswith(b".nv.info"):
            continue
        at = offset
        while at < offset + size:
            form, attribute, length = struct.unpack_from("<BBH", cubin, at)
            if form != 4:  # EIFMT_SVAL carries a payload; the other forms are 4 bytes
                at += 4
                continue
            if attribute == 0x2F:  # EIATTR_REGCOUNT: (function, registers)
                found.append(struct.unpack_from("<II", cubin, at + 4)[1])
            at += 4 + length
    return max(found)


def local_memory(report: str) -> list[str]:
    return [line for line in report.splitlines()
            if re.search(r"[1-9]\d* bytes (stack frame|spill)", line)]


def example_kernels(path: Path):
    """The kernels an example defines (its code before the launching loop),
    with the block size it launches them with."""
    source = path.read_text()
    definitions = source.split("\nfor items_per_thread")[0]
    namespace: dict = {"__name__": f"spec_{path.stem}"}
    exec(compile(definitions, str(path), "exec"), namespace)
    block = int(re.search(r"\[\w+, (\d+)\]\(", source).group(1))
    kernels = {name: value for name, value in namespace.items()
               if hasattr(value, "_compile_launch_config_signature")}
    return kernels, block


ARRAY = types.int32[::1]
