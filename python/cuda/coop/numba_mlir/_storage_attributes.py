"""Lowering of `cuda.coop.numba_mlir.TempStorage(...)` and of a descriptor's
attributes in a kernel.

A descriptor is a compile-time fact (its type carries it) whose runtime
value is a dummy; `scratch.size_in_bytes`, `.alignment`, `.auto_sync` and
`.sharing` are typed as literals (`_typing.TempStorageAttributes`) and
lowered here to the constants they name.
"""

from __future__ import annotations

from numba_cuda_mlir import types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import arith
from numba_cuda_mlir.extending import lowering_registry

from ._temp_storage import ATTRIBUTES
from ._temp_storage import TempStorage as QualifiedTempStorage
from ._types import TempStorageType


@lowering_registry.lower(QualifiedTempStorage, types.VarArg(types.Any))
def _lower_descriptor(builder, target, args, kwargs):
    builder.store_var(target, arith.constant(ir.IntegerType.get_signless(32), 0))


def _lower_attribute(attr):
    def lower(context, builder, target, value):
        fact = getattr(builder.get_numba_type(value.name), attr)
        target_type = builder.get_numba_type(target.name)
        if fact is None:
            # As Numba-CUDA-MLIR lowers a None constant: the variable holds
            # its MLIR type, so assignments and `is None` tests of it lower.
            builder.store_var(target, builder.get_mlir_type(target_type))
        elif isinstance(fact, str):
            builder.store_var(target, fact)
        else:
            builder.store_var(target, arith.constant(builder.get_mlir_type(target_type),
                                                     int(fact)))

    return lower


for _attr in ATTRIBUTES:
    lowering_registry.lower_getattr(TempStorageType, _attr)(_lower_attribute(_attr))
