"""ODS is the one source of the dialect's names: `cuda.coop._ods`, generated
from it at build time, lists every op's operands and attributes and every
enum's cases; the backend's operation table, the NumPy models, the stubs
(through the table, test_stubs.py), the benchmarks and the reduce/scan
algorithm table follow it, and a site is built from the table alone."""

import ast
import re
from pathlib import Path

import pytest

from cuda.coop import _models, _ods


def test_the_table_lists_the_ops_and_enums_of_the_dialect():
    load = _ods.OPS["coop.load"]
    assert [name for name, _ in load["operands"]] == [
        "group", "source", "payload", "offset", "valid_items", "oob_default", "temp_storage"]
    assert dict(load["operands"])["offset"] == "optional"
    algorithm = dict(load["attributes"])["algorithm"]
    assert algorithm == {"kind": "enum", "enum": "Algorithm", "optional": False,
                         "default": "direct"}
    assert dict(load["attributes"])["read_only"]["kind"] == "unit"
    assert dict(_ods.OPS["coop.reduce"]["attributes"])["combiner"]["kind"] == "symbol"
    assert dict(_ods.OPS["coop.temp_storage"]["attributes"])["size_in_bytes"]["kind"] == \
        "integer"
    assert _ods.ENUMS["Sharing"] == {"mnemonic": "sharing",
                                     "summary": "scratch allocation policy",
                                     "cases": ("shared", "exclusive")}
    # A type parameter's enum has no attribute mnemonic.
    assert "mnemonic" not in _ods.ENUMS["GroupKind"]


def _ods_names(operation):
    """Every ODS operand and attribute name the operation's roles and options
    map to."""
    names = {operation.ods_name(role) for role in operation.positional}
    for option in operation.options:
        if option.name in operation.result_options:
            continue
        names |= {operation.ods_name(option.name),
                  operation.ods_name(option.name, function=True)}
    for name, value in operation.fixed:
        names.add(operation.ods_name(name, function=not isinstance(value, str)))
    return names


def test_every_role_and_option_of_the_backend_is_an_operand_or_attribute_of_its_op():
    pytest.importorskip("numba_cuda_mlir")
    from cuda.coop._operations import OPERATIONS

    for operation in OPERATIONS.values():
        spec = _ods.OPS[operation.dialect_op]
        known = {name for name, _ in spec["operands"]} | {
            name for name, _ in spec["attributes"]}
        extra = {operation.ods_name(name) for name in ("output", "unsigned")
                 if operation.ods_name(name) in known}
        assert _ods_names(operation) | extra <= known, operation.name


def test_choices_are_the_cases_of_the_ods_enum_they_become():
    pytest.importorskip("numba_cuda_mlir")
    from cuda.coop._operations import OPERATIONS

    for operation in OPERATIONS.values():
        attributes = dict(_ods.OPS[operation.dialect_op]["attributes"])
        for option in operation.options:
            if option.kind not in ("choice", "operator"):
                continue
            attribute = attributes[operation.ods_name(option.name)]
            assert attribute["kind"] == "enum", (operation.name, option.name)
            assert option.choices == _ods.ENUMS[attribute["enum"]]["cases"], \
                (operation.name, option.name)


def test_the_models_subsets_are_cases_of_the_dialects_enums():
    assert set(_models.WARP_LOAD_STORE_ALGORITHMS) < set(_ods.ENUMS["Algorithm"]["cases"])
    assert set(_models.WARP_EXCHANGE_MODES) < set(_ods.ENUMS["ExchangeMode"]["cases"])
    assert set(_models.TIME_SLICED_MODES) < set(_ods.ENUMS["ExchangeMode"]["cases"])


def test_temp_storage_sharing_policies_are_the_dialects():
    from cuda.coop.numba_mlir import _temp_storage

    assert _temp_storage.SHARINGS == _ods.ENUMS["Sharing"]["cases"]


ROOT = Path(__file__).resolve().parents[2]


def _tuple_constant(path: Path, name: str) -> tuple:
    """The literal tuple a module assigns to `name`, read without importing it."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} assigns no {name}")


@pytest.mark.parametrize("module, name, enum, whole", [
    ("benchmarks/tile_copy.py", "ALGORITHMS", "Algorithm", True),
    ("benchmarks/compile_time.py", "ALGORITHMS", "Algorithm", True),
    ("benchmarks/compile_scale.py", "ALGORITHMS", "Algorithm", False),
    ("benchmarks/numba_tile_copy.py", "WARP_ALGORITHMS", "Algorithm", False),
    ("benchmarks/numba_reduce_scan.py", "REDUCE_ALGORITHMS", "ReduceAlgorithm", True),
    ("benchmarks/numba_reduce_scan.py", "SCAN_ALGORITHMS", "ScanAlgorithm", True),
    ("test/python/test_descriptor_rules.py", "BLOCK_ALGORITHMS", "Algorithm", True),
])
def test_the_benchmarks_name_the_dialects_algorithms(module, name, enum, whole):
    names, cases = set(_tuple_constant(ROOT / module, name)), set(_ods.ENUMS[enum]["cases"])
    assert names == cases if whole else names <= cases, (module, name, names ^ cases)


def test_the_algorithm_table_of_the_reduce_and_scan_page_lists_the_dialects_algorithms():
    page = (ROOT / "docs" / "reduce-and-scan.md").read_text()
    table = page[page.index("## Algorithms"):].split("\n\n")[1]
    block_rows = [row.split("|")[2] for row in table.splitlines() if row.startswith("| block |")]
    documented = {name for cell in block_rows for name in re.findall(r"`(\w+)`", cell)}
    assert documented == set(_ods.ENUMS["ReduceAlgorithm"]["cases"]) | set(
        _ods.ENUMS["ScanAlgorithm"]["cases"])
