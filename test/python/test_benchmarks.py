"""The benchmark scripts keep working: their CPU halves run here (the GPU
halves run on the H200, see docs/performance.md)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import coop_kernels as ck

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_tile_copy_build_step(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tile_copy.py"), "build",
                             str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "tile_copy.cubin").stat().st_size > 0


def test_compile_time_kernels_compile():
    pytest.importorskip("numba_cuda_mlir")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import compile_time

    compile_time.REPEATS = 1
    for sites in (0, 3):
        assert compile_time.time_numba(sites, sites > 0) > 0
    # Every reduction and scan site of the collectives family, once.
    sites = len(compile_time.COLLECTIVE_SITES)
    assert compile_time.time_numba(sites, True, "collectives") > 0
    # And every sort of the sorting family.
    assert compile_time.time_numba(len(compile_time.SORTING_SITES), True, "sorting") > 0


def _compile_time_table(statements: str) -> list[str]:
    """The table rows (below its two header lines) that compile_time prints
    after `statements` (on `ct`), run in a process of their own: the modes
    wrap Numba's and our functions, or start processes."""
    pytest.importorskip("numba_cuda_mlir")
    code = f"import sys; sys.path.insert(0, sys.argv[1]); import compile_time as ct; {statements}"
    result = subprocess.run([sys.executable, "-c", code, str(ROOT / "benchmarks")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.splitlines()[2:]


def test_compile_time_phases_add_up():
    """--phases splits a compile into phases that sum to its total."""
    output = _compile_time_table("ct.REPEATS = 1; ct.PHASE_SITES = (1, 2); ct.time_phases('collectives')")
    rows = {line[:22].strip(): [float(x) for x in line[22:].split()] for line in output}
    assert set(rows) == {"Numba MLIR pipeline", "LLVM 7 codegen", "link to cubin",
                         "coop kernel plan", "coop site lowering", "rest", "total"}
    for column in (0, 1):
        parts = sum(values[column] for phase, values in rows.items() if phase != "total")
        # Each of the seven printed values is rounded to 0.1 ms.
        assert parts == pytest.approx(rows["total"][column], abs=7 * 0.05 + 1e-9)
        assert all(values[column] >= 0 for phase, values in rows.items() if phase != "rest")


def test_compile_time_first_kernel_latency():
    """--first times imports and first compiles in fresh processes."""
    output = _compile_time_table("ct.FIRST_RUNS = 1; ct.time_first('collectives')")
    rows = {line[:44].strip(): float(line[44:]) for line in output}
    assert list(rows) == ["import numba_cuda_mlir", "first kernel compile without cuda.coop",
                          "import cuda.coop.numba_mlir", "first kernel compile with one coop call",
                          "first coop kernel after import, added"]
    assert all(ms > 0 for step, ms in rows.items() if step != "first coop kernel after import, added")


def test_compile_time_warm_starts_load_every_kernel():
    """--warm runs each program cold (all compiled) and warm (all loaded)."""
    output = _compile_time_table("ct.FIRST_RUNS = 1; ct.WARM_KERNELS = 2; ct.time_warm('tiles')")
    rows = [(line[:38].strip(), line[38:].split()) for line in output]
    assert [(program, values[0]) for program, values in rows] == [
        (program, start) for program in ("plain kernels, Numba-CUDA-MLIR alone",
                                         "plain kernels, backend registered",
                                         "one coop call site each")
        for start in ("cold", "warm")]
    assert [int(values[-1]) for _, values in rows] == [0, 2] * 3


def test_compile_time_cub_collectives_compile():
    """The CUB side of the collectives family is valid CUDA C++ for NVRTC."""
    pytest.importorskip("cuda.bindings.nvrtc")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import compile_time

    include = compile_time.cub_include()
    if include is None:
        pytest.skip("no CUB headers (CUDA toolkit or CUB_INCLUDE)")
    compile_time.REPEATS = 1
    assert compile_time.time_nvrtc(len(compile_time.COLLECTIVE_SITES), include,
                                   "collectives") > 0


def test_numba_tile_copy_kernels_compile_without_local_memory():
    pytest.importorskip("numba_cuda_mlir")
    import numba_compile as nc
    from numba_cuda_mlir import types
    from numba_cuda_mlir.numba_cuda.types import literal

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numba_tile_copy as bench

    array = types.float64[::1]
    for algorithm, group, width in (("transpose", None, None),
                                    ("warp_transpose_timesliced", None, None),
                                    ("transpose", "coop.this_warp().group_by(8)", 8),
                                    ("vectorize", "coop.this_warp()", 32)):
        source = bench.BLOCK_SOURCE.format(algorithm=algorithm) if width is None else \
            bench.WARP_SOURCE.format(algorithm=algorithm, group=group, width=width)
        kernel = bench._kernel(source, f"<{algorithm} {width}>")
        cres = nc.compile_for_launch(kernel, [array, array, types.int64, literal(4)], (128,))
        assert not nc.local_memory(nc.ptxas_report(cres.metadata["ptx"])), algorithm


def test_guarded_read_only_sum_takes_the_registers_of_a_writable_one(tmp_path):
    """A read-only source's guarded items (every tile of sum_partial is ragged) are one
    predicated ld.global.nc each, at an immediate from the thread's first item: the kernel
    takes the writable source's registers (before: 27 against 17 at 256x4, where NVVM
    rematerialized each item's address in its branch; 0.90 of CUB on the H200, now 1.03)."""
    pytest.importorskip("numba_cuda_mlir")
    bench = _numba_reduce_scan()
    configs = [bench.Config("tile", f"sum_partial.{algorithm}", "int32", 256, 4, 0)
               for algorithm in ("warp_reductions", "raking")]
    writable = {c.key: f["regs"] for c, _, _, f in bench.compile_only(configs, tmp_path)}
    read_only = {c.key: f["regs"] for c, _, _, f in bench.compile_only(
        configs, tmp_path, build=bench.Build(read_only=True))}
    for c in configs:
        assert read_only[c.key] <= writable[c.key], (c.key, read_only[c.key], writable[c.key])
        ptx = (tmp_path / ("coop_" + "_".join(map(str, c.key)) + ".ptx")).read_text()
        assert len(re.findall(r"@p ld\.global\.nc\.b32 %r\d+, \[%rd\d+\+\d+\]", ptx)) == 3, c.key


def _numba_exchange():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numba_exchange

    return numba_exchange


def test_numba_exchange_configurations_are_the_references():
    """The script's table of configurations is cub_exchange.cu's add_all."""
    bench = _numba_exchange()
    source = (ROOT / "benchmarks" / "reference" / "cub_exchange.cu").read_text()
    configs = bench.configurations()
    assert len(configs) == len(set(configs)) == 164
    for mode in bench.MODES:
        assert f'"{mode}"' in source
    for block, ipt in bench.BLOCK_CONFIGS:
        assert f"add<M, T, {block}, {ipt}>(v);" in source
    for width, block, ipt in bench.WARP_CONFIGS:
        assert f"add<M<{width}>, T, {block}, {ipt}>(v);" in source
    assert [c.key for c in bench.select(configs, ["loop", "all", "float64", "256", "8"])] == [
        ("loop", m, "f64", 256, 8, w) for m, w in
        [(m, 0) for m in bench.BLOCK_MODES] + [(m, w) for m in bench.WARP_MODES for w in (32, 8)]]


@pytest.mark.parametrize("block,ipt,width", [(64, 3, 0), (96, 2, 32), (64, 3, 8)])
def test_numba_exchange_model_matches_the_collective_models(block, ipt, width):
    """Each forward and inverse step of the benchmark's model is the NumPy model the GPU tests
    check coop.exchange/coop.shuffle against, on the reference's ranks and distances."""
    import collective_models as cm

    bench = _numba_exchange()
    rng = np.random.default_rng(3)
    size = width or block
    t, i = np.arange(size)[:, None], np.arange(ipt)[None, :]
    modes = bench.WARP_MODES if width else bench.BLOCK_MODES + bench.SCALAR_MODES
    for mode in modes:
        _, forward, inverse = bench.model_gathers(mode, block, ipt, width)
        r = rng.integers(0, 1000, (block, ipt)).astype(np.int32)
        out_f, out_i = r.reshape(-1)[forward].reshape(block, ipt), \
            r.reshape(-1)[inverse].reshape(block, ipt)
        last = size * ipt - 1
        for g in range(block // size):
            v = r[g * size:(g + 1) * size]
            got_f, got_i = out_f[g * size:(g + 1) * size], out_i[g * size:(g + 1) * size]
            if mode in ("striped", "striped_timesliced", "warp_exchange_striped"):
                want_f = cm.exchange_model("striped_to_blocked", v, None, None)[0]
                want_i = cm.exchange_model("blocked_to_striped", v, None, None)[0]
            elif mode == "warp_striped":
                want_f = cm.exchange_model("warp_striped_to_blocked", v, None, None)[0]
                want_i = cm.exchange_model("blocked_to_warp_striped", v, None, None)[0]
            elif mode == "scatter":
                want_f = cm.exchange_model("scatter_to_blocked", v, last - (i * size + t), None)[0]
                want_i = cm.exchange_model("scatter_to_striped", v, last - (t * ipt + i), None)[0]
            elif mode == "warp_exchange_scatter":
                want_f = want_i = cm.exchange_model("scatter_to_striped", v,
                                                    last - (i * size + t), None)[0]
            elif mode == "shuffle_up_down":
                want_f = cm.shuffle_model("up", v, 1, v[0, 0])
                want_i = cm.shuffle_model("down", v, 1, v[-1, -1])
            else:
                kind, back = ("offset", -1) if mode == "shuffle_offset" else ("rotate", block - 1)
                want_f = np.stack([cm.shuffle_model(kind, v[:, k], 1, None)
                                   for k in range(ipt)], 1)
                want_i = np.stack([cm.shuffle_model(kind, v[:, k], back, None)
                                   for k in range(ipt)], 1)
            np.testing.assert_array_equal(got_f, want_f, err_msg=f"{mode} forward")
            np.testing.assert_array_equal(got_i, want_i, err_msg=f"{mode} inverse")


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_numba_exchange_compile_only(tmp_path):
    """The script's --compile-only path: every mode at block 128, ipt 4 (block, warps of 32 and
    8), tile and loop kernels, compiles for sm_90 without local memory."""
    pytest.importorskip("numba_cuda_mlir")
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "numba_exchange.py"),
                             str(tmp_path), "all", "all", "int32", "128", "4", "--compile-only"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = [line.split() for line in result.stdout.splitlines()
            if line.startswith(("tile ", "loop "))]
    bench = _numba_exchange()
    assert sorted(tuple(r[:6]) for r in rows) == sorted(
        tuple(map(str, c.key)) for c in bench.select(bench.configurations(),
                                                     ["all", "all", "int32", "128", "4"]))
    assert all(r[-1] == "0" for r in rows), result.stdout
    assert "local memory: none in 22 kernels" in result.stdout
    assert len(list(tmp_path.glob("coop_*.ptx"))) == len(rows) == 22


def test_numba_exchange_kernels_compile_in_process(tmp_path):
    """f64 at block 256, ipt 4, in process: the scatter and scalar-shuffle kernels (whose
    ranks and results are payloads with a dtype) and the facts the table reports."""
    pytest.importorskip("numba_cuda_mlir")
    bench = _numba_exchange()
    configs = [c for c in bench.select(bench.configurations(), ["all", "all", "f64", "256", "4"])
               if c.mode in ("scatter", "shuffle_rotate")]
    for c, _, _, facts in bench.compile_only(configs, tmp_path):
        assert facts["local"] in (0, None) and not facts["depot"], c
        assert facts["smem"] > 0 and facts["bar"] > 0, c
        if c.kernel == "tile":
            assert facts["ptx_bar"] == facts["mlir_bar"], c


def test_numba_exchange_reads_the_reference_output():
    """cub_exchange's lines (its printf formats) and demangled kernel names are read for every
    configuration, and the table's speed ratio is coop/CUB for GB/s, CUB/coop for ns/op."""
    bench = _numba_exchange()
    configs = bench.configurations()
    lines = ["# cub_exchange: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192",
             "%-28s %8.1f GB/s" % ("cudaMemcpy D2D (anchor)", 4100.0)]
    for n, c in enumerate(configs):
        head = "%-4s %-22s %-5s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f temp=%6d %s" % (0.25, 4000.0 + n, 2048, "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (0.5, 0.01, 10.0 + n, 512,
                                                                   "FAIL" if n == 3 else "OK"))
        lines.append(head + tail)
    cub = bench.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 13.0, "ms": 0.5, "temp": 512, "ok": False}
    assert cub[configs[0].key]["value"] == 4000.0

    for pretty, key in [
        ("void tile_kernel<striped, int, (int)128, (int)4>(const T2 *, T2 *)",
         ("tile", "striped", "int32", 128, 4, 0)),
        ("void loop_kernel<warp_exchange_scatter<(int)8>, double, (int)256, (int)8>"
         "(const T2 *, T2 *, int)", ("loop", "warp_exchange_scatter", "f64", 256, 8, 8)),
        ("void loop_kernel<shuffle_rotate, double, 256, 1>(const T2 *, T2 *, int)",
         ("loop", "shuffle_rotate", "f64", 256, 1, 0))]:
        assert bench.cub_key(pretty) == key

    facts = {"smem": 2048, "bar": 2, "wsync": 0, "local": 0, "depot": False}
    tile, loop = configs[2], configs[3]
    summary = bench.print_table([(tile, 4002.0 * 0.9, True, facts), (loop, 13.0 / 2, True, facts)],
                                cub, {})
    (r1, _), (r2, _) = summary["ratios"]["tile"][0], summary["ratios"]["loop"][0]
    assert abs(r1 - 0.9) < 1e-9 and abs(r2 - 2.0) < 1e-9
    assert summary["bad"] == [loop] and summary["local"] == []


