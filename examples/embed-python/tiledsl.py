"""tiledsl: a tiny kernel DSL on the upstream MLIR Python bindings that embeds
the coop dialect.

A kernel maps a Python function over a 1-D int32 array, tile by tile: each
block loads a tile with ``coop.load`` (any CUB load algorithm), every thread
applies the function to its items (``arith`` inside an ``scf.for``), and
``coop.store`` writes the tile back. The last tile may be partial. The
function's extra parameters are int32 kernel arguments::

    @tile_map(block=128, items_per_thread=4, algorithm="transpose")
    def scale(x, factor):
        return x * factor + 1

    ptx = compile_ptx(scale)                    # coop-lower-to-ptx, CPU only
    result = launch(scale, ptx, data, 3)        # cuda.core, on the GPU

The coop dialect comes from ``cuda.coop.mlir`` (``pip install
"cuda-coop[mlir]"``); this module never imports numba-cuda-mlir.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable

import numpy as np
from mlir import ir
from mlir.dialects import arith, gpu, memref, scf
from mlir.passmanager import PassManager

from cuda.coop.mlir import coop

from run_ptx import run_ptx  # the launcher beside this file


class Int:
    """An int32 value of the kernel: the operators emit ``arith`` ops."""

    def __init__(self, value: ir.Value):
        self.value = value

    @staticmethod
    def _of(other: Int | int) -> ir.Value:
        if isinstance(other, Int):
            return other.value
        return arith.constant(ir.IntegerType.get_signless(32), other)

    def __add__(self, other: Int | int) -> Int:
        return Int(arith.addi(self.value, self._of(other)))

    def __sub__(self, other: Int | int) -> Int:
        return Int(arith.subi(self.value, self._of(other)))

    def __mul__(self, other: Int | int) -> Int:
        return Int(arith.muli(self.value, self._of(other)))

    __radd__ = __add__
    __rmul__ = __mul__


@dataclasses.dataclass(frozen=True)
class TileMap:
    function: Callable[..., Int]
    block: int
    items_per_thread: int
    algorithm: str

    @property
    def name(self) -> str:
        return self.function.__name__

    @property
    def tile(self) -> int:
        return self.block * self.items_per_thread

    @property
    def num_params(self) -> int:
        return len(inspect.signature(self.function).parameters) - 1


def tile_map(*, block: int, items_per_thread: int, algorithm: str = "direct"):
    """Makes a tile-mapping kernel of ``function(x, *params)``."""
    coop.Algorithm[algorithm]  # an unknown name fails here, not in MLIR
    return lambda function: TileMap(function, block, items_per_thread, algorithm)


def emit(kernel: TileMap) -> ir.Module:
    """The kernel as a ``gpu.module`` mixing arith/scf/memref with coop ops:
    ``@name(%src, %dst: memref<?xi32>, %n: index, %params: i32...)``."""
    i32, index = ir.IntegerType.get_signless(32), ir.IndexType.get()
    array = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], i32)
    inputs = [array, array, index] + [i32] * kernel.num_params
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        kernels = gpu.GPUModuleOp("kernels")
        kernels.regions[0].blocks.append()
        with ir.InsertionPoint(kernels.regions[0].blocks[0]):
            function = gpu.GPUFuncOp(ir.FunctionType.get(inputs, []), kernel.name, kernel=True,
                                     known_block_size=[kernel.block, 1, 1])
            entry = function.body.blocks.append(*inputs)
            with ir.InsertionPoint(entry):
                src, dst, n, *params = entry.arguments
                _emit_body(kernel, src, dst, n, params)
    return module


def _emit_body(kernel: TileMap, src, dst, n, params) -> None:
    index = ir.IndexType.get()
    block = coop.this_block(ir.Type.parse("!coop.group<block>"))
    items = memref.alloca(ir.MemRefType.get([kernel.items_per_thread], ir.IntegerType.get_signless(32)),
                          [], [])
    tile = arith.constant(index, kernel.tile)
    offset = arith.muli(gpu.block_id(gpu.Dimension.x), tile)
    # The last tile holds what is left of the array.
    valid = arith.minsi(arith.subi(n, offset), tile)
    algorithm = coop.Algorithm[kernel.algorithm]
    coop.load(block, src, items, offset=offset, valid_items=valid, algorithm=algorithm)
    loop = scf.ForOp(arith.constant(index, 0), arith.constant(index, kernel.items_per_thread),
                     arith.constant(index, 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        item = Int(memref.load(items, [i]))
        memref.store(kernel.function(item, *map(Int, params)).value, items, [i])
        scf.yield_([])
    coop.store(block, items, dst, offset=offset, valid_items=valid, algorithm=algorithm)
    gpu.ReturnOp([])


def compile_ptx(kernel: TileMap, chip: str = "sm_90") -> str:
    """PTX of the kernel: emitted, verified, and lowered by coop-lower-to-ptx."""
    with ir.Context() as context, ir.Location.unknown():
        coop.register_dialect(context)
        module = emit(kernel)
        module.operation.verify()
        PassManager.parse(f"builtin.module(coop-lower-to-ptx{{chip={chip}}})").run(module.operation)
        binary = module.body.operations[0]
        return gpu.ObjectAttr(binary.objects[0]).object.decode()


def launch(kernel: TileMap, ptx: str, data: np.ndarray, *params: int) -> np.ndarray:
    """Runs the kernel on ``data`` (int32) on GPU 0 with cuda.core and returns
    the result."""
    return run_ptx(ptx, kernel.name, kernel.block, kernel.tile, data, *params)
