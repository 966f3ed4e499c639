# lit configuration of the embed-cpp example: embed-opt from the example's
# build directory (`--param embed_tools_dir=<build>`), FileCheck from PATH.

import os
import shutil

import lit.formats

config.name = "embed-cpp"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get("embed_tools_dir", config.test_source_root)

tools_path = os.pathsep.join(
    [lit_config.params.get("embed_tools_dir", ""), os.environ.get("PATH", "")]
)
for tool in ("embed-opt", "embed-capi", "FileCheck"):
    path = shutil.which(tool, path=tools_path)
    if path is None:
        lit_config.fatal(f"'{tool}' not found; pass --param embed_tools_dir=<build>/bin")
    config.substitutions.append((rf"\b{tool}\b", path))