# ---- numba_reduce_scan.py (cuda.coop reduce/sum and scans against cub_reduce_scan.cu) ----------

REDUCE_SCAN_CU = ROOT / "benchmarks" / "reference" / "cub_reduce_scan.cu"
REDUCE_SCAN_BINARY = ROOT / "build" / "reference" / "cub_reduce_scan"


def _numba_reduce_scan():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numba_reduce_scan

    return numba_reduce_scan


def test_numba_reduce_scan_configurations_are_the_references():
    """The script's configurations are cub_reduce_scan.cu's add_all, in its order (read from the
    source; and from `cub_reduce_scan list` when a built reference is at hand)."""
    bench = _numba_reduce_scan()
    configs = bench.configurations()
    keys = [c.key for c in configs]
    assert len(keys) == len(set(keys)) == 1284
    assert keys == bench.reference_table(REDUCE_SCAN_CU.read_text())
    for mode in bench.MODES:
        assert f'"{mode}"' in REDUCE_SCAN_CU.read_text()
    if REDUCE_SCAN_BINARY.exists():  # (`list` needs no GPU)
        listed = subprocess.run([str(REDUCE_SCAN_BINARY), "list"], capture_output=True, text=True,
                                check=True).stdout.split()
        assert [tuple(listed[j:j + 6]) for j in range(0, len(listed), 6)] == \
            [tuple(map(str, k)) for k in keys], f"{REDUCE_SCAN_BINARY} is stale: rebuild it"
    # cub_reduce_scan's filters: f32/f64 alias float32/float64, "all" matches anything.
    chosen = bench.select(configs, ["loop", "all", "f64", "1024", "4"])
    assert [c.key for c in chosen] == [("loop", m, "float64", 1024, 4, w)
                                       for m, _, widths in bench.MODE_TABLE for w in widths]
    assert [w for m, _, widths in bench.MODE_TABLE if m.startswith("warp_") for w in widths] == \
        [32, 16, 8, 32, 16, 32, 16]
    assert len(bench.select(configs, ["all", "all", "int32"])) == 330
    # Commas list alternatives (the reference's match() takes them too).
    either = ["loop", "exclusive_sum.raking,sum.raking", "int32", "256,512", "8"]
    assert {c.key[1:5] for c in bench.select(configs, either)} == {
        (m, "int32", b, 8) for m in ("exclusive_sum.raking", "sum.raking") for b in (256, 512)}
    assert "match_one(filter.substr(start, comma - start), value)" in REDUCE_SCAN_CU.read_text()
    if REDUCE_SCAN_BINARY.exists():
        listed = subprocess.run([str(REDUCE_SCAN_BINARY), "list", *either], capture_output=True,
                                text=True, check=True).stdout.split()
        assert {tuple(listed[j:j + 6]) for j in range(0, len(listed), 6)} == \
            {tuple(map(str, c.key)) for c in bench.select(configs, either)}
    assert {c.key for c in configs if c.family == "prefix"} == {
        c.key for c in configs if c.mode.startswith("exclusive_sum_prefix.")}


# A direct port of cub_reduce_scan.cu's host models (loop_pos, host_reduce, host_scan and the
# verify_* loops), item by item, to check the benchmark's vectorized NumPy model against.

def _cub_input_value(j):
    h = (j * 2654435761) & 0xFFFFFFFF
    h ^= h >> 15
    h = (h * 2246822519) & 0xFFFFFFFF
    h ^= h >> 13
    return h % 15 - 7


def _cub_loop_pos(p, block, ipt, width):
    if width == 0:
        return (p % ipt) * block + p // ipt
    g, q = divmod(p, width * ipt)
    return g * width * ipt + (q % ipt) * width + q // ipt


def _cub_wrap(x):
    if isinstance(x, np.integer) and x.itemsize == 8:
        return (x ^ (x >> type(x)(32))) & type(x)(255)
    if isinstance(x, np.integer):
        return x & type(x)(255)
    return x - np.floor(x * type(x)(0.00390625)) * type(x)(256)


def _cub_reduce(kind, xs):
    acc = xs[0]
    for x in xs[1:]:
        acc = max(acc, x) if kind == "max" else acc + x
    return acc


def _cub_scan(kind, xs, prefix):
    dtype = type(xs[0])
    lowest = np.iinfo(dtype).min if np.issubdtype(dtype, np.integer) else np.finfo(dtype).min
    run = dtype(lowest) if kind == "exclusive_max" else prefix
    out, total = [], dtype(0)
    for x in xs:
        total = dtype(total + x)
        if kind == "inclusive_sum":
            run = dtype(run + x)
            out.append(run)
        else:
            out.append(run)
            run = dtype(max(run, x)) if kind == "exclusive_max" else dtype(run + x)
    return out, total


