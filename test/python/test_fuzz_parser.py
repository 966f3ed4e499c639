"""Garbage never crashes the compiler: a seeded mutation fuzzer.

Mutants of the lit test inputs run through every coop pass and pipeline, each
on its own and as the whole lowering. Those the C API registers run through
`_compiler.run_pipeline` in a child process; the rest (coop-lower-to-ptx, the
test-only printing passes) through coop-opt, many mutants to a process split
with --split-input-file. A crash, an abort or a hang is reported with the
input that caused it instead of killing pytest. Inputs that once crashed live
in fuzz_regressions/ and run every time.

The mutation tokens and the passes come from the dialect's ODS, the pass
registrations and the lit inputs, so a new op, enum value or pass is fuzzed
without editing this file.

Outside CI, a long run (see docs/development.md):

    python test/python/test_fuzz_parser.py --mutants 20000 --seed 1 --crashes /tmp/coop-crashes
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted(ROOT.glob("test/Dialect/**/*.mlir")) + sorted(ROOT.glob("test/Transforms/*.mlir")) + sorted(
    ROOT.glob("test/Conversion/**/*.mlir"))
REGRESSIONS = Path(__file__).parent / "fuzz_regressions"
CI_MUTANTS = 400
CI_SEED = 20261129
# Per mutant, over all pipelines; a lowering of a lit-sized input takes milliseconds.
HANG_SECONDS = 60
# A mutant may ask for a huge tile; the compiler must reject it, not take the machine.
MEMORY_LIMIT = 8 << 30
# Never in a mutant: nothing inserts it and no lit input has it.
SPLIT_MARKER = "// ==== coop fuzz case ===="

# Values that overflow, underflow or sit on a boundary the passes care about
# (warp width, items that pad, 32- and 64-bit limits).
EDGE_NUMBERS = [
    "0", "1", "-1", "2", "3", "7", "31", "32", "33", "64", "1023", "1024", "1025", "49152",
    "2147483647", "2147483648", "4294967295", "4294967296", "9223372036854775807",
    "-9223372036854775808", "99999999999999999999",
]
PUNCTUATION = ["<", ">", "[", "]", "(", ")", "{", "}", ",", ":", "=", "->", "\"", "\n", "?", "x", "// -----"]

# Values for each option type in the passes' ODS; a new type must be given values here.
OPTION_VALUES = {"unsigned": ["80", "90", "4294967295"]}


def _read(pattern: str) -> str:
    return "\n".join(p.read_text() for p in sorted(ROOT.glob(pattern)))


def ods_tokens() -> list[str]:
    """Every op, type, enum value and assembly keyword of the dialect."""
    td = _read("include/coop/Dialect/**/*.td")
    ops = ["coop." + m for m in re.findall(r'Coop_Op<"(\w+)"[,>]', td)]
    ops += ["coop.this_" + m for m in re.findall(r'Coop_ThisOp<"(\w+)"', td)]
    types = ["!coop." + m for m in re.findall(r'Coop_Type<"\w+", "(\w+)"', td)]
    enums = re.findall(r'I32EnumAttrCase<"(\w+)"', td)
    formats = "\n".join(re.findall(r"assemblyFormat = (\[\{.*?\}\]|\".*?\");", td, re.S))
    keywords = re.findall(r"`(\w+)`", formats)
    return sorted(set(ops + types + enums + keywords) | discardable_attributes())


@functools.cache
def discardable_attributes() -> frozenset[str]:
    """The attributes the passes read and write (coop.scratch_offset, ...)."""
    return frozenset(re.findall(r'"(coop\.\w+)"', _read("include/coop/**/*.h") + _read("lib/**/*.cpp")))


def _words(text: str) -> list[tuple[int, int]]:
    """Spans of the names, symbols, attributes and whole (nested) types in `text`."""
    spans = []
    for match in re.finditer(r"[%@#!^]?[A-Za-z_][\w.$]*", text):
        if spans and match.start() < spans[-1][1]:
            continue
        end = match.end()
        if text.startswith("<", end):
            depth = 0
            for end in range(end, min(len(text), end + 200)):
                depth += {"<": 1, ">": -1}.get(text[end], 0)
                if depth == 0:
                    end += 1
                    break
        spans.append((match.start(), end))
    return spans


def lit_tokens(chunks: list[str]) -> list[str]:
    return sorted({text[i:j] for text in chunks for i, j in _words(text)})


def _kind(token: str) -> str:
    """Tokens of one kind stand in the same places: SSA values, types, symbols, keywords."""
    if token[:1] in "%@#!^":
        return token[0]
    if token.lstrip("-").isdigit():
        return "number"
    if token.startswith(("array<", "dense<")):
        return "attribute"
    if token in discardable_attributes():
        return "attribute name"
    if "<" in token or re.fullmatch(r"[if]\d+|bf16|index", token):
        return "type"
    return "op" if "." in token else "word"


def seed_chunks() -> list[str]:
    """The lit inputs' split chunks without comments, which mutations would only
    waste; the valid ones thrice, as most chunks of the invalid-*.mlir files stop at the
    verifier and the others reach the passes."""
    chunks = []
    for seed in SEEDS:
        for chunk in seed.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
            chunks += ["\n".join(lines)] * (1 if "invalid" in seed.stem else 3)
    return chunks


def _ods_passes() -> list[tuple[str, list[tuple[str, str]]]]:
    passes = []
    for td in sorted(ROOT.glob("include/coop/**/Passes.td")):
        for match in re.finditer(r'def \w+ : Pass<"([\w-]+)".*?\n}', td.read_text(), re.S):
            options = re.findall(r'Option<"\w+", "([\w-]+)", "([\w:]+)"', match.group(0))
            passes.append((match.group(1), options))
    return passes


def pipelines() -> list[str]:
    """Verify only, each coop pass alone (each option value too), each
    registered pipeline and test-only pass, and the lowering with options."""
    result = ["", "canonicalize,cse", "inline,symbol-dce"]
    lowering = None  # a pass with an option set, in the whole lowering
    for name, options in _ods_passes():
        result.append(name)
        for option, kind in options:
            result += [f"{name}{{{option}={value}}}" for value in OPTION_VALUES[kind]]
            lowering = f"{name}{{{option}={OPTION_VALUES[kind][0]}}}"
    result.append("coop-plan-scratch,coop-insert-barriers")
    result.append(f"coop-plan-scratch,coop-insert-barriers,{lowering},canonicalize,cse")
    result += re.findall(r'PassPipelineRegistration<\w*>\(\s*"([\w-]+)"', _read("lib/Pipelines/*.cpp"))
    for test_pass in re.findall(r'getArgument\(\) const final \{ return "([\w-]+)"', _read("test/lib/*.cpp")):
        result += [test_pass, "coop-plan-scratch,coop-insert-barriers," + test_pass]
    return result


def mutate(text: str, rng: random.Random, tokens: dict[str, list[str]], chunks: list[str]) -> str:
    """One to four edits. Half the mutants only get edits that keep the text
    parseable (a token for one of its kind, a boundary number) so that the
    verifiers and passes see them; the others also get lines of other tests
    and edits that break the syntax for the parser."""
    everything = [t for kind in tokens.values() for t in kind]
    ops = ["replace"] * 6 + ["number"] * 3
    if rng.random() < 0.5:
        ops += ["line"] * 2 + ["delete", "insert", "duplicate", "char", "move"]
    for _ in range(rng.choice([1, 1, 1, 1, 2, 2, 3, 4])):
        if not text:
            text = rng.choice(everything)
            continue
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, 40))
        op = rng.choice(ops)
        if op == "replace":
            words = _words(text)
            if words:
                a, b = rng.choice(words)
                kind = _kind(text[a:b])
                # Another value of this input, mostly: one of another test is undefined here.
                ours = [text[start:end] for start, end in words if kind == "%" and text[start] == "%"]
                choices = ours if ours and rng.random() < 0.8 else tokens[kind]
                text = text[:a] + rng.choice(choices) + text[b:]
        elif op == "number":
            # Also a shape's size (the 4 of memref<4xf32>), not the digits of a name.
            numbers = list(re.finditer(r"(?<!\w)-?\d+", text))
            if numbers:
                n = rng.choice(numbers)
                text = text[:n.start()] + rng.choice(EDGE_NUMBERS) + text[n.end():]
        elif op == "line":
            lines = rng.choice(chunks).splitlines() or [""]
            k = text.rfind("\n", 0, i) + 1
            text = text[:k] + rng.choice(lines) + "\n" + text[k:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + rng.choice(everything) + text[i:]
        elif op == "duplicate":
            text = text[:i] + text[i:j] + text[i:]
        elif op == "char":
            text = text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]
        else:
            k = rng.randrange(len(text))
            text = text[:k] + text[i:j] + text[k:]
    return text


def make_cases(mutants: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    chunks = seed_chunks()
    tokens: dict[str, list[str]] = collections.defaultdict(list)
    for token in sorted(set(ods_tokens() + lit_tokens(chunks) + EDGE_NUMBERS)):
        tokens[_kind(token)].append(token)
    tokens["word"] += PUNCTUATION
    return [mutate(rng.choice(chunks), rng, tokens, chunks) for _ in range(mutants)]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


CHILD = textwrap.dedent(
    """
    import faulthandler, sys
    from pathlib import Path
    from cuda.coop import _compiler

    work, start, hang = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    pipelines = sys.argv[4:]
    cases = sorted(work.glob("case-*.mlir"))
    for index in range(start, len(cases)):
        text = cases[index].read_text()
        outcome = ""
        # A hang ends the child with this traceback; the parent names the input.
        faulthandler.dump_traceback_later(hang, exit=True)
        for pipeline in pipelines:
            (work / "current").write_text(f"{index}\\n{pipeline}")
            try:
                _compiler.run_pipeline(text, pipeline)
                outcome += "a"
            except _compiler.PipelineError as error:
                if "does not refer to a registered" in str(error):
                    outcome += "u"
                else:
                    outcome += "r" if error.diagnostics else "e"
        faulthandler.cancel_dump_traceback_later()
        print(index, outcome, flush=True)
    (work / "current").unlink(missing_ok=True)
    """
)


class Findings:
    """Accepted and rejected counts per pipeline, and the inputs that crashed."""

    def __init__(self) -> None:
        self.accepted: collections.Counter[str] = collections.Counter()
        self.rejected: collections.Counter[str] = collections.Counter()
        self.crashes: list[tuple[str, str, str]] = []  # (input, pipeline, what happened)

    def crash(self, text: str, pipeline: str, what: str) -> None:
        self.crashes.append((text, pipeline, what))

    def report(self, inputs: bool) -> str:
        """The counts, and each crash: its first line, and its input when `inputs`."""
        lines = [f"{'pipeline':<80} {'accepted':>8} {'rejected':>8}"]
        for pipeline in pipelines():
            if pipeline in self.accepted or pipeline in self.rejected:
                lines.append(f"{pipeline or '(verify only)':<80} {self.accepted[pipeline]:>8} "
                             f"{self.rejected[pipeline]:>8}")
        lines.append(f"crashes: {len(self.crashes)}")
        for text, pipeline, what in self.crashes:
            lines.append(f"--- {pipeline!r}: {what}" if inputs else f"--- {pipeline!r}: {what.splitlines()[0]}")
            if inputs:
                lines.append(text)
        return "\n".join(lines)


def run_capi(cases: list[str], pipelines_: list[str], findings: Findings, work: Path) -> set[str]:
    """Every case through every pipeline, in a child restarted after each crash.
    Returns the pipelines the C API does not register (for coop-opt)."""
    unregistered = set()
    for index, text in enumerate(cases):
        (work / f"case-{index:06d}.mlir").write_text(text)
    start = 0
    while start < len(cases):
        child = subprocess.run(
            [sys.executable, "-c", CHILD, str(work), str(start), str(HANG_SECONDS), *pipelines_],
            capture_output=True, text=True, preexec_fn=_limit_memory,
        )
        for line in child.stdout.splitlines():
            index, outcome = line.split()
            start = int(index) + 1
            for pipeline, result in zip(pipelines_, outcome):
                if result == "u":
                    unregistered.add(pipeline)
                elif result == "e":
                    findings.crash(cases[int(index)], pipeline, "rejected without a diagnostic")
                (findings.accepted if result == "a" else findings.rejected)[pipeline] += 1
        if child.returncode == 0:
            break
        current = (work / "current").read_text().split("\n", 1)
        what = "hang" if "Timeout (" in child.stderr else _exit(child.returncode)
        findings.crash(cases[int(current[0])], current[1], f"{what}: {_first_error(child.stderr)}\n{child.stderr[:4000]}")
        start = int(current[0]) + 1
    for pipeline in unregistered:
        # Mutants that do not parse never reach the pipeline's lookup.
        del findings.accepted[pipeline], findings.rejected[pipeline]
    return unregistered


def _coop_opt(coop_opt: str, text: str, pipeline: str, timeout: float) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(
            [coop_opt, f"--split-input-file={SPLIT_MARKER}", f"--output-split-marker={SPLIT_MARKER}",
             f"--pass-pipeline=builtin.module({pipeline})", "-"],
            input=text, capture_output=True, text=True, timeout=timeout, preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        return None


def _exit(returncode: int) -> str:
    return f"signal {-returncode}" if returncode < 0 else f"exit {returncode}"


def _first_error(stderr: str) -> str:
    """The assertion, fatal error or first stack frame of a crash's output."""
    lines = stderr.splitlines()
    for marker in ("Assertion", "LLVM ERROR", "Timeout (", " #0 "):
        for line in lines:
            if marker in line:
                return line.strip()
    return lines[0] if lines else ""


