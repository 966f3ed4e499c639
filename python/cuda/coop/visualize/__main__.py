"""python -m cuda.coop.visualize --out DIR: write the visualization site."""

from __future__ import annotations

import argparse
import sys

from . import VisualizeError, build_site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cuda.coop.visualize",
        description="Write self-contained HTML pages showing which tile elements each thread "
                    "owns before and after cuda.coop's load, store, exchange, shuffle, reduce, "
                    "scan and select.")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="directory to write index.html and one page per operation into")
    args = parser.parse_args(argv)
    try:
        written = build_site(args.out)
    except VisualizeError as error:
        parser.error(str(error))
    print(f"wrote {len(written)} pages; open {written[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
