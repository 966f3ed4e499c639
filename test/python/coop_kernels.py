"""MLIR kernels that exercise one coop.load or coop.store each, a NumPy model
of what they must compute, and their compilation to PTX with coop-opt.

Shared by the compile-only matrix (ptxas checks, no GPU) and the GPU suite,
which may run on a machine without coop-opt from PTX compiled here.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np

from cuda.coop import _models as models

WARP = 32
DTYPES = {
    "int8": ("i8", np.int8),
    "int16": ("i16", np.int16),
    "int32": ("i32", np.int32),
    "int64": ("i64", np.int64),
    "uint64": ("i64", np.uint64),
    "float32": ("f32", np.float32),
    "float64": ("f64", np.float64),
}
BLOCK_ALGORITHMS = models.BLOCK_LOAD_STORE_ALGORITHMS
WARP_ALGORITHMS = models.WARP_LOAD_STORE_ALGORITHMS


@dataclasses.dataclass(frozen=True)
class Case:
    op: str                      # "load", "store", or "copy" (load then store, twice in a loop)
    algorithm: str
    dtype: str
    ipt: int
    block: tuple[int, int, int]
    width: int | None = None     # None: the block; 32: this_warp(); else group_by(width)
    guarded: bool = False        # pass valid_items
    oob: bool = False            # pass oob_default (loads)
    scalar: bool = False         # store a scalar (ipt == 1)

    @property
    def name(self) -> str:
        group = "block" if self.width is None else f"warp{self.width}"
        flags = ("_guarded" if self.guarded else "") + ("_oob" if self.oob else "") + (
            "_scalar" if self.scalar else "")
        x, y, z = self.block
        return (f"{self.op}_{self.algorithm}_{self.dtype}_ipt{self.ipt}_"
                f"b{x}x{y}x{z}_{group}{flags}")

    @property
    def block_size(self) -> int:
        x, y, z = self.block
        return x * y * z

    @property
    def group_size(self) -> int:
        return self.block_size if self.width is None else self.width

    @property
    def tile(self) -> int:
        return self.group_size * self.ipt

    @property
    def block_items(self) -> int:
        return self.block_size * self.ipt

    @property
    def element(self) -> str:
        return DTYPES[self.dtype][0]

    @property
    def numpy_dtype(self):
        return DTYPES[self.dtype][1]

    @property
    def element_bytes(self) -> int:
        return np.dtype(self.numpy_dtype).itemsize


def shared_bytes_bounds(case: Case) -> tuple[int, int]:
    """(the tile's, CUB's TempStorage's) scratch bytes, written independently of the
    compiler: a transpose's layout is the bank model's (plan-scratch.mlir tests which),
    never more than CUB's and never less than the items it holds; time-sliced is CUB's.
    Bytes the items take, as the plan sizes the buffer (not rounded to its alignment)."""
    n, eb = case.ipt, case.element_bytes
    pad = n > 4 and (n & (n - 1)) == 0
    if case.algorithm not in ("transpose", "warp_transpose", "warp_transpose_timesliced"):
        return 0, 0
    if case.width is not None:
        groups = case.block_size // case.width
        per_group = case.width * n + 1
        tile, cub = case.width * n * groups, (per_group + (per_group >> 5 if pad else 0)) * groups
    elif case.algorithm == "warp_transpose_timesliced":
        tile = cub = WARP * n + ((WARP * n) >> 5 if pad else 0)
    else:
        tile, cub = case.block_items, case.block_items + ((case.block_items >> 5) if pad else 0)
    return tile * eb, cub * eb


def _group(case: Case) -> tuple[str, str]:
    if case.width is None:
        return "%g = coop.this_block", "!coop.group<block>"
    if case.width == WARP:
        return "%g = coop.this_warp", "!coop.group<warp>"
    t = f"!coop.group<threads_within_warp, {case.width}>"
    return (f"%w = coop.this_warp\n    %g = coop.group_by %w : !coop.group<warp> -> {t}", t)


def _linear_thread_and_tile(case: Case) -> str:
    x, y, _ = case.block
    return f"""
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %bid = gpu.block_id x
    %cx = arith.constant {x} : index
    %cy = arith.constant {y} : index
    %zy = arith.muli %tz, %cy : index
    %yz = arith.addi %ty, %zy : index
    %yzx = arith.muli %yz, %cx : index
    %tid = arith.addi %tx, %yzx : index
    %cbs = arith.constant {case.block_size} : index
    %gtid = arith.muli %bid, %cbs : index
    %lin = arith.addi %gtid, %tid : index
    %cn = arith.constant {case.ipt} : index
    %slot = arith.muli %lin, %cn : index
    %cbi = arith.constant {case.block_items} : index
    %boff = arith.muli %bid, %cbi : index
    %toff = arith.addi %off, %boff : index"""


def kernel_mlir(case: Case) -> str:
    """One gpu.func. Loads write each thread's items to `out[slot + i]`;
    stores take each thread's items from `vals[slot + i]`."""
    t, n = case.element, case.ipt
    group, group_type = _group(case)
    x, y, z = case.block
    attrs = f"known_block_size = array<i32: {x}, {y}, {z}>"
    valid = " valid_items = %valid" if case.guarded else ""
    algorithm = "" if case.algorithm == "direct" else f" algorithm = {case.algorithm}"
    per_item = "\n".join(
        f"    %i{i} = arith.addi %slot, %c{i} : index\n"
        + (f"    %v{i} = memref.load %items[%c{i}] : memref<{n}x{t}>\n"
           f"    memref.store %v{i}, %out[%i{i}] : memref<?x{t}>"
           if case.op == "load" else
           f"    %v{i} = memref.load %vals[%i{i}] : memref<?x{t}>\n"
           f"    memref.store %v{i}, %items[%c{i}] : memref<{n}x{t}>")
        for i in range(n))
    consts = "\n".join(f"    %c{i} = arith.constant {i} : index" for i in range(n))
    if case.op == "load":
        oob = f" oob_default = %oob : {t}" if case.oob else ""
        return f"""
  gpu.func @{case.name}(%src: memref<?x{t}>, %out: memref<?x{t}>, %off: index, %valid: index, %oob: {t}) kernel
      attributes {{{attrs}}} {{
    {group}
    %items = memref.alloca() : memref<{n}x{t}>{_linear_thread_and_tile(case)}
{consts}
    coop.load %g, %src[%toff] into %items{algorithm}{valid}{oob} : {group_type}, memref<?x{t}>, memref<{n}x{t}>
{per_item}
    gpu.return
  }}"""
    if case.op == "copy":
        return f"""
  gpu.func @{case.name}(%src: memref<?x{t}>, %dst: memref<?x{t}>, %off: index, %valid: index) kernel
      attributes {{{attrs}}} {{
    {group}
    %items = memref.alloca() : memref<{n}x{t}>
    %bid = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbi = arith.constant {case.block_items} : index
    %first = arith.muli %bid, %c2 : index
    scf.for %k = %c0 to %c2 step %c1 {{
      %tile = arith.addi %first, %k : index
      %start = arith.muli %tile, %cbi : index
      %toff = arith.addi %off, %start : index
      coop.load %g, %src[%toff] into %items{algorithm}{valid} : {group_type}, memref<?x{t}>, memref<{n}x{t}>
      coop.store %g, %items into %dst[%toff]{algorithm}{valid} : {group_type}, memref<{n}x{t}>, memref<?x{t}>
    }}
    gpu.return
  }}"""
    value = "%v0" if case.scalar else "%items"
    value_type = t if case.scalar else f"memref<{n}x{t}>"
    return f"""
  gpu.func @{case.name}(%dst: memref<?x{t}>, %vals: memref<?x{t}>, %off: index, %valid: index) kernel
      attributes {{{attrs}}} {{
    {group}
    %items = memref.alloca() : memref<{n}x{t}>{_linear_thread_and_tile(case)}
{consts}
{per_item}
    coop.store %g, {value} into %dst[%toff]{algorithm}{valid} : {group_type}, {value_type}, memref<?x{t}>
    gpu.return
  }}"""


def module_mlir(cases) -> str:
    return "gpu.module @kernels {" + "".join(kernel_mlir(c) for c in cases) + "\n}\n"


def coop_opt() -> str:
    path = os.environ.get("COOP_OPT") or shutil.which("coop-opt")
    if path is None:
        raise RuntimeError("coop-opt is not on PATH: pip install '.[test]'")
    return path


def compile_ptx(cases, chip: str = "sm_90") -> str:
    """PTX of a module holding every case's kernel, through coop-lower-to-ptx."""
    result = subprocess.run(
        [coop_opt(), f"--coop-lower-to-ptx=chip={chip}", "-"],
        input=module_mlir(cases), capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-6000:])
    match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', result.stdout, re.S)
    if match is None:
        raise RuntimeError("no PTX in coop-opt's output:\n" + result.stdout[-2000:])
    return _unescape_mlir_string(match.group(1))