def _crashed(result: subprocess.CompletedProcess | None) -> str | None:
    if result is None:
        return "hang"
    if result.returncode not in (0, 1) or "PLEASE submit a bug report" in result.stderr:
        return f"{_exit(result.returncode)}: {_first_error(result.stderr)}\n{result.stderr[:4000]}"
    return None


def run_coop_opt(coop_opt: str, cases: list[str], pipelines_: list[str], findings: Findings,
                 batch: int = 500) -> None:
    """Batches of cases per coop-opt process; a batch that crashes is rerun case by case."""
    for pipeline in pipelines_:
        for first in range(0, len(cases), batch):
            group = cases[first:first + batch]
            result = _coop_opt(coop_opt, f"\n{SPLIT_MARKER}\n".join(group), pipeline, HANG_SECONDS * len(group))
            if _crashed(result) is None:
                accepted = sum("module" in out for out in result.stdout.split(SPLIT_MARKER))
                findings.accepted[pipeline] += accepted
                findings.rejected[pipeline] += len(group) - accepted
                continue
            for text in group:
                one = _coop_opt(coop_opt, text, pipeline, HANG_SECONDS)
                if what := _crashed(one):
                    findings.crash(text, pipeline, what)
                else:
                    (findings.accepted if one.returncode == 0 else findings.rejected)[pipeline] += 1