def _cub_model(c, memory, k, reps):
    """The reference's expectation for block (tile) k whose input is `memory` (its tile)."""
    groups, gt, tile = c.groups, c.group_tile, c.tile
    dtype = type(memory[0])
    valid = tile - (k * 7919) % tile if c.partial else gt
    if c.kernel == "tile" and c.family == "reduce":
        return [_cub_reduce(c.kind, list(memory[g * gt:g * gt + valid])) for g in range(groups)]
    if c.kernel == "tile":
        out = []
        for g in range(groups):
            out += _cub_scan(c.kind, list(memory[g * gt:(g + 1) * gt]), dtype(0))[0]
        return out
    logical = [memory[_cub_loop_pos(p, c.block, c.ipt, c.width)] for p in range(tile)]
    for g in range(groups):
        x = logical[g * gt:(g + 1) * gt]
        total = dtype(0)
        for _ in range(reps):
            if c.family == "reduce":
                aggregate = _cub_reduce(c.kind, x[:valid])
                x[:c.ipt] = [_cub_wrap(dtype(v + aggregate)) for v in x[:c.ipt]]
            else:
                o, s = _cub_scan(c.kind, x, total if c.family == "prefix" else dtype(0))
                total = _cub_wrap(dtype(total + s))
                x = [_cub_wrap(v) for v in o]
        logical[g * gt:(g + 1) * gt] = x
    out = [None] * tile
    for p in range(tile):
        out[_cub_loop_pos(p, c.block, c.ipt, c.width)] = logical[p]
    return out


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_numba_reduce_scan_model_is_the_references(dtype):
    """The benchmark's NumPy model (input, tile and loop kernels of every mode, partial tiles,
    the prefix modes' running total) computes what cub_reduce_scan.cu's host model expects,
    and its scans and reductions are the collective models the GPU tests check coop against."""
    import collective_models as cm

    bench = _numba_reduce_scan()
    j = np.arange(3000)
    assert np.array_equal(bench.input_values(3000), [_cub_input_value(int(i)) for i in j])
    values = bench.input_values(1 << 14).astype(dtype)
    for mode in bench.MODES:
        width = 16 if mode.startswith("warp_") else 0
        for kernel in ("tile", "loop"):
            c = bench.Config(kernel, mode, dtype, 64, 3, width)
            k = np.array([0, 1, 5, 40])
            tiles = values[:50 * c.tile].reshape(50, c.tile)[k]
            reps = 3
            if kernel == "loop":
                got = bench.model_loop(c, tiles.copy(), k, reps)
            elif c.family == "prefix":
                run = values[:4 * c.tile]
                got = bench.model_prefix_tile(c, run).reshape(4, c.tile)
                # the reference: tile after tile, each scanned from the running total
                total, want = np.float64(0), []
                for t in range(4):
                    o, s = _cub_scan("exclusive_sum_prefix", list(run[t * c.tile:(t + 1) * c.tile]),
                                     run.dtype.type(total))
                    want.append(o)
                    total = run.dtype.type(total + s)
                assert np.array_equal(got, np.array(want)), (kernel, mode)
                continue
            else:
                got = bench.model_tile(c, tiles, k)
            for s, block in enumerate(k):
                want = _cub_model(c, list(tiles[s]), int(block), reps)
                assert np.array_equal(got[s], np.array(want, dtype=dtype)), (kernel, mode, block)
            if kernel == "tile":
                # the collective models (blocked tiles, one group each)
                x = tiles.reshape(len(k), c.groups, c.group_tile)
                for s in range(len(k)):
                    for g in range(c.groups):
                        items = x[s, g].reshape(-1, c.ipt)
                        if c.family == "reduce":
                            valid = bench.valid_items(k[s], c.tile) if c.partial else None
                            assert got[s, g] == cm.reduce_model(c.kind, items, valid)
                        else:
                            op = "max" if c.kind == "exclusive_max" else "sum"
                            initial = (bench.lowest(x.dtype) if op == "max" else
                                       None if c.kind == "inclusive_sum" else x.dtype.type(0))
                            want = cm.scan_model(op, items, c.kind == "inclusive_sum", initial)[0]
                            span = slice(g * c.group_tile, (g + 1) * c.group_tile)
                            assert np.array_equal(got[s, span], want.reshape(-1)), (mode, g)


def test_numba_reduce_scan_kernel_sources_follow_the_reference():
    """The generated kernels: transpose loads (per logical warp for warp modes), broadcast=False
    reductions written by rank 0, valid(k) for partial tiles, the prefix modes' StatefulFunction
    carrying the running total, the feedback wrap in the item type, striped loop loads."""
    bench = _numba_reduce_scan()
    src = bench.kernel_source(bench.Config("tile", "sum_partial.raking_commutative_only",
                                           "int32", 256, 4, 0))
    assert 'coop.load(group, src, a, offset=base, algorithm="transpose", valid_items=valid)' in src
    assert ("valid = np.int32(1024 - (np.uint64(k) * np.uint64(7919)) % np.uint64(1024))"
            in src)
    assert ('coop.sum(group, a, valid_items=valid, broadcast=False, '
            'algorithm="raking_commutative_only")') in src
    assert "if tid == 0:\n        dst[k] = r" in src
    src = bench.kernel_source(bench.Config("tile", "warp_sum", "int64", 256, 4, 8))
    assert "group = coop.this_warp().group_by(8)" in src and "algorithm=" not in \
        src.split("coop.sum")[1]
    assert "if tid % 8 == 0:\n        dst[k * 32 + tid // 8] = r" in src
    src = bench.kernel_source(bench.Config("loop", "max.warp_reductions", "float32", 128, 1, 0))
    assert 'coop.reduce(group, a, "max", broadcast=False, algorithm="warp_reductions")' in src
    assert 'algorithm="striped"' in src and "x - np.floor(x * Q) * K" in src
    src = bench.kernel_source(bench.Config("tile", "exclusive_sum_prefix.warp_scans", "int32",
                                           256, 4, 0))
    assert 'o = coop.exclusive_sum(group, a, prefix_op=prefix, algorithm="warp_scans")' in src
    assert "prefix = coop.StatefulFunction(running_total, state)" in src
    assert "state[0] = T(old + aggregate)" in src
    assert "range(b * tiles // blocks, (b + 1) * tiles // blocks)" in src
    src = bench.kernel_source(bench.Config("loop", "exclusive_sum_prefix.raking", "int64",
                                           256, 4, 0))
    # 8-byte integers fold their high word into the wrap, as the reference's wrap256
    assert "x = T(o[i])\n            a[i] = T((x ^ (x >> 32)) & 255)" in src
    assert "x = T(old + aggregate)\n    state[0] = T((x ^ (x >> 32)) & 255)" in src
    src = bench.kernel_source(bench.Config("loop", "exclusive_sum_prefix.raking", "int32",
                                           256, 4, 0))
    assert "a[i] = T((o[i]) & 255)" in src
    assert "state[0] = T((old + aggregate) & 255)" in src
    src = bench.kernel_source(bench.Config("loop", "exclusive_max.raking_memoize", "int32",
                                           128, 1, 0))
    assert 'coop.exclusive_scan(group, a, "max", initial_value=LOWEST, ' \
        'algorithm="raking_memoize")' in src


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_numba_reduce_scan_auto_sync_moves_the_loop_barrier():
    """--auto-sync: a loop kernel's block scan takes an explicit TempStorage(auto_sync=True),
    whose reuse barrier follows the call (the reference's __syncthreads) instead of standing
    at the loop head before the scan's first write; logical warps are left alone."""
    pytest.importorskip("numba_cuda_mlir")
    import numba_compile as nc

    bench = _numba_reduce_scan()
    c = bench.Config("loop", "inclusive_sum.warp_scans", "float64", 1024, 4, 0)
    src = bench.kernel_source(c, auto_sync=True)
    assert "    temp = coop.TempStorage(auto_sync=True)\n" in src
    assert ('o = coop.inclusive_sum(group, a, algorithm="warp_scans", temp_storage=temp)'
            in src)
    warp = bench.Config("loop", "warp_sum", "int32", 256, 4, 8)
    assert bench.kernel_source(warp, auto_sync=True) == bench.kernel_source(warp)

    def barrier_lines(auto_sync):
        cres = nc.compile_for_launch(bench.make_kernel(c, auto_sync=auto_sync),
                                     bench.argtypes(c), (c.block,))
        body = cres.metadata["ptx"].split(".entry")[1].splitlines()
        loop = next(i for i, line in enumerate(body) if line.startswith("$L__BB"))
        scan = next(i for i, line in enumerate(body) if "shfl.sync.up" in line)
        return [i for i, line in enumerate(body) if "bar.sync" in line], loop, scan

    planned, loop, scan = barrier_lines(False)
    assert len(planned) == 2 and loop < planned[0] < scan
    trailing, _, scan = barrier_lines(True)
    assert len(trailing) == 2 and scan < trailing[0] < trailing[1]


@pytest.mark.parametrize("script, key, collective, once, unrolled", [
    ("numba_reduce_scan", ("loop", "warp_sum", "int32", 128, 1, 32),
     r"redux\.sync\.add\.s32", 1, 5),
    ("numba_exchange", ("loop", "striped", "int32", 128, 4, 0),
     r"\b(?:bar|barrier)\.sync\b", 2, 10)])
