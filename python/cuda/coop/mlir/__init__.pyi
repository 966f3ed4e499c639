"""cuda.coop.mlir: the coop dialect for the upstream MLIR Python bindings (see coop.py)."""