def c_api_pipelines(findings: Findings) -> tuple[list[str], list[str]]:
    """Splits the pipelines into those run_pipeline accepts and those only coop-opt registers."""
    all_pipelines = pipelines()
    with tempfile.TemporaryDirectory() as work:
        others = run_capi(["module {}"], all_pipelines, findings, Path(work))
    findings.accepted.clear()
    findings.rejected.clear()
    return [p for p in all_pipelines if p not in others], [p for p in all_pipelines if p in others]


def _find_coop_opt() -> str | None:
    """$COOP_OPT, else the one built in this tree (the pair of the copied
    _compiler module), else PATH's (pyenv puts an installed one first)."""
    built = ROOT / "build/dev/bin/coop-opt"
    return os.environ.get("COOP_OPT") or (str(built) if built.exists() else shutil.which("coop-opt"))


def _cases_for_ci() -> list[str]:
    return make_cases(CI_MUTANTS, CI_SEED) + [p.read_text() for p in sorted(REGRESSIONS.glob("*.mlir"))]


def _assert_no_crash(findings: Findings, total: int) -> None:
    assert not findings.crashes, (
        f"the compiler crashed; add the input to {REGRESSIONS.name}/ once fixed:\n{findings.report(inputs=True)}")
    assert sum(findings.accepted.values()) + sum(findings.rejected.values()) == total
    assert sum(findings.accepted.values()) > 0 and sum(findings.rejected.values()) > 0


