"""Interactive pictures of cuda.coop's operations: for each thread, the tile
elements it owns before and after a load, store, exchange, shuffle, reduce,
scan or select. ``python -m cuda.coop.visualize --out DIR`` writes the site: one
self-contained HTML page per operation and an index.

Every picture comes from cuda.coop._models, the NumPy models that the GPU
tests compare the compiled kernels against.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


class VisualizeError(ValueError):
    """A bad request to the visualizer, naming the mistake and the fix."""


def build_site(out: Path | str) -> list[Path]:
    """Write index.html and one page per operation into `out` (created if
    needed); returns the written files."""
    # The models are NumPy code, and the base install of cuda-coop has no
    # dependencies: import the pages only once NumPy is known to be there.
    if importlib.util.find_spec("numpy") is None:
        raise VisualizeError("the visualizer computes its pictures with NumPy; install it with "
                             "pip install numpy (or a numba-cuda-mlir extra of cuda-coop)")
    from ._html import render_index, render_page
    from ._pages import PAGES

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise VisualizeError(f"--out {out} is a file; pass a directory (it is created if "
                             f"missing)")
    out.mkdir(parents=True, exist_ok=True)
    pages = [build() for build in PAGES]
    written = []
    for page in pages:
        path = out / f"{page.name}.html"
        path.write_text(render_page(page, pages), encoding="utf-8")
        written.append(path)
    index = out / "index.html"
    index.write_text(render_index(pages), encoding="utf-8")
    return [index] + written


__all__ = ["VisualizeError", "build_site"]