def _unescape_mlir_string(text: str) -> str:
    return re.sub(r"\\([0-9A-Fa-f]{2})|\\(.)",
                  lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), text)


@functools.cache
def ptxas() -> str | None:
    found = shutil.which("ptxas")
    if found:
        return found
    try:
        import nvidia.cu13  # noqa: F401
    except ImportError:
        return None
    candidate = Path(nvidia.cu13.__path__[0]) / "bin" / "ptxas"
    return str(candidate) if candidate.exists() else None


@dataclasses.dataclass
class Resources:
    registers: int
    stack: int
    spill_stores: int
    spill_loads: int
    shared: int


def ptxas_resources(ptx: str, arch: str = "sm_90") -> dict[str, Resources]:
    """ptxas -v's report for every entry of `ptx`."""
    result = subprocess.run([ptxas(), f"-arch={arch}", "-v", "-", "-o", os.devnull],
                            input=ptx, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("ptxas rejected the PTX:\n" + result.stderr[-4000:])
    report: dict[str, Resources] = {}
    current = None
    for line in result.stderr.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            current = m.group(1)
            report[current] = Resources(0, 0, 0, 0, 0)
        elif current and (m := re.search(
                r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)):
            r = report[current]
            r.stack, r.spill_stores, r.spill_loads = map(int, m.groups())
        elif current and (m := re.search(r"Used (\d+) registers", line)):
            report[current].registers = int(m.group(1))
            if s := re.search(r"(\d+) bytes smem", line):
                report[current].shared = int(s.group(1))
    return report


# --- The NumPy model ---------------------------------------------------------
# Each group's tile goes through cuda.coop._models, the model the visualizer
# draws; these functions only place the groups of a grid in memory.

def thread_layout(case: Case, blocks: int, offset: int):
    """For every thread of the grid: the index of its tile start in memory
    and its rank in its group."""
    t = np.arange(case.block_size)
    rank = t if case.width is None else t % case.width
    group = np.zeros_like(t) if case.width is None else t // case.width
    tile_start = offset + group * case.tile
    b = np.arange(blocks)
    starts = (b[:, None] * case.block_items + tile_start[None, :]).reshape(-1)
    ranks = np.tile(rank, blocks)
    return starts, ranks


def _group_starts(case: Case, blocks: int, offset: int):
    """The memory index of every group's tile, in thread order."""
    starts, ranks = thread_layout(case, blocks, offset)
    return starts[ranks == 0]


def expected_load(case: Case, src: np.ndarray, blocks: int, offset: int,
                  valid: int | None, oob):
    """(values, checked): what each payload slot must hold, and which slots
    are specified (past valid_items without oob_default they are not)."""
    results = [models.load_model(case.algorithm, src[start:start + case.tile], case.group_size,
                                 case.ipt, valid, oob)
               for start in _group_starts(case, blocks, offset)]
    values = np.concatenate([v for v, _ in results]).reshape(-1)
    checked = np.concatenate([c for _, c in results]).reshape(-1)
    return values, checked


def expected_load_store(case: Case, src: np.ndarray, dst: np.ndarray, blocks: int,
                        offset: int, valid: int | None) -> np.ndarray:
    """dst after every group loads its tile of src and stores it back with
    the same algorithm."""
    out = dst.copy()
    for start in _group_starts(case, blocks, offset):
        items, _ = models.load_model(case.algorithm, src[start:start + case.tile],
                                     case.group_size, case.ipt, valid)
        out[start:start + case.tile] = models.store_model(
            case.algorithm, items, out[start:start + case.tile], valid)
    return out


def expected_copy(case: Case, src: np.ndarray, dst: np.ndarray, blocks: int,
                  offset: int, valid: int | None) -> np.ndarray:
    """Each block copies two consecutive block-sized tiles (its loop)."""
    return expected_load_store(case, src, dst, 2 * blocks, offset, valid)


def expected_store(case: Case, dst: np.ndarray, vals: np.ndarray, blocks: int,
                   offset: int, valid: int | None) -> np.ndarray:
    out = dst.copy()
    items = vals.reshape(-1, case.group_size, case.ipt)
    for group, start in enumerate(_group_starts(case, blocks, offset)):
        out[start:start + case.tile] = models.store_model(
            case.algorithm, items[group], out[start:start + case.tile], valid)
    return out


# --- The matrices --------------------------------------------------------------

MATRIX_DTYPES = ("int8", "int16", "int32", "int64", "float32", "float64")
MATRIX_IPT = (1, 3, 4, 8)
MATRIX_BLOCKS = ((32, 1, 1), (128, 1, 1), (256, 1, 1), (8, 16, 1))
LOGICAL_WIDTHS = (1, 2, 4, 8, 16, 32)


def variants(op: str, algorithm: str, dtype: str, ipt: int, block, width=None):
    """Full tiles, guarded tiles and (loads) guarded tiles with oob_default."""
    base = dict(op=op, algorithm=algorithm, dtype=dtype, ipt=ipt, block=block, width=width)
    yield Case(**base)
    yield Case(**base, guarded=True)
    if op == "load":
        yield Case(**base, guarded=True, oob=True)
    elif ipt == 1 and algorithm == "direct":
        yield Case(**base, scalar=True)


def compile_matrix(dtypes=MATRIX_DTYPES):
    """The issue's compile-only matrix: every algorithm x dtype x ipt x block,
    for blocks, physical warps and logical warps."""
    for dtype in dtypes:
        for op in ("load", "store"):
            for ipt in MATRIX_IPT:
                for block in MATRIX_BLOCKS:
                    for algorithm in BLOCK_ALGORITHMS:
                        yield from variants(op, algorithm, dtype, ipt, block)
                    for algorithm in WARP_ALGORITHMS:
                        for width in LOGICAL_WIDTHS:
                            yield from variants(op, algorithm, dtype, ipt, block, width)


def gpu_matrix():
    """What the GPU suite launches: the block matrix in full, logical warps
    for every width with fewer dtypes and blocks."""
    for case in compile_matrix(MATRIX_DTYPES + ("uint64",)):
        if case.width is None:
            yield case
        elif case.dtype in ("int8", "int32", "float64") and case.block != (256, 1, 1):
            yield case
    yield from copy_matrix()


def copy_matrix():
    """Load then store with one algorithm, twice in a loop: the reuse barriers
    (between the two, and across iterations) on real hardware."""
    for dtype in ("int8", "int32", "float64"):
        for ipt in (1, 4, 8):
            for block in ((128, 1, 1), (8, 16, 1)):
                for guarded in (False, True):
                    for algorithm in BLOCK_ALGORITHMS:
                        yield Case("copy", algorithm, dtype, ipt, block, guarded=guarded)
                    for algorithm in WARP_ALGORITHMS:
                        for width in (8, 32):
                            yield Case("copy", algorithm, dtype, ipt, block, width,
                                       guarded=guarded)


def batches(cases):
    """Cases grouped into modules of one dtype and op (about 300-600 kernels)."""
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(f"{case.op}_{case.dtype}", []).append(case)
    return groups


def write_cubins(directory: Path, arch: str = "sm_90") -> None:
    """Compile the GPU matrix here, for a GPU machine without coop-opt."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, cases in batches(gpu_matrix()).items():
        ptx_path = directory / f"{name}.ptx"
        ptx_path.write_text(compile_ptx(cases))
        subprocess.run([ptxas(), f"-arch={arch}", str(ptx_path), "-o",
                        str(directory / f"{name}.cubin")], check=True)
        ptx_path.unlink()


if __name__ == "__main__":
    import sys

    write_cubins(Path(sys.argv[1]))
