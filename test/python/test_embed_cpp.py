"""The C++ embedding routes: examples/embed-cpp, an out-of-tree MLIR project
with a dialect of its own, gets coop either from the installed CMake package
(``find_package(CoopMLIR)`` at ``python -m cuda.coop --cmake-dir``) or by
building it from this checkout (``add_subdirectory``), builds its tools, and
its lit tests lower a kernel that mixes its ops with coop ops.

Both need the pip MLIR kit (``pip install "cuda-coop[mlir-dev]"``, part of the
test extra); the first needs the installed wheel (a source checkout has no
CMake package).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cuda.coop

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "embed-cpp"

# A source checkout (PYTHONPATH=python) has no CMake package; an installed
# wheel must have one.
installed_only = pytest.mark.skipif(
    Path(cuda.coop.__file__).resolve().is_relative_to(ROOT / "python"),
    reason="needs an installed cuda-coop wheel (its CMake package)",
)


def _cmake_dir() -> Path:
    found = subprocess.run(
        [sys.executable, "-m", "cuda.coop", "--cmake-dir"], capture_output=True, text=True
    )
    assert found.returncode == 0, found.stderr
    return Path(found.stdout.strip())


@installed_only
def test_cmake_dir_holds_the_package_and_nothing_test_only_is_installed():
    cmake_dir = _cmake_dir()
    package = Path(cuda.coop.__file__).resolve().parent
    assert cmake_dir == package / "lib" / "cmake" / "CoopMLIR"
    assert (cmake_dir / "CoopMLIRConfig.cmake").is_file()
    assert (package / "include" / "coop" / "Dialect" / "Coop" / "IR" / "CoopOps.h.inc").is_file()
    archives = sorted(p.name for p in (package / "lib").glob("*.a"))
    assert "libCoopIR.a" in archives and "libCoopTestPasses.a" not in archives
    # Earlier wheels put the archives in site-packages/lib.
    assert not list((package.parents[1] / "lib").glob("libCoop*.a"))


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, (
        f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}"
    )


def _build_and_check(tmp_path: Path, coop: list[str]) -> None:
    """Configures and builds examples/embed-cpp with `coop` (how it gets the
    dialect) and runs its lit tests."""
    build = tmp_path / "build"
    configure = [
        "cmake", "-G", "Ninja", "-S", str(EXAMPLE), "-B", str(build),
        "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}", *coop,
    ]
    # gold links the static MLIR archives several times faster than bfd.
    if shutil.which("ld.gold"):
        configure.append("-DLLVM_USE_LINKER=gold")
    if shutil.which("ccache"):
        configure += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    _run(configure, tmp_path)
    _run(["cmake", "--build", str(build), "--target", "embed-opt", "embed-capi"], tmp_path)
    lit = shutil.which("lit")
    assert lit, "lit is not on PATH (pip install lit)"
    _run([lit, "-v", f"--param=embed_tools_dir={build / 'bin'}", str(EXAMPLE / "test")], tmp_path)


@installed_only
def test_embed_cpp_builds_against_the_installed_package_and_passes_its_lit_tests(tmp_path):
    _build_and_check(tmp_path, [f"-DCoopMLIR_DIR={_cmake_dir()}"])


def test_embed_cpp_builds_coop_as_a_subdirectory_and_passes_its_lit_tests(tmp_path):
    # The example finds the kit itself and builds coop from this checkout.
    _build_and_check(tmp_path, [f"-DCOOP_SOURCE_DIR={ROOT}"])
