"""The typing contract: the .pyi stubs of cuda.coop and cuda.coop.numba_mlir
type-check a typed user of both namespaces clean under mypy --strict and
report each misuse; their signatures are the runtime's; they ship in the
wheel."""

import ast
import fnmatch
import inspect
import os
import re
import runpy
import subprocess
import sys
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "cuda" / "coop"
STUBS = [PACKAGE / "__init__.pyi", PACKAGE / "numba_mlir" / "__init__.pyi"]
USERS = Path(__file__).parent / "typed_users"


# ---------------------------------------------------------------------------
# mypy on typed users of the API


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory):
    """mypy --strict's report on the typed users and the stubs themselves.

    The stubs are passed as sources, so the repository's are checked even
    where an installed cuda-coop sits in site-packages, and they must be
    clean under --strict too."""
    pytest.importorskip("mypy")
    pytest.importorskip("numpy")
    users = [USERS / "clean.py", USERS / "errors.py"]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--explicit-package-bases",
         "--no-error-summary", "--show-error-codes", "--hide-error-context",
         "--cache-dir", str(tmp_path_factory.mktemp("mypy_cache")),
         *map(str, users), *map(str, STUBS)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(ROOT / "python")})
    assert result.returncode in (0, 1), result.stdout + result.stderr
    errors: dict[str, list[tuple[int, str]]] = {}
    for line in result.stdout.splitlines():
        match = re.match(r"(.+?):(\d+): error: (.*)", line)
        if match:
            errors.setdefault(Path(match[1]).name, []).append((int(match[2]), match[3]))
    return errors, result.stdout


def test_mypy_finds_no_issue_in_a_typed_user_of_both_namespaces(mypy_report):
    errors, report = mypy_report
    assert "clean.py" not in errors, report
    assert "__init__.pyi" not in errors, report


def test_mypy_reports_every_misuse_and_nothing_else(mypy_report):
    errors, report = mypy_report
    lines = (USERS / "errors.py").read_text().splitlines()
    marked = {number for number, line in enumerate(lines, 1) if line.endswith("# error")}
    assert len(marked) == 20
    assert {line for line, _ in errors.get("errors.py", [])} == marked, report


def test_mypy_names_the_wrong_argument(mypy_report):
    errors, _ = mypy_report
    messages = "\n".join(message for _, message in errors["errors.py"])
    assert 'Argument "sharing" to "TempStorage" has incompatible type "Literal[\'private\']"' \
        in messages
    assert 'Missing positional arguments "exhaustive", "unit" in call to "GroupByMapping"' \
        in messages
    assert 'Property "items_per_thread" defined in "ThreadDataLike" is read-only' in messages


def test_the_typed_user_runs_as_written():
    # What mypy accepted at module level (descriptors, GroupByMapping's
    # constructor, the generic payload protocol) also holds at run time.
    pytest.importorskip("numba_cuda_mlir")
    namespace = runpy.run_path(str(USERS / "clean.py"))
    assert namespace["mapping"].count == 8 and namespace["keywords"].unit == "warp"
    assert namespace["group"].static_size == 8
    assert typing.get_args(namespace["payload_type"]) == (int,)


# ---------------------------------------------------------------------------
# The stubs' signatures are the runtime's


def _stub_functions(stub: Path) -> dict[str, list[ast.FunctionDef]]:
    """Top-level functions (every overload) and class constructors
    ("Class.__init__") of a stub."""
    found: dict[str, list[ast.FunctionDef]] = {}
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    found.setdefault(f"{node.name}.__init__", []).append(item)
    return found


def _stub_parameters(function: ast.FunctionDef, method: bool):
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    kinds = [inspect.Parameter.POSITIONAL_ONLY] * len(arguments.posonlyargs) + \
        [inspect.Parameter.POSITIONAL_OR_KEYWORD] * len(arguments.args)
    parameters = [(a.arg, kind, d is not None)
                  for a, kind, d in zip(positional, kinds, defaults)]
    if arguments.vararg:
        parameters.append((arguments.vararg.arg, inspect.Parameter.VAR_POSITIONAL, False))
    parameters += [(a.arg, inspect.Parameter.KEYWORD_ONLY, d is not None)
                   for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg:
        parameters.append((arguments.kwarg.arg, inspect.Parameter.VAR_KEYWORD, False))
    return parameters[1:] if method else parameters


def _runtime_parameters(value):
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty)
            for p in inspect.signature(value).parameters.values()]


def _runtime(module, name):
    if name.endswith(".__init__"):
        return getattr(module, name.removesuffix(".__init__"))
    return getattr(module, name)


COMMON_CHECKED = {"register", "this_thread", "this_warp", "this_block", "this_cluster",
                  "this_grid", "ThreadData", "TempStorage", "load", "store", "exchange",
                  "shuffle", "GroupByMapping.__init__", "ThreadGroup.__init__",
                  "ThreadHierarchy.__init__"}
QUALIFIED_CHECKED = {"ThreadData", "TempStorage.__init__", "load", "store", "exchange",
                     "shuffle"}