def test_loops_repeat_as_the_reference(script, key, collective, once, unrolled):
    """Both scripts' loop kernels repeat with an int32 while loop, which compiles as the
    reference's `#pragma unroll 1` int loop (one collective, or one exchange pair, an
    iteration, nothing unrolled); --range-loop gives `for _ in range(reps)`, which NVVM
    unrolls by four (and a remainder)."""
    pytest.importorskip("numba_cuda_mlir")
    import numba_compile as nc

    bench = {"numba_reduce_scan": _numba_reduce_scan, "numba_exchange": _numba_exchange}[script]()
    c = bench.Config(*key)
    src = bench.kernel_source(c)
    assert "    rep = np.int32(0)\n    while rep < reps:\n" in src
    assert src.endswith("        rep = np.int32(rep + 1)\n"
                        '    coop.store(group, dst, a, offset=base, algorithm="striped")\n')
    assert "    for _ in range(reps):\n" in bench.kernel_source(c, range_loop=True)

    def count(range_loop):
        cres = nc.compile_for_launch(bench.make_kernel(c, range_loop=range_loop),
                                     bench.argtypes(c), (c.block,))
        return len(re.findall(collective, cres.metadata["ptx"]))

    assert count(False) == once
    assert count(True) == unrolled


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
def test_numba_reduce_scan_compile_only(tmp_path):
    """The script's --compile-only path: every mode at block 256, ipt 4, int32 (block, warps of
    32, 16 and 8), tile and loop kernels, compiles for sm_90 without local memory."""
    pytest.importorskip("numba_cuda_mlir")
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "numba_reduce_scan.py"),
                             str(tmp_path), "all", "all", "int32", "256", "4", "--compile-only"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = [line.split() for line in result.stdout.splitlines()
            if line.startswith(("tile ", "loop "))]
    bench = _numba_reduce_scan()
    expected = bench.select(bench.configurations(), ["all", "all", "int32", "256", "4"])
    assert sorted(tuple(r[:6]) for r in rows) == sorted(tuple(map(str, c.key)) for c in expected)
    # the local column is ours/CUB's (CUB's is unknown without its binary)
    assert all(r[-1] == "0/?" for r in rows), result.stdout
    # The prefix modes scan with a StatefulFunction, as CUB's with its callback.
    for c in expected:
        source = bench.kernel_source(c)
        assert ("prefix_op=prefix" in source) == (c.family == "prefix"), c.key
    assert f"local memory: none in {len(expected)} kernels" in result.stdout
    assert len(list(tmp_path.glob("coop_*.ptx"))) == len(rows) == len(expected) == 52
    # Files ptxas and cuobjdump take as they are (docs/development.md's SASS recipe).
    assert not any("\0" in path.read_text() for path in tmp_path.glob("coop_*.ptx"))


def test_numba_reduce_scan_kernels_compile_in_process(tmp_path):
    """Kernels of each family in process, in the 8-byte and float types: the facts the table
    reports (CUB's per-iteration barriers where the reuse barrier is the only extra one; no
    scratch and no block barrier for warps), and float32 feedback that stays in float32."""
    pytest.importorskip("numba_cuda_mlir")
    bench = _numba_reduce_scan()
    keys = [("loop", "sum.raking", "float32", 256, 4, 0),
            ("tile", "sum_partial.warp_reductions", "int64", 128, 1, 0),
            ("loop", "warp_sum", "float64", 256, 4, 8),
            ("tile", "warp_exclusive_sum", "int64", 256, 4, 16),
            ("loop", "exclusive_max.warp_scans", "float32", 256, 4, 0),
            ("tile", "exclusive_sum_prefix.raking_memoize", "float64", 256, 4, 0),
            ("loop", "exclusive_sum_prefix.warp_scans", "float32", 256, 8, 0)]
    rows = bench.compile_only([bench.Config(*k) for k in keys], tmp_path)
    facts = {c.key: f for c, _, _, f in rows}
    for c, _, _, f in rows:
        assert f["local"] in (0, None) and not f["depot"], c
        if not c.looped:
            assert (f["ptx_bar"], f["ptx_wsync"]) == (f["mlir_bar"], f["mlir_wsync"]), c
    assert facts[keys[0]]["bar"] == 2           # raking: 1, and the loop's reuse barrier
    assert facts[keys[2]]["bar"] == facts[keys[2]]["smem"] == 0   # logical-warp shuffles only
    assert facts[keys[3]]["bar"] == 0 and facts[keys[3]]["smem"] > 0  # the warp transposes
    assert facts[keys[4]]["bar"] == 2           # warp_scans: 1, and the reuse barrier
    assert facts[keys[5]]["bar"] > 0 and facts[keys[5]]["smem"] >= 256 * 4 * 8
    for key in (keys[0], keys[4], keys[6]):
        ptx = (tmp_path / ("coop_" + "_".join(map(str, key)) + ".ptx")).read_text()
        assert "cvt.f64.f32" not in ptx and "cvt.rmi.f32.f32" in ptx, key


def test_numba_reduce_scan_reads_the_reference_output(capsys):
    """cub_reduce_scan's lines (its printf formats) and demangled kernel names (cu++filt's and
    c++filt's) are read for every configuration, and the table's speed ratio is coop/CUB for
    GB/s, CUB/coop for ns/op."""
    bench = _numba_reduce_scan()
    configs = bench.configurations()
    lines = ["# cub_reduce_scan: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192",
             "%-28s %8.1f GB/s" % ("cudaMemcpy D2D (anchor)", 4100.0)]
    for n, c in enumerate(configs):
        head = "%-4s %-36s %-7s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f %%memcpy=%6.1f temp=%6d %s" % (0.25, 4000.0 + n, 97.5, 44,
                                                                   "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (0.5, 0.01, 10.0 + n, 16,
                                                                   "FAIL" if n == 3 else "OK"))
        if c.kernel == "tile" and c.family == "prefix":
            tail += " grid=%d" % (500 + n)  # the persistent grid, its resident blocks
        lines.append(head + tail)
    cub = bench.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 13.0, "ms": 0.5, "temp": 16, "ok": False,
                                   "grid": None}
    assert cub[configs[0].key]["value"] == 4000.0
    n, prefix = next((n, c) for n, c in enumerate(configs)
                     if c.kernel == "tile" and c.family == "prefix")
    assert cub[prefix.key]["grid"] == 500 + n

    for pretty, key in [
        ("void reduce_tile_kernel<sum_warp_reductions, int, (int)128, (int)1>(const T2 *, T2 *)",
         ("tile", "sum.warp_reductions", "int32", 128, 1, 0)),
        ("void reduce_loop_kernel<warp_sum<(int)16>, long, (int)1024, (int)4>"
         "(const T2 *, T2 *, int)", ("loop", "warp_sum", "int64", 1024, 4, 16)),
        ("void prefix_tile_kernel<exclusive_sum_prefix_raking_memoize, float, 256, 8>"
         "(float const*, float*, long)",
         ("tile", "exclusive_sum_prefix.raking_memoize", "float32", 256, 8, 0)),
        ("void scan_loop_kernel<warp_exclusive_sum<32>, double, 128, 1>(double const*, "
         "double*, int)", ("loop", "warp_exclusive_sum", "float64", 128, 1, 32)),
        ("void reduce_tile_kernel<sum_partial_raking_commutative_only, int, 256, 4>"
         "(int const*, int*)",
         ("tile", "sum_partial.raking_commutative_only", "int32", 256, 4, 0))]:
        assert bench.cub_key(pretty) == key

    facts = {"smem": 1152, "bar": 2, "wsync": 0, "local": 0, "depot": False}
    tile, loop = configs[2], configs[3]
    summary = bench.print_table([(tile, 4002.0 * 0.9, True, facts), (loop, 13.0 / 2, True, facts)],
                                cub, {})
    (r1, _), (r2, _) = summary["ratios"]["tile"][0], summary["ratios"]["loop"][0]
    assert abs(r1 - 0.9) < 1e-9 and abs(r2 - 2.0) < 1e-9
    assert summary["bad"] == [loop] and summary["local"] == []

    capsys.readouterr()
    bench.grid_summary([(prefix, 3700.0, True, dict(facts, grid=660)), (tile, 4000.0, True, facts)],
                       cub)
    assert capsys.readouterr().out == ("persistent grids of the prefix tile rows (blocks, coop/CUB): "
                                       f"{prefix.mode.split('.')[1]} {prefix.dtype} "
                                       f"{prefix.block}x{prefix.ipt} 660/{500 + n}\n")


class _FakeDeviceArray:
    """A device array that is host memory (numba-cuda's DeviceNDArray calls the script uses)."""

    def __init__(self, data):
        self.data = data

    def __getitem__(self, index):
        return _FakeDeviceArray(self.data[index])

    def copy_to_device(self, other):
        self.data[...] = other.data

    def copy_to_host(self, ary=None):
        if ary is None:
            return self.data.copy()
        assert ary.shape == self.data.shape and ary.dtype == self.data.dtype
        ary[...] = self.data
        return ary


