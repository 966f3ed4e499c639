"""Writes docs/images/visualize-load.png and visualize-exchange.png: two
pages of `python -m cuda.coop.visualize` drawn by headless Chromium.

    python docs/tools/screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = {
    "visualize-load.png": ("load.html#group=block&threads=32&algorithm=striped"
                           "&items_per_thread=3&oob_default=0&valid_items=70", (1040, 600)),
    "visualize-exchange.png": ("exchange.html#group=block&threads=64"
                               "&mode=blocked_to_warp_striped&items_per_thread=2", (1040, 720)),
}


def main() -> int:
    sys.path.insert(0, str(ROOT / "python"))
    from cuda.coop.visualize import build_site

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs chromium: apt-get install -y chromium")
    images = ROOT / "docs" / "images"
    images.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as site:
        build_site(site)
        for name, (page, (width, height)) in SHOTS.items():
            subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", f"--window-size={width},{height}",
                            "--virtual-time-budget=5000", f"--screenshot={images / name}",
                            f"file://{site}/{page}"], check=True, capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