@pytest.mark.parametrize("stub, module_name, checked", [
    (STUBS[0], "cuda.coop", COMMON_CHECKED),
    (STUBS[1], "cuda.coop.numba_mlir", QUALIFIED_CHECKED),
], ids=["cuda.coop", "cuda.coop.numba_mlir"])
def test_stub_signatures_are_the_runtime_signatures(stub, module_name, checked):
    if module_name.endswith("numba_mlir"):
        pytest.importorskip("numba_cuda_mlir")
    module = __import__(module_name, fromlist=["_"])
    functions = _stub_functions(stub)
    assert checked <= set(functions), checked - set(functions)
    for name in sorted(checked):
        runtime = _runtime_parameters(_runtime(module, name))
        for overload in functions[name]:
            stub_parameters = _stub_parameters(overload, name.endswith("__init__"))
            # The same names and kinds; an overload may require what the
            # runtime defaults (a scalar shuffle needs its mode), never the
            # reverse.
            assert [p[:2] for p in stub_parameters] == [p[:2] for p in runtime], name
            assert all(r[2] or not s[2] for s, r in zip(stub_parameters, runtime)), name


def _literal_strings(node, aliases):
    """The strings a stub annotation's `Literal[...]`s admit, through
    aliases and unions."""
    if isinstance(node, ast.Name) and node.id in aliases:
        return _literal_strings(aliases[node.id], aliases)
    if isinstance(node, ast.BinOp):
        return _literal_strings(node.left, aliases) | _literal_strings(node.right, aliases)
    if isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "Literal":
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return {item.value for item in items if isinstance(item, ast.Constant)
                and isinstance(item.value, str)}
    return set()


def _aliases(stub: Path) -> dict[str, ast.expr]:
    """A stub's type aliases, with those it imports from the common stub
    under another name."""
    common = {node.targets[0].id: node.value for node in ast.parse(STUBS[0].read_text()).body
              if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    aliases = dict(common)
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            aliases[node.targets[0].id] = node.value
        elif isinstance(node, ast.ImportFrom):
            aliases.update({name.asname: common[name.name] for name in node.names
                            if name.asname and name.name in common})
    return aliases


@pytest.mark.parametrize("stub", STUBS, ids=["cuda.coop", "cuda.coop.numba_mlir"])
def test_stub_operations_follow_the_operation_table(stub):
    # The backend's table of operations (what typing and lowering accept) and
    # the stubs name the same positional roles, options and choices.
    pytest.importorskip("numba_cuda_mlir")
    from cuda.coop._operations import OPERATIONS

    functions = _stub_functions(stub)
    aliases = _aliases(stub)
    for operation in OPERATIONS.values():
        overloads = functions[operation.name]
        # Options that may also be passed by position follow the `/`.
        positional_options = tuple(getattr(operation, "positional_options", ()))
        for overload in overloads:
            assert len(overload.args.posonlyargs) == len(operation.positional), operation.name
            assert tuple(a.arg for a in overload.args.args) == positional_options, \
                operation.name
            assert [a.arg for a in overload.args.kwonlyargs] == [
                o for o in operation.option_names if o not in positional_options]
        for option in operation.options:
            if option.kind != "choice":
                continue
            admitted = set()
            for overload in overloads:
                (argument,) = [a for a in overload.args.args + overload.args.kwonlyargs
                               if a.arg == option.name]
                admitted |= _literal_strings(argument.annotation, aliases)
            assert admitted == set(option.choices), (operation.name, option.name)


def test_group_by_mapping_constructor_matches_its_stub():
    from cuda import coop

    assert coop.GroupByMapping(8, True, "thread") == coop.GroupByMapping(
        count=8, exhaustive=True, unit="thread")
    mapping = coop.this_warp().group_by(8).mapping
    assert mapping == coop.GroupByMapping(8, True, "thread")
    with pytest.raises(AttributeError):
        mapping.count = 4  # read-only, as the stub's properties say


# ---------------------------------------------------------------------------
# The stubs ship in the wheel


def test_stubs_and_py_typed_ship_in_the_wheel():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["scikit-build"]
    packaged = [ROOT / p for p in config["wheel"]["packages"]]
    excluded = config["wheel"].get("exclude", [])
    # The visualizer reads its script and style sheet from the installed package.
    visualize = [PACKAGE / "visualize" / name for name in ("__init__.pyi", "page.js", "page.css")]
    shipped = [PACKAGE / "py.typed", *STUBS, *visualize]
    for path in shipped:
        assert path.is_file(), path
        # wheel.packages copies every file of these directories that git
        # does not ignore and wheel.exclude does not name.
        assert any(path.is_relative_to(p) for p in packaged), path
        inside = path.relative_to(ROOT / "python").as_posix()
        assert not any(fnmatch.fnmatch(inside, pattern) for pattern in excluded), path
    if (ROOT / ".git").exists():
        ignored = subprocess.run(["git", "check-ignore", *map(str, shipped)], cwd=ROOT,
                                 capture_output=True, text=True)
        assert ignored.stdout == "", ignored.stdout
    # Every public module of the package has its stub beside it.
    for init in PACKAGE.rglob("__init__.py"):
        assert init.with_suffix(".pyi").is_file(), init
