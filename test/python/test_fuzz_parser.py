"""Garbage never crashes the compiler: a bounded, seeded mutation fuzzer.

Mutants of the lit test inputs run through the C API (verify only, the
canonicalizer, and the whole coop lowering) in a child process, so
a crash is reported with the input that caused it instead of killing pytest.
Inputs that once crashed live in fuzz_regressions/ and run every time.
"""

import random
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted(ROOT.glob("test/Dialect/**/*.mlir")) + sorted(ROOT.glob("test/Transforms/*.mlir")) + sorted(
    ROOT.glob("test/Conversion/**/*.mlir"))
REGRESSIONS = Path(__file__).parent / "fuzz_regressions"
MUTANTS = 400

TOKENS = [
    "coop.load", "coop.store", "coop.group_by", "coop.temp_storage", "coop.barrier",
    "coop.this_block", "coop.this_warp", "!coop.group<", "!coop.temp_storage",
    "threads_within_warp", "warps_within_block", "non_exhaustive", "algorithm =",
    "valid_items =", "oob_default =", "temp_storage =", "size_in_bytes =",
    "alignment =", "auto_sync", "sharing = exclusive", "into", "<", ">", "[", "]",
    "(", ")", "{", "}", ",", ":", "->", "%0", "%b", "%items", "0", "-1", "3",
    "4294967296", "99999999999999999999", "memref<0xi32>", "memref<?x?xi32>",
    "i1", "f16", "index", "array<i32: 0, 0, 0>", "array<i32: 2147483647, 2147483647, 2147483647>",
    "known_block_size", "gpu.known_block_size", "\"", "\n", "// -----",
]


def seed_chunks():
    chunks = []
    for seed in SEEDS:
        for chunk in seed.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("// RUN")]
            chunks.append("\n".join(lines))
    return chunks


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        if not text:
            text = rng.choice(TOKENS)
            continue
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, 40))
        op = rng.randrange(5)
        if op == 0:
            text = text[:i] + text[j:]
        elif op == 1:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2:
            text = text[:i] + text[i:j] + text[i:]
        elif op == 3:
            text = text[:i] + chr(rng.randrange(32, 127)) + text[i + 1 :]
        else:
            k = rng.randrange(len(text))
            text = text[:k] + text[i:j] + text[k:]
    return text


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from cuda.coop import _compiler

    work = Path(sys.argv[1])
    current = work / "current.mlir"
    accepted = rejected = 0
    for path in sorted(work.glob("case-*.mlir")):
        text = path.read_text()
        current.write_text(text)
        for pipeline in ("", "canonicalize,cse", "coop-lower-to-nvvm"):
            try:
                _compiler.run_pipeline(text, pipeline)
                accepted += 1
            except _compiler.PipelineError as error:
                assert error.diagnostics, "a rejection must carry diagnostics"
                rejected += 1
    current.unlink(missing_ok=True)
    print(accepted, rejected)
    """
)


def test_mutated_inputs_never_crash(tmp_path):
    rng = random.Random(20261129)
    chunks = seed_chunks()
    cases = [mutate(rng.choice(chunks), rng) for _ in range(MUTANTS)]
    cases += [p.read_text() for p in sorted(REGRESSIONS.glob("*.mlir"))]
    for index, text in enumerate(cases):
        (tmp_path / f"case-{index:04d}.mlir").write_text(text)

    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    crashed = tmp_path / "current.mlir"
    assert child.returncode == 0, (
        f"the compiler crashed (exit {child.returncode}) on this input; "
        f"add it to {REGRESSIONS.name}/ once fixed:\n"
        f"{crashed.read_text() if crashed.exists() else '<unknown>'}\n{child.stderr[-4000:]}"
    )
    accepted, rejected = map(int, child.stdout.split())
    assert accepted + rejected == 3 * len(cases)
    assert rejected > 0 and accepted > 0
