"""``python -m cuda.coop --cmake-dir``: where the CMake package of the dialect is.

C++ projects that embed the ``coop`` dialect pass it to CMake
(``-DCoopMLIR_DIR=$(python -m cuda.coop --cmake-dir)``), as with
``python -m nanobind --cmake_dir``; docs/embedding.md has the details.
"""

import argparse
import sys
from pathlib import Path

CMAKE_DIR = Path(__file__).resolve().parent / "lib" / "cmake" / "CoopMLIR"


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m cuda.coop")
    parser.add_argument(
        "--cmake-dir",
        action="store_true",
        help="print the directory of CoopMLIRConfig.cmake (find_package(CoopMLIR))",
    )
    args = parser.parse_args()
    if not args.cmake_dir:
        parser.print_help()
        return 2
    if not (CMAKE_DIR / "CoopMLIRConfig.cmake").is_file():
        print(
            f"cuda.coop: no CMake package at {CMAKE_DIR}; it comes with an installed "
            "wheel (pip install cuda-coop), not with a source checkout",
            file=sys.stderr,
        )
        return 1
    print(CMAKE_DIR)
    return 0


if __name__ == "__main__":
    sys.exit(main())