class _FakeCuda:
    """numba_cuda_mlir.cuda for run_coop without a GPU: kernels are the NumPy model."""

    def __init__(self, bench):
        self.bench = bench

    class _Event:
        def record(self):
            pass

        def synchronize(self):
            pass

    def get_current_device(self):
        return type("Device", (), {"MULTIPROCESSOR_COUNT": 3})()

    def event(self):
        return self._Event()

    def event_elapsed_time(self, start, stop):
        return 0.5

    def synchronize(self):
        pass

    def device_array(self, n, dtype):
        return _FakeDeviceArray(np.zeros(n, dtype))

    def to_device(self, host):
        return _FakeDeviceArray(np.array(host))

    def pinned_array(self, n, dtype):
        return np.empty(n, dtype)

    def kernel(self, c, lto=None, auto_sync=False, range_loop=False):
        bench = self.bench

        def launch(grid, block, src, out, third=None):
            assert block == c.block
            x, tile = src.data, c.tile
            if c.kernel == "loop":
                k = np.arange(grid)
                out.data[:grid * tile] = bench.model_loop(
                    c, x[:grid * tile].reshape(grid, tile).copy(), k, third).reshape(-1)
            elif c.family == "prefix":
                for b in range(grid):
                    lo, hi = b * third // grid * tile, (b + 1) * third // grid * tile
                    out.data[lo:hi] = bench.model_prefix_tile(c, x[lo:hi])
            else:
                k = np.arange(grid)
                got = bench.model_tile(c, x[:grid * tile].reshape(grid, tile), k)
                out.data[:got.size] = got.reshape(-1)
            if c.mode.endswith("warp_scans") and c.dtype == "float32":
                out.data[1] += 1  # a wrong result, which the check must see
        overload = type("Overload", (), {
            "metadata": {"ptx": ".shared .align 16 .b8 s[64];\n.entry k(\n)\n{\nbar.sync 0;\n}\n",
                         "mlir_module_optimized": "nvvm.barrier0", "local_mem_per_thread": 0,
                         "cubin": _toolkit_note("13.0.88")},
            "_ensure_kernel_attrs": lambda self: None,
            # the 3 SMs' resident blocks (the driver's occupancy calculator)
            "max_cooperative_grid_blocks": lambda self, block, dynamic: 3 * (2048 // block)})()
        kernel = type("Kernel", (), {
            "_launch_config_overloads": {0: overload},
            "__getitem__": lambda self, config: lambda *args: launch(*config, *args)})()
        return kernel

    def jit(self, function):  # the sleeping kernel
        return type("Sleep", (), {"__getitem__": lambda self, config: lambda *args: None})()


def _toolkit_note(release: str) -> bytes:
    """The bytes of a cubin's toolkit note, as ptxas `release` writes it, among others."""
    major_minor = ".".join(release.split(".")[:2])
    return (b"\x7fELF\0\0NVIDIA Corp\0\0ptxas\0Cuda compilation tools, release "
            + f"{major_minor}, V{release}".encode() + b"\0Build cuda\0")


def test_code_generators_are_read_from_the_toolkit_notes(capsys, tmp_path):
    """Each side's ptxas release comes from its code's toolkit notes (none: '?'), and the header
    warns only where the two differ."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from gpu_timing import print_code_generators, ptxas_versions

    binary = b"nvlink\0" + _toolkit_note("13.5.37") + b"\0" * 64 + _toolkit_note("13.0.88")
    assert ptxas_versions(binary) == {"13.5.37", "13.0.88"}
    assert ptxas_versions(None) == ptxas_versions(b"no notes") == set()
    (tmp_path / "cub130").write_bytes(_toolkit_note("13.0.88"))
    (tmp_path / "cub135").write_bytes(_toolkit_note("13.5.37"))
    print_code_generators([(None, 1.0, True, {"ptxas": {"13.0.88"}})], tmp_path / "cub130")
    print_code_generators([(None, None, False, {})], tmp_path / "cub135")
    same, unknown = capsys.readouterr().out.splitlines()
    assert same == ("code generation: coop's kernels by ptxas 13.0.88 (nvJitLink), CUB's by "
                    "ptxas 13.0.88")
    assert unknown.startswith("code generation: coop's kernels by ptxas ? (nvJitLink), CUB's by "
                              "ptxas 13.5.37 -- not the same ptxas")


def _fake_reduce_scan_run(monkeypatch, tmp_path):
    """numba_reduce_scan on a fake device (the model's kernels) against a reference output of
    equal times, over the 128x1 and 256x4 int32 and float32 configurations:
    (module, fake cuda, configurations)."""
    numba_cuda_mlir = pytest.importorskip("numba_cuda_mlir")
    bench = _numba_reduce_scan()
    fake = _FakeCuda(bench)

    monkeypatch.setattr(numba_cuda_mlir, "cuda", fake, raising=False)
    monkeypatch.setattr(bench, "_sleeper", lambda: fake.jit(None))
    monkeypatch.setattr(bench, "make_kernel", fake.kernel)
    monkeypatch.setattr(bench, "TOTAL_BYTES", 1 << 18)
    configs = [c for c in bench.configurations()
               if (c.block, c.ipt) in ((128, 1), (256, 4)) and c.dtype in ("int32", "float32")]
    out = "\n".join(["# cub_reduce_scan: SMs=3", "cudaMemcpy D2D (anchor)    4000.0 GB/s"] + [
        ("%-4s %-36s %-7s block=%4d ipt=%2d width=%2d " % c.key) +
        ("ms=%9.4f GB/s=%8.1f %%memcpy=%6.1f temp=%6d OK" % (0.1, 1000.0, 25.0, 16)
         if c.kernel == "tile" else
         "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d OK" % (0.1, 0.01, 5.0, 16))
        for c in configs])
    (tmp_path / "cub").write_bytes(_toolkit_note("13.5.37") * 2)
    monkeypatch.setattr(bench, "reference_binary", lambda *a, **k: tmp_path / "cub")
    monkeypatch.setattr(bench, "run_reference",
                        lambda *a: (bench.parse_reference(out), {}, out))
    monkeypatch.setattr(bench, "configurations", lambda: configs)
    return bench, fake, configs


def test_numba_reduce_scan_stopped_run_prints_its_rows(monkeypatch, capsys, tmp_path):
    """A run stopped mid-way (SIGTERM from a time limit, or Ctrl-C: KeyboardInterrupt) prints
    the table of the rows it measured, says it stopped, and fails."""
    import signal

    bench, fake, configs = _fake_reduce_scan_run(monkeypatch, tmp_path)
    built = []

    def make_kernel(c, *args, **kwargs):
        built.append(c)
        if len(built) == 3:
            signal.raise_signal(signal.SIGTERM)
        return fake.kernel(c)

    monkeypatch.setattr(bench, "make_kernel", make_kernel)
    before = signal.getsignal(signal.SIGTERM)
    code = bench.main([str(tmp_path), "--grid=5", "--runs=3", "--reps=3"])
    table = capsys.readouterr().out
    rows = [line.split() for line in table.splitlines() if line.startswith(("tile ", "loop "))]
    assert [tuple(r[:6]) for r in rows] == [tuple(map(str, c.key)) for c in configs[:2]]
    assert f"stopped: 2 of {len(configs)} configurations measured" in table
    assert code == 1 and signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("relocatable, auto_sync, range_loop",
                         [(False, False, False), (True, True, True)])
def test_numba_reduce_scan_gpu_half_with_a_fake_device(monkeypatch, capsys, tmp_path,
                                                       relocatable, auto_sync, range_loop):
    """main()'s GPU half without a GPU: a fake device whose kernels are the model runs every
    family (tile and loop, block and logical warps, partial tiles, the persistent prefix grid)
    through run_coop's launches, copies back and sampled checks, and the table reads a
    reference output; a wrong tile is a FAIL and the exit code 1. With --no-lto the kernels are
    built with cuda.jit(lto=False), with --auto-sync from the explicit-storage source, with
    --range-loop repeating in a range loop, and the header says so."""
    bench, fake, configs = _fake_reduce_scan_run(monkeypatch, tmp_path)
    built = []
    monkeypatch.setattr(bench, "make_kernel",
                        lambda c, lto=None, auto_sync=False, range_loop=False:
                        built.append((lto, auto_sync, range_loop)) or fake.kernel(c, lto))
    code = bench.main([str(tmp_path), "--grid=5", "--runs=3", "--reps=3"]
                      + (["--no-lto"] if relocatable else [])
                      + (["--auto-sync"] if auto_sync else [])
                      + (["--range-loop"] if range_loop else []))
    table = capsys.readouterr().out
    assert built == [(False if relocatable else None, auto_sync, range_loop)] * len(configs)
    assert ("cuda.jit(lto=False)" in table) == relocatable
    assert ("TempStorage(auto_sync=True)" in table) == auto_sync
    assert ("for _ in range(reps)" in table) == range_loop
    rows = [line.split() for line in table.splitlines() if line.startswith(("tile ", "loop "))]
    assert len(rows) == len(configs) > 40
    failed = {tuple(r[:6]) for r in rows if r[10] == "FAIL/OK"}
    assert failed == {tuple(map(str, c.key)) for c in configs
                      if c.mode.endswith("warp_scans") and c.dtype == "float32"}
    assert all(r[10] == "OK/OK" for r in rows if tuple(r[:6]) not in failed)
    assert code == 1 and f"verified: {len(configs) - len(failed)}/{len(configs)}" in table
    assert "tile: worst coop/CUB" in table  # (equal fake times: loop rows have no ns/op)
    # The prefix rows' persistent grid: 3 SMs x 16 resident blocks of 128 threads (the reference
    # output here names none).
    assert "raking int32 128x1 48/?;" in table.split("persistent grids of the prefix tile rows")[1]
    # Which ptxas generated each side's code, and that they differ.
    assert ("code generation: coop's kernels by ptxas 13.0.88 (nvJitLink), CUB's by ptxas "
            "13.5.37 -- not the same ptxas") in table


def test_compile_scale_runs_both_loops():
    pytest.importorskip("numba_cuda_mlir")
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "compile_scale.py"), "10"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    rows = [line.split() for line in lines[2:-1]]
    assert [row[0] for row in rows] == ["0", "10"]
    # Both loops report a resident set, and the coop loop filled our cache.
    assert all(float(value) > 0 for value in rows[-1][1:3])
    assert lines[-1].startswith("after the coop loop: ")
    assert int(lines[-1].split()[4]) > 0


def test_read_only_view_is_a_read_only_array_to_numba():
    """--read-only's view of a device array: Numba types it `readonly array`, the form of the
    references' const T* __restrict__ that coop.load reads through ld.global.nc, and the
    array's own interface stays writable."""
    pytest.importorskip("numba_cuda_mlir")
    from numba_cuda_mlir import types
    from numba_cuda_mlir.numba_cuda.typing.typeof import typeof

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from gpu_timing import ReadOnly

    class DeviceArray:  # the interface of a device array, without a GPU
        dtype = np.dtype(np.float32)
        __cuda_array_interface__ = {"shape": (8,), "typestr": "<f4", "data": (0x1000, False),
                                    "strides": None, "version": 3}

    assert typeof(ReadOnly(DeviceArray())) == types.Array(types.float32, 1, "C", readonly=True)
    assert DeviceArray.__cuda_array_interface__["data"] == (0x1000, False)


def _bench(name):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    return __import__(name)


def test_numba_select_configurations_are_the_references():
    """The script's configurations are cub_select.cu's add_all (the binary's `list` is checked
    against them again on the GPU machine)."""
    bench = _bench("numba_select")
    source = (ROOT / "benchmarks" / "reference" / "cub_select.cu").read_text()
    configs = bench.configurations()
    assert len(configs) == len(set(configs)) == 40
    for block, ipt in bench.BLOCK_CONFIGS:
        assert f"add<block_select, T, {block}, {ipt}>(v);" in source
    for width, block, ipt in bench.WARP_CONFIGS:
        assert f"add<warp_select<{width}>, T, {block}, {ipt}>(v);" in source


def test_numba_reduce_batched_configurations_are_the_references():
    bench = _bench("numba_reduce_batched")
    source = (ROOT / "benchmarks" / "reference" / "cub_reduce_batched.cu").read_text()
    assert len(bench.configurations()) == len(set(bench.configurations())) == 84
    for width, block, batches in bench.CONFIGS:
        assert f"add_config<T, {width}, {block}, {batches}>(v);" in source


def test_numba_reduce_batched_layout_is_the_references():
    """A logical warp's items and results are stored slot-major (lane r's slot b at
    first * B + b * W + r, first its first thread, as cub_reduce_batched.cu's kernels index
    them): `lanes` reads them back in the models' order, a correct tile passes check_tile and
    a changed result fails it."""
    bench = _bench("numba_reduce_batched")
    from cuda.coop._models import reduce_batched_model

    source = (ROOT / "benchmarks" / "reference" / "cub_reduce_batched.cu").read_text()
    assert "in[first * I + b * W + lane]" in source
    assert "out[first * S + s * W + lane]" in source
    for c in (bench.Config("tile", "sum_striped", "int32", 64, 32, 32),
              bench.Config("tile", "max_blocked", "int32", 64, 32, 8),
              bench.Config("tile", "sum_blocked", "f64", 64, 8, 32)):
        grid, W, B, S = 2, c.width, c.ipt, c.slots
        host = bench.input_pattern(grid * c.block * B, c.numpy_dtype)
        out = np.zeros(grid * c.block * S, c.numpy_dtype)
        for first in range(0, grid * c.block, W):
            items = np.array([[host[first * B + b * W + r] for b in range(B)]
                              for r in range(W)])
            results = reduce_batched_model(c.op, items, c.layout)
            for r in range(W):
                for i in range(S):
                    out[first * S + i * W + r] = results[r][i]
        inputs = bench.lanes(c, host, grid, B)
        assert bench.check_tile(c, inputs, bench.lanes(c, out, grid, S)), c.key
        out[W * S + 1] += 1  # lane 1's first slot of the second logical warp
        assert not bench.check_tile(c, inputs, bench.lanes(c, out, grid, S)), c.key


def test_numba_histogram_configurations_are_the_references():
    bench = _bench("numba_histogram")
    source = (ROOT / "benchmarks" / "reference" / "cub_histogram.cu").read_text()
    assert len(bench.configurations()) == len(set(bench.configurations())) == 28
    ctype = {"uint8": "uint8_t", "int32": "int32_t"}
    for algorithm, dtype, bins, block, ipt in bench.CONFIGS:
        assert f"add<histo_{algorithm}, {ctype[dtype]}, {bins}, {block}, {ipt}>(v);" in source
    assert {c.mode for c in bench.configurations()} == {
        "block_hist256", "block_hist64", "block_hist1024",
        "block_hist256_sort", "block_hist64_sort", "block_hist1024_sort"}


def test_numba_histogram_input_and_loop_model_are_the_references():
    """The samples are cub_histogram.cu's ((uint32)(j * 2654435761) >> 12) % BINS (one period,
    repeated) with their histogram, and the loop model built on histogram_model takes the
    reference's host steps (verify_loop: count, then sample t*ipt+i += bin t + (i % S) * block)."""
    bench = _bench("numba_histogram")
    for bins in (64, 256):
        n = 2 << (12 + bins.bit_length() - 1)  # two periods
        samples, whole = bench.input_samples(n, np.uint8, bins)
        j = np.arange(n, dtype=np.uint64)
        expected = ((j * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)) >> np.uint64(12)
        assert np.array_equal(samples, expected % bins)
        assert np.array_equal(whole, np.bincount(samples, minlength=bins))

    c = bench.Config("loop", "int32", 64, 32, 3)  # two slots a thread
    rng = np.random.default_rng(0)
    tiles = rng.integers(0, c.bins, (2, c.block * c.ipt)).astype(np.int32)
    reps = 3
    expected = tiles.copy()
    for r in expected:
        for _ in range(reps):
            counts = np.bincount(r, minlength=c.bins)
            for t in range(c.block):
                for i in range(c.ipt):
                    b = t + (i % c.slots) * c.block
                    r[t * c.ipt + i] = (r[t * c.ipt + i] + (counts[b] if b < c.bins else 0)) \
                        & (c.bins - 1)
    assert np.array_equal(bench.loop_model(c, tiles, reps), expected)


def test_numba_histogram_reads_the_reference_output():
    """cub_histogram's lines (its printf formats, uint8 and int32 samples, both algorithms) and
    demangled kernel names are read for every configuration."""
    bench = _bench("numba_histogram")
    configs = bench.configurations()
    lines = ["# cub_histogram: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192"]
    for n, c in enumerate(configs):
        head = "%-4s %-22s %-5s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f temp=%6d %s" % (0.25, 4000.0 + n, 4 * c.bins, "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (0.5, 0.01, 10.0 + n,
                                                                   4 * c.bins,
                                                                   "FAIL" if n == 3 else "OK"))
        lines.append(head + tail)
    cub = bench.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 13.0, "ms": 0.5, "temp": 1024, "ok": False}
    assert cub[configs[0].key]["value"] == 4000.0

    for pretty, key in [
        ("void tile_kernel<histo_atomic, unsigned char, (int)256, (int)128, (int)4>(const T2 *, "
         "unsigned int *)", ("tile", "block_hist256", "uint8", 128, 4, 0)),
        ("void loop_kernel<histo_atomic, int, 1024, 128, 16>(int const*, int*, int)",
         ("loop", "block_hist1024", "int32", 128, 16, 0)),
        ("void tile_kernel<histo_sort, unsigned char, 256, 256, 8>(unsigned char const*, "
         "unsigned int*)", ("tile", "block_hist256_sort", "uint8", 256, 8, 0)),
        ("void loop_kernel<histo_sort, int, (int)64, (int)128, (int)16>(const T2 *, T2 *, int)",
         ("loop", "block_hist64_sort", "int32", 128, 16, 0))]:
        assert bench.cub_key(pretty) == key


def test_numba_run_length_decode_configurations_are_the_references():
    bench = _bench("numba_run_length_decode")
    source = (ROOT / "benchmarks" / "reference" / "cub_run_length_decode.cu").read_text()
    assert len(bench.configurations()) == len(set(bench.configurations())) == 16
    ctype = {"int32": "int32_t", "f64": "double"}
    for dtype, block, runs, ipt in bench.CONFIGS:
        assert f"add<{ctype[dtype]}, block_rld_runs{runs}, {block}, {ipt}>(v);" in source
        # Every window of the kernels inside its stream (the reference static_asserts it).
        assert ipt <= bench.MIN_LENGTH * runs
    assert f"constexpr uint32_t MIN_LENGTH = {bench.MIN_LENGTH};" in source


def test_numba_run_length_decode_input_and_models_are_the_references():
    """The lengths are cub_run_length_decode.cu's 4 + ((uint32)(j * 2654435761) >> 29); the
    loop model built on run_length_decode_model takes the reference's host steps (verify_loop:
    expand the runs, value t*R + i = stream[offset + t*D + i % D] for i < R, then value
    t*R + i % R += stream[offset + t*D + i] for R <= i < D: every decoded item read; offset += B*D, back to 0 where the next window passes the stream's end), and the tile check
    takes the first window."""
    bench = _bench("numba_run_length_decode")
    n = 1 << 16
    j = np.arange(n, dtype=np.uint64)
    h = (j * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    lengths = bench.run_lengths(n)
    assert lengths.dtype == np.uint32
    assert np.array_equal(lengths, 4 + (h >> np.uint64(29)))
    assert set(np.unique(lengths)) == set(range(4, 12))

    rng = np.random.default_rng(0)
    reps = 9  # the windows wrap around the stream
    source = (ROOT / "benchmarks" / "reference" / "cub_run_length_decode.cu").read_text()
    assert "for (int i = 0; i < R; ++i) v[i] = items[i % D];" in source
    assert "for (int i = R; i < D; ++i) v[i % R] += items[i];" in source
    assert "for (int i = 0; i < R; ++i) v[t * R + i] = s[offset + t * D + i % D];" in source
    assert "for (int i = R; i < D; ++i) v[t * R + i % R] += s[offset + t * D + i];" in source
    for block, runs, ipt in ((4, 2, 3), (4, 4, 3), (4, 2, 5), (4, 1, 4)):
        c = bench.Config("loop", "int32", block, runs, ipt)
        values = rng.integers(0, 100, (2, block * runs)).astype(np.int32)
        tile_lengths = rng.integers(4, 12, (2, block * runs)).astype(np.uint32)
        expected = values.copy()
        for v, lens in zip(expected, tile_lengths):
            offset = 0
            for _ in range(reps):
                s = np.repeat(v, lens)
                for t in range(block):
                    for i in range(runs):
                        v[t * runs + i] = s[offset + t * ipt + i % ipt]
                    for i in range(runs, ipt):
                        v[t * runs + i % runs] += s[offset + t * ipt + i]
                offset += block * ipt
                if offset + block * ipt > s.size:
                    offset = 0
        assert np.array_equal(bench.loop_model(c, values, tile_lengths, reps), expected)

        t = bench.Config("tile", "int32", block, runs, ipt)
        windows = np.stack([np.repeat(v, lens)[:block * ipt]
                            for v, lens in zip(values, tile_lengths)])
        assert bench.check_tile(t, values, tile_lengths, windows)
        windows[1, -1] += 1
        assert not bench.check_tile(t, values, tile_lengths, windows)


def test_numba_run_length_decode_reads_the_reference_output():
    """cub_run_length_decode's lines and demangled kernel names (a tag type per mode, as
    cub_exchange's) are read by numba_exchange's reader for every configuration."""
    bench = _bench("numba_run_length_decode")
    exchange = _bench("numba_exchange")
    configs = bench.configurations()
    lines = ["# cub_run_length_decode: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192"]
    for n, c in enumerate(configs):
        head = "%-4s %-22s %-5s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f temp=%6d %s" % (0.25, 4000.0 + n, 2048, "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (0.5, 0.01, 10.0 + n, 2048,
                                                                   "FAIL" if n == 3 else "OK"))
        lines.append(head + tail)
    cub = exchange.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 13.0, "ms": 0.5, "temp": 2048, "ok": False}
    assert cub[configs[0].key]["value"] == 4000.0

    ctype = {"int32": "int", "f64": "double"}
    for c in configs:  # as c++filt writes them
        last = "unsigned int*" if c.kernel == "tile" else "int"
        pretty = (f"void {c.kernel}_kernel<{c.mode}, {ctype[c.dtype]}, {c.block}, {c.ipt}>"
                  f"({ctype[c.dtype]} const*, unsigned int const*, {ctype[c.dtype]}*, {last})")
        assert exchange.cub_key(pretty) == c.key
    # as cu++filt writes them
    pretty = ("void tile_kernel<block_rld_runs4, double, (int)128, (int)8>(const T2 *, "
              "const unsigned int *, T2 *, unsigned int *)")
    assert exchange.cub_key(pretty) == ("tile", "block_rld_runs4", "f64", 128, 8, 0)


def test_numba_radix_sort_configurations_are_the_references():
    bench = _bench("numba_radix_sort")
    source = (ROOT / "benchmarks" / "reference" / "cub_radix_sort.cu").read_text()
    assert len(bench.configurations()) == len(set(bench.configurations())) == 22
    ctype = {"uint8": "uint8_t", "uint32": "uint32_t", "int32": "int32_t", "float32": "float",
             "uint64": "uint64_t"}
    for mode, dtype, block, ipt in bench.CONFIGS:
        assert f"add<{mode}, {ctype[dtype]}, {block}, {ipt}>(v);" in source


def test_numba_radix_sort_input_and_model_are_the_references():
    """The keys are cub_radix_sort.cu's key_at (from h = (uint32)(j * 2654435761), across
    chunks), the loop's update is its perturb (k * 2654435761 + i in the key's width; i - k for
    floats), and the model built on radix_sort_order takes the reference's host steps (verify:
    a stable sort by value, the values moved with the keys, then the update)."""
    bench = _bench("numba_radix_sort")
    n = 5000
    h = [(j * 2654435761) % 2**32 for j in range(n)]
    signed = [x - 2**32 if x >= 2**31 else x for x in h]
    expected = {"uint32": np.array(h, np.uint32), "int32": np.array(signed, np.int32),
                "uint64": np.array([(x * 0x9E3779B97F4A7C15) % 2**64 for x in h], np.uint64),
                "uint8": np.array([x >> 24 for x in h], np.uint8),
                "float32": np.array([(x >> 8) / 4096 for x in signed], np.float32)}
    for dtype, keys in expected.items():
        got = bench.input_keys(n, bench.DTYPES[dtype], chunk=999)
        assert got.dtype == keys.dtype and bench.same_bits(got, keys), dtype
    assert (expected["float32"] < 0).any() and (expected["float32"] > 0).any()

    rng = np.random.default_rng(0)
    reps = 3
    for mode, dtype in (("block_sort_keys", "int32"), ("block_sort_keys", "uint8"),
                        ("block_sort_pairs", "float32"), ("block_sort_pairs", "uint64")):
        c = bench.Config("loop", mode, dtype, 8, 3)
        width = np.dtype(dtype).itemsize * 8
        tiles = bench.input_keys(2 * 8 * 3, c.numpy_dtype)[rng.permutation(48)].reshape(2, 24)
        tiles[:, :6] = tiles[:, 6:12]  # equal keys: the sort is stable
        positions = np.arange(48, dtype=np.int32).reshape(2, 24)
        keys, values = bench.model(c, tiles, positions, reps, True)
        for r, v, got_keys, got_values in zip(tiles, positions, keys, values):
            r, v = list(r), list(v)
            for _ in range(reps):
                order = sorted(range(24), key=lambda p: r[p])
                r, v = [r[p] for p in order], [v[p] for p in order]
                if dtype == "float32":
                    r = [np.float32(p % 3) - x for p, x in enumerate(r)]
                else:
                    r = [(int(x) * 2654435761 + p % 3) % 2**width for p, x in enumerate(r)]
                    r = [x - 2**width if dtype == "int32" and x >= 2**31 else x for x in r]
            assert bench.same_bits(got_keys, np.array(r, c.numpy_dtype)), (mode, dtype)
            assert np.array_equal(got_values, v)
        t = bench.Config("tile", mode, dtype, 8, 3)
        keys, values = bench.model(t, tiles, positions, 1, False)
        order = np.argsort(tiles, axis=1, kind="stable")
        assert bench.same_bits(keys, np.take_along_axis(tiles, order, axis=1))
        assert np.array_equal(values, np.take_along_axis(positions, order, axis=1))


def test_numba_radix_sort_reads_the_reference_output():
    """cub_radix_sort's lines (its printf formats, every key type) and demangled kernel names
    (cu++filt's and c++filt's) are read for every configuration."""
    bench = _bench("numba_radix_sort")
    configs = bench.configurations()
    lines = ["# cub_radix_sort: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192"]
    for n, c in enumerate(configs):
        head = "%-4s %-22s %-5s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f temp=%6d %s" % (2.5, 400.0 + n, 9280, "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (5.5, 0.01, 1000.0 + n, 9280,
                                                                   "FAIL" if n == 3 else "OK"))
        lines.append(head + tail)
    cub = bench.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 1003.0, "ms": 5.5, "temp": 9280, "ok": False}
    assert cub[configs[0].key]["value"] == 400.0

    for pretty, key in [
        ("void tile_kernel<block_sort_keys, unsigned char, (int)256, (int)8>(const T2 *, "
         "const int *, T2 *, int *)", ("tile", "block_sort_keys", "uint8", 256, 8, 0)),
        ("void loop_kernel<block_sort_pairs, unsigned long, 256, 2>(unsigned long const*, "
         "int const*, unsigned long*, int*, int)", ("loop", "block_sort_pairs", "uint64", 256, 2,
                                                    0)),
        ("void tile_kernel<block_sort_pairs, float, 128, 8>(float const*, int const*, float*, "
         "int*)", ("tile", "block_sort_pairs", "float32", 128, 8, 0)),
        ("void loop_kernel<block_sort_keys, int, (int)1024, (int)4>(const T2 *, const int *, "
         "T2 *, int *, int)", ("loop", "block_sort_keys", "int32", 1024, 4, 0))]:
        assert bench.cub_key(pretty) == key


