"""What the generated enum classes import as ``..ir`` (they are written for
mlir.dialects, beside mlir.ir): upstream's attribute builder registry."""

from mlir.ir import register_attribute_builder  # noqa: F401