def test_tokens_cover_the_dialect():
    tokens = set(ods_tokens())
    for expected in ["coop.exchange", "coop.this_cluster", "!coop.group", "scatter_to_striped_flagged",
                     "raking_memoize", "bit_xor", "prefix", "initial_value", "coop.scratch_offset"]:
        assert expected in tokens
    assert {"coop-plan-scratch", "coop-insert-barriers", "convert-coop-to-gpu{sm=90}", "coop-lower-to-nvvm",
            "coop-lower-to-ptx", "test-coop-print-scratch"} <= set(pipelines())


def test_mutated_inputs_never_crash_the_c_api(tmp_path):
    findings = Findings()
    ours, _ = c_api_pipelines(findings)
    cases = _cases_for_ci()
    run_capi(cases, ours, findings, tmp_path)
    _assert_no_crash(findings, len(ours) * len(cases))


def test_mutated_inputs_never_crash_coop_opt():
    import pytest

    coop_opt = _find_coop_opt()
    if coop_opt is None:
        pytest.skip("coop-opt is not on PATH")
    findings = Findings()
    _, others = c_api_pipelines(findings)
    cases = _cases_for_ci()
    run_coop_opt(coop_opt, cases, others, findings)
    _assert_no_crash(findings, len(others) * len(cases))


