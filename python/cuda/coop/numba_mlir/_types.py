"""Numba types of cuda.coop descriptors.

Groups and temp storage are compile-time facts: their types carry everything
(kind, partition, storage policy) and their runtime value is a dummy i32. A
StatefulFunction's function is a compile-time fact and its runtime value is
its state, the array Numba would pass to the function.
"""

from numba_cuda_mlir import types
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir.extending import register_model
from numba_cuda_mlir.models import PrimitiveModel


class GroupType(types.Type):
    def __init__(self, kind: str, count: int = 0, exhaustive: bool = True):
        self.kind, self.count, self.exhaustive = kind, count, exhaustive
        suffix = f", {count}" + ("" if exhaustive else ", non_exhaustive") if count else ""
        super().__init__(name=f"coop.group<{kind}{suffix}>")

    @property
    def mlir(self) -> str:
        """The !coop.group type of the dialect."""
        suffix = f", {self.count}" + ("" if self.exhaustive else ", non_exhaustive") \
            if self.count else ""
        return f"!coop.group<{self.kind}{suffix}>"


class TempStorageType(types.Type):
    def __init__(self, size_in_bytes, alignment, auto_sync: bool, sharing: str):
        self.size_in_bytes, self.alignment = size_in_bytes, alignment
        self.auto_sync, self.sharing = auto_sync, sharing
        super().__init__(name=f"coop.temp_storage<{size_in_bytes}, {alignment}, "
                              f"{auto_sync}, {sharing}>")

    @property
    def attributes(self) -> tuple[tuple[str, object], ...]:
        """The coop.temp_storage op's attributes by their ODS names."""
        return (("size_in_bytes", self.size_in_bytes), ("alignment", self.alignment),
                ("auto_sync", self.auto_sync), ("sharing", self.sharing))


class StatefulFunctionType(types.Type):
    def __init__(self, function: types.Type, state: types.Array):
        self.function, self.state = function, state
        super().__init__(name=f"coop.stateful_function<{function}, {state}>")


class _DummyModel(PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.IntegerType.get_signless(32))


class _StateModel(PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.state).get_data_type())


register_model(GroupType)(_DummyModel)
register_model(TempStorageType)(_DummyModel)
register_model(StatefulFunctionType)(_StateModel)