def test_numba_merge_sort_configurations_are_the_references():
    bench = _bench("numba_merge_sort")
    source = (ROOT / "benchmarks" / "reference" / "cub_merge_sort.cu").read_text()
    assert len(bench.configurations()) == len(set(bench.configurations())) == 20
    ctype = {"int32": "int32_t", "float32": "float", "uint64": "uint64_t"}
    for mode, dtype, block, ipt, width in bench.CONFIGS:
        tag = f"{mode}<{width}>" if width else mode
        assert (width == 0) == mode.startswith("block_")
        assert f"add<{tag}, {ctype[dtype]}, {block}, {ipt}>(v);" in source


def test_numba_merge_sort_input_and_model_are_the_references():
    """The keys and the loop's update are numba_radix_sort.py's (cub_merge_sort.cu's key_at and
    perturb are cub_radix_sort.cu's), and the model takes the reference's host steps (verify:
    each group's tile, the block's or a logical warp's, stably sorted by <, the values moved
    with the keys, then the update)."""
    bench = _bench("numba_merge_sort")
    radix = _bench("numba_radix_sort")
    # Both scripts' runs are numba_radix_sort.run_sorts (its input_keys and values).
    assert (bench.run_sorts, bench.update) == (radix.run_sorts, radix.update)
    source = (ROOT / "benchmarks" / "reference" / "cub_merge_sort.cu").read_text()
    radix_source = (ROOT / "benchmarks" / "reference" / "cub_radix_sort.cu").read_text()
    for line in ("const uint32_t h = (uint32_t)(j * 2654435761u);",
                 "if constexpr (std::is_same_v<K, float>) return float((int32_t)h >> 8) * "
                 "(1.0f / 4096);",
                 "else if constexpr (sizeof(K) == 8) return K(h) * 0x9E3779B97F4A7C15ull;",
                 "return K(i) - k;", "return K(U(U(k) * U(2654435761u) + U(i)));"):
        assert line in source and line in radix_source, line

    rng = np.random.default_rng(0)
    reps = 3
    for mode, dtype, width in (("block_merge_keys", "int32", 0),
                               ("block_merge_keys", "uint64", 0),
                               ("block_merge_pairs", "float32", 0),
                               ("block_merge_pairs", "int32", 0),
                               ("warp_merge_keys", "int32", 4)):
        c = bench.Config("loop", mode, dtype, 8, 3, width)
        width_bits = np.dtype(dtype).itemsize * 8
        tiles = radix.input_keys(2 * 8 * 3, c.numpy_dtype)[rng.permutation(48)].reshape(2, 24)
        tiles[:, :6] = tiles[:, 6:12]  # equal keys: the sort is stable
        positions = np.arange(48, dtype=np.int32).reshape(2, 24)
        keys, values = bench.model(c, tiles, positions, reps, True)
        group = (width or 8) * 3
        for r, v, got_keys, got_values in zip(tiles, positions, keys, values):
            r, v = list(r), list(v)
            for _ in range(reps):
                order = [g + p for g in range(0, 24, group)
                         for p in sorted(range(group), key=lambda p: r[g + p])]
                r, v = [r[p] for p in order], [v[p] for p in order]
                if dtype == "float32":
                    r = [np.float32(p % 3) - x for p, x in enumerate(r)]
                else:
                    r = [(int(x) * 2654435761 + p % 3) % 2**width_bits for p, x in enumerate(r)]
                    r = [x - 2**width_bits if dtype == "int32" and x >= 2**31 else x for x in r]
            assert radix.same_bits(got_keys, np.array(r, c.numpy_dtype)), (mode, dtype)
            assert np.array_equal(got_values, v)
        t = bench.Config("tile", mode, dtype, 8, 3, width)
        keys, values = bench.model(t, tiles, positions, 1, False)
        order = np.argsort(tiles.reshape(-1, group), axis=1, kind="stable")
        assert radix.same_bits(keys, np.take_along_axis(tiles.reshape(-1, group), order,
                                                        axis=1).reshape(2, 24))
        assert np.array_equal(values, np.take_along_axis(positions.reshape(-1, group), order,
                                                         axis=1).reshape(2, 24))


