"""cuda.coop.mlir: the coop dialect for the upstream MLIR Python bindings.

``from cuda.coop.mlir import coop`` gives the op classes generated from ODS
and ``coop.register_dialect(context)``, which also registers coop's passes and
pipelines for ``mlir.passmanager.PassManager.parse``. It needs the bindings of
the same MLIR, 22.1.8: ``pip install "cuda-coop[mlir]"`` (docs/embedding.md).
The Numba backend never imports this package: its MLIR is private.
"""
