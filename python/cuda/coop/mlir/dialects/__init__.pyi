"""Generated op and enum classes of coop; use cuda.coop.mlir.coop."""