def test_numba_merge_sort_reads_the_reference_output():
    """cub_merge_sort's lines (its printf formats, every key type and width) and demangled
    kernel names (cu++filt's and c++filt's, a warp mode a template of its width) are read for
    every configuration."""
    bench = _bench("numba_merge_sort")
    configs = bench.configurations()
    lines = ["# cub_merge_sort: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192"]
    for n, c in enumerate(configs):
        head = "%-4s %-22s %-5s block=%4d ipt=%2d width=%2d " % c.key
        tail = ("ms=%9.4f GB/s=%8.1f temp=%6d %s" % (2.5, 400.0 + n, 2052, "OK")
                if c.kernel == "tile" else
                "ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s" % (5.5, 0.01, 1000.0 + n, 2052,
                                                                   "FAIL" if n == 3 else "OK"))
        lines.append(head + tail)
    cub = bench.parse_reference("\n".join(lines))
    assert set(cub) == {c.key for c in configs}
    assert cub[configs[3].key] == {"value": 1003.0, "ms": 5.5, "temp": 2052, "ok": False}
    assert cub[configs[0].key]["value"] == 400.0

    ctype = {"int32": "int", "float32": "float", "uint64": "unsigned long"}
    for c in configs:  # as c++filt writes them
        tag = f"{c.mode}<{c.width}>" if c.width else c.mode
        last = "" if c.kernel == "tile" else ", int"
        k = ctype[c.dtype]
        pretty = (f"void {c.kernel}_kernel<{tag}, {k}, {c.block}, {c.ipt}>({k} const*, "
                  f"int const*, {k}*, int*{last})")
        assert bench.cub_key(pretty) == c.key
    for pretty, key in [  # as cu++filt writes them
        ("void tile_kernel<warp_merge_keys<(int)16>, int, (int)128, (int)8>(const T2 *, "
         "const int *, T2 *, int *)", ("tile", "warp_merge_keys", "int32", 128, 8, 16)),
        ("void loop_kernel<block_merge_keys, unsigned long long, (int)128, (int)4>(const T2 *, "
         "const int *, T2 *, int *, int)", ("loop", "block_merge_keys", "uint64", 128, 4, 0)),
        ("void loop_kernel<block_merge_pairs, float, (int)128, (int)8>(const T2 *, "
         "const int *, T2 *, int *, int)", ("loop", "block_merge_pairs", "float32", 128, 8, 0))]:
        assert bench.cub_key(pretty) == key


