"""Generated op and enum classes of coop (``_coop_ops_gen.py``,
``_coop_enum_gen.py``), in the layout mlir-tblgen writes them for: a
``dialects`` package beside an ``ir`` module. Use ``cuda.coop.mlir.coop``."""
