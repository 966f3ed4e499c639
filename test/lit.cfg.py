# lit configuration of the coop test suite.
#
# The tools come from PATH (an installed cuda-coop puts coop-opt there) or,
# for a build tree, from `--param coop_tools_dir=<build>/bin`.

import os
import shutil

import lit.formats

config.name = "coop"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
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
