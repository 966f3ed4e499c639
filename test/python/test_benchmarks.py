"""The benchmark scripts keep working: their CPU halves run here (the GPU
halves run on the H200, see docs/performance.md)."""

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