def main() -> int:
    parser = argparse.ArgumentParser(description="Long fuzz run of the coop compiler (see docs/development.md)")
    parser.add_argument("--mutants", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--crashes", type=Path, default=ROOT / "build/fuzz-crashes",
                        help="directory that receives each crashing input (default: %(default)s)")
    parser.add_argument("--no-coop-opt", action="store_true",
                        help="skip the pipelines that only coop-opt registers")
    args = parser.parse_args()

    started = time.monotonic()
    findings = Findings()
    ours, others = c_api_pipelines(findings)
    cases = make_cases(args.mutants, args.seed)
    with tempfile.TemporaryDirectory() as work:
        run_capi(cases, ours, findings, Path(work))
    print(f"C API: {len(ours)} pipelines, {time.monotonic() - started:.0f} s", flush=True)
    coop_opt = None if args.no_coop_opt else _find_coop_opt()
    if coop_opt:
        run_coop_opt(coop_opt, cases, others, findings)
    else:
        print(f"skipped (no coop-opt): {others}")
    if findings.crashes:
        args.crashes.mkdir(parents=True, exist_ok=True)
    for number, (text, pipeline, what) in enumerate(findings.crashes):
        (args.crashes / f"crash-{number:04d}.mlir").write_text(
            f"// pipeline: {pipeline}\n" + "".join(f"// {l}\n" for l in what.splitlines()[:40]) + text)
    print(findings.report(inputs=False))
    if findings.crashes:
        print(f"inputs in {args.crashes}")
    print(f"{args.mutants} mutants (seed {args.seed}), wall time {time.monotonic() - started:.0f} s")
    return 1 if findings.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