@pytest.mark.skipif(ck.ptxas() is None, reason="needs ptxas (pip nvidia-cuda-nvcc)")
@pytest.mark.parametrize("script,filters,kernels", [
    ("numba_select.py", ["all", "all", "int32", "128", "4"], 6),
    ("numba_reduce_batched.py", ["all", "all", "int32", "128", "32", "32"], 8),
    ("numba_histogram.py", ["all", "all", "all", "128"], 10),
    ("numba_run_length_decode.py", ["all", "all", "all", "128"], 6),
    ("numba_radix_sort.py", ["all", "all", "uint32", "256", "4"], 4),
    ("numba_merge_sort.py", ["all", "all", "int32", "128"], 6),
])
def test_new_family_benchmarks_compile_only(tmp_path, script, filters, kernels):
    """The --compile-only path of the select, reduce_batched, histogram, run_length_decode,
    radix_sort and merge_sort benchmarks: their kernels compile for sm_90 without local memory
    and every row is printed."""
    pytest.importorskip("numba_cuda_mlir")
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), str(tmp_path),
                             *filters, "--compile-only"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith(("tile ", "loop "))]
    assert len(rows) == kernels, result.stdout
    assert f"local memory: none in {kernels} kernels" in result.stdout


def test_cute_reduce_scan_build_step(tmp_path):
    """cute_reduce_scan's build step (CuTe DSL, no GPU): the block sum and scan rows at 256x4
    int32, each a cubin whose block calls share one scratch buffer, and the launch facts the
    GPU step reads."""
    pytest.importorskip("cutlass")
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cute_reduce_scan.py"),
                             "build", str(tmp_path), "tile", "all", "int32", "256", "4"],
                            capture_output=True, text=True, timeout=600,
                            env={**os.environ, "CUTE_DSL_ARCH": "sm_90a"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "built 9 CuTe rows" in result.stdout  # sum, inclusive and exclusive sum, 3 each
    for folder in tmp_path.iterdir():
        facts = json.loads((folder / "launch.json").read_text())
        assert facts["key"][:1] == ["tile"] and (folder / facts["cubin"]).stat().st_size
        ptx = next(folder.glob("*.ptx")).read_text()
        assert re.findall(r"\.shared \.align \d+ \.b8 (\w+)", ptx) == ["__coop_scratch_block"]
