# lit configuration of the coop test suite.
#
# The tools come from PATH (an installed cuda-coop puts coop-opt there) or,
# for a build tree, from `--param coop_tools_dir=<build>/bin`.

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "coop"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".c"]
config.excludes = ["lit.cfg.py", "python"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, ".lit-out")

tools_dir = lit_config.params.get("coop_tools_dir")
if tools_dir:
    config.environment["PATH"] = os.pathsep.join(
        [os.path.abspath(tools_dir), os.environ.get("PATH", "")]
    )
else:
    config.environment["PATH"] = os.environ.get("PATH", "")

for tool in ("coop-opt", "FileCheck"):
    path = shutil.which(tool, path=config.environment["PATH"])
    if path is None:
        lit_config.fatal(
            f"'{tool}' is not on PATH: install the package with "
            "`pip install .[test]`, or pass --param coop_tools_dir=<build>/bin"
        )
    config.substitutions.append((rf"\b{tool}\b", path))

config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

# C tests of the C API (test/CAPI) compile against its headers and library:
# the build tree's, or the installed package's.
if tools_dir:
    capi_include = os.path.join(os.path.dirname(config.test_source_root), "include")
    capi_lib = os.path.join(os.path.dirname(os.path.abspath(tools_dir)), "lib")
else:
    # The package that put coop-opt on PATH: the Python of its environment
    # finds it (lit itself may run in another one).
    python = os.path.join(os.path.dirname(shutil.which("coop-opt", path=config.environment["PATH"])),
                          "python")
    package = subprocess.run(
        [python if os.path.exists(python) else sys.executable, "-c",
         "import cuda.coop, os; print(os.path.dirname(cuda.coop.__file__))"],
        capture_output=True, text=True, check=True).stdout.strip()
    capi_include = os.path.join(package, "include")
    capi_lib = package
cc = shutil.which(os.environ.get("CC", "cc"))
if cc is None:
    lit_config.fatal("no C compiler for test/CAPI: set CC or install cc")
config.substitutions.append(("%cc", cc))
config.substitutions.append(
    ("%coop_capi_flags",
     f"-I{capi_include} -L{capi_lib} -lcuda_coop_capi -Wl,-rpath,{capi_lib}"))
