# The typing contract of cuda.coop.visualize (python -m cuda.coop.visualize).
from pathlib import Path

class VisualizeError(ValueError): ...

def build_site(out: Path | str) -> list[Path]: ...

__all__ = ["VisualizeError", "build_site"]
