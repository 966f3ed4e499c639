"""python -m cuda.coop.visualize: the command line, the written site, and
each page in headless Chromium: a control is changed with a real DOM event
and the drawn ownership is compared with cuda.coop._models."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from cuda.coop import _models as models
from cuda.coop.visualize import VisualizeError, build_site
from headless_chromium import Chromium, find_chromium

PAGES = ("load", "store", "exchange", "shuffle", "reduce", "scan", "reduce_batched", "select",
         "histogram", "run_length_decode", "radix_sort", "merge_sort")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    build_site(out)
    return out


def test_command_line_requires_out():
    result = subprocess.run([sys.executable, "-m", "cuda.coop.visualize"], capture_output=True,
                            text=True, env=os.environ)
    assert result.returncode == 2
    assert "the following arguments are required: --out" in result.stderr


def test_out_must_not_be_a_file(tmp_path):
    path = tmp_path / "site.html"
    path.write_text("")
    with pytest.raises(VisualizeError, match="is a file; pass a directory"):
        build_site(path)


def test_every_page_is_written_and_self_contained(site):
    assert sorted(p.name for p in site.iterdir()) == sorted(
        [f"{name}.html" for name in PAGES] + ["index.html"])
    for page in site.iterdir():
        text = page.read_text()
        # Nothing loaded from elsewhere: no src attributes, links only to sibling pages.
        assert not re.search(r"\bsrc=", text), page.name
        assert set(re.findall(r'href="([^"]+)"', text)) <= {
            f"{name}.html" for name in PAGES + ("index",)}, page.name
        assert page.stat().st_size < 400_000, page.name


# --- In the browser ------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        message = "needs chromium (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the browser test")
        pytest.skip(message)
    chromium = Chromium(executable)
    yield chromium
    chromium.close()


CHANGE = """(() => {
  const input = document.querySelector(`[name="NAME"]`);
  if (input.type === "range") {
    // A slider moves over option indices; step until its output shows VALUE.
    for (let i = Number(input.min); i <= Number(input.max); i++) {
      input.value = i;
      input.dispatchEvent(new Event("input"));
      if (input.nextElementSibling.textContent === VALUE) return true;
    }
    return false;
  }
  input.value = VALUE;
  input.dispatchEvent(new Event("change"));
  return input.value === VALUE;
})()"""

CELLS = """Array.from(document.querySelectorAll('svg[data-panel="PANEL"] g.cell')).map(
  (g) => [Number(g.dataset.thread ?? g.dataset.index), Number(g.dataset.item ?? 0),
          g.textContent])"""


def _drawn(browser, site, page, preset, changes, panel):
    """Open `page` with the controls in `preset` (the URL hash), change the
    controls in `changes` one by one, and return the labels drawn in panel
    `panel` as [threads or elements, items]."""
    hash_ = "&".join(f"{k}={v}" for k, v in preset.items())
    browser.open(f"file://{site / page}.html#{hash_}")
    browser.wait_for("document.body && document.body.dataset.state")
    for name, value in changes.items():
        script = CHANGE.replace("NAME", name).replace("VALUE", repr(str(value)))
        assert browser.evaluate(script), f"{page}: no option {value} for {name}"
    state = browser.evaluate("JSON.parse(document.body.dataset.state)")
    assert state == {**state, **{k: str(v) for k, v in {**preset, **changes}.items()}}
    assert all(f"{k}={v}" in browser.evaluate("location.hash") for k, v in changes.items())
    cells = browser.evaluate(CELLS.replace("PANEL", str(panel)))
    rows = max(c[0] for c in cells) + 1
    labels = np.empty((rows, max(c[1] for c in cells) + 1), object)
    for row, item, label in cells:
        labels[row, item] = label
    return labels


def _element_labels(values, specified):
    """How the pages label a tile element k (k), a value the call supplies
    (the value) and an unspecified slot (?)."""
    base = 10_000
    return np.vectorize(lambda v, s: "?" if not s else str(v - base) if v >= base else str(v),
                        otypes=[object])(values, specified)


def test_load_page(browser, site):
    drawn = _drawn(browser, site, "load",
                   {"group": "block", "threads": 32, "algorithm": "striped",
                    "items_per_thread": 3, "oob_default": 0},
                   {"algorithm": "transpose", "oob_default": "-1", "valid_items": 50}, 1)
    values, specified = models.load_model("transpose", np.arange(96) + 10_000, 32, 3, 50, -1)
    np.testing.assert_array_equal(drawn, _element_labels(values, specified))
    drawn = _drawn(browser, site, "load", {"group": "logical warp", "threads": 8},
                   {"algorithm": "striped", "items_per_thread": 4, "oob_default": "None",
                    "valid_items": 13}, 1)
    values, specified = models.load_model("striped", np.arange(32) + 10_000, 8, 4, 13)
    np.testing.assert_array_equal(drawn, _element_labels(values, specified))
    assert (drawn == "?").sum() == 32 - 13


def test_store_page(browser, site):
    drawn = _drawn(browser, site, "store", {"group": "block", "threads": 64},
                   {"algorithm": "striped", "items_per_thread": 2, "valid_items": 100}, 1)
    memory = models.store_model("striped", np.arange(128).reshape(64, 2), np.full(128, -1), 100)
    want = [f"{m // 2}.{m % 2}" if m >= 0 else "·" for m in memory]
    assert list(drawn[:, 0]) == want


def test_exchange_page(browser, site):
    drawn = _drawn(browser, site, "exchange", {"group": "block", "threads": 64},
                   {"mode": "warp_striped_to_blocked", "items_per_thread": 3}, 1)
    t, i = np.arange(64)[:, None], np.arange(3)[None, :]
    before = models.position("warp_striped", t, i, 64, 3)
    after, defined = models.exchange_model("warp_striped_to_blocked", before + 10_000, None,
                                           None)
    np.testing.assert_array_equal(drawn, _element_labels(after, defined))
    np.testing.assert_array_equal(drawn, np.arange(192).reshape(64, 3).astype(str))


def test_shuffle_page(browser, site):
    drawn = _drawn(browser, site, "shuffle", {"threads": 32},
                   {"mode": "offset", "fill": "-1", "distance": -3}, 1)
    after = models.shuffle_model("offset", np.arange(32) + 10_000, -3, -1)
    np.testing.assert_array_equal(drawn[:, 0], _element_labels(after, np.ones(32, bool)))
    drawn = _drawn(browser, site, "shuffle", {"threads": 8, "mode": "up"},
                   {"items_per_thread": 2, "fill": "None"}, 1)
    values = np.arange(16).reshape(8, 2) + 10_000
    after = models.shuffle_model("up", values, 1, None)
    specified = models.shuffle_specified("up", values.shape, None)
    np.testing.assert_array_equal(drawn, _element_labels(after, specified))


def test_reduce_page(browser, site):
    from cuda.coop.visualize._pages import combining_values

    drawn = _drawn(browser, site, "reduce", {"group": "logical warp", "threads": 8},
                   {"items_per_thread": 2, "binary_op": "max", "broadcast": "False",
                    "valid_items": 5}, 1)
    total = models.reduce_model("max", combining_values(8, 2), 5)
    assert list(drawn[:, 0]) == [str(total)] + ["?"] * 7


def test_scan_page(browser, site):
    from cuda.coop.visualize._pages import combining_values

    drawn = _drawn(browser, site, "scan", {"group": "warp"},
                   {"items_per_thread": 3, "mode": "exclusive", "scan_op": "min",
                    "initial_value": "None"}, 1)
    values = combining_values(32, 3)
    scanned, _ = models.scan_model("min", values, False, models.identity("min", np.int32))
    np.testing.assert_array_equal(drawn, scanned.astype(str).astype(object))
    assert drawn[0, 0] == str(np.iinfo(np.int32).max)


def test_select_page(browser, site):
    from cuda.coop.visualize._pages import _select_keep

    drawn = _drawn(browser, site, "select", {"group": "logical warp", "threads": 4},
                   {"items_per_thread": 3, "flags": "third", "valid_items": 7}, 1)
    values = np.arange(12).reshape(4, 3) + 10_000
    selected, count = models.select_model(values, _select_keep(4, 3, 3), 7)
    assert count == 3
    np.testing.assert_array_equal(drawn, _element_labels(
        selected, models.select_specified(count, values.shape)))



def test_reduce_batched_page(browser, site):
    from cuda.coop.visualize._pages import combining_values

    drawn = _drawn(browser, site, "reduce_batched", {"group": "logical warp", "threads": 4},
                   {"batches": 8, "binary_op": "max", "output_layout": "blocked"}, 1)
    values = combining_values(4, 8)
    expected = models.reduce_batched_model("max", values, "blocked")
    np.testing.assert_array_equal(drawn, expected.astype(str).astype(object))
    drawn = _drawn(browser, site, "reduce_batched", {"group": "warp", "threads": 32},
                   {"batches": 3, "binary_op": "sum", "output_layout": "striped"}, 1)
    totals = combining_values(32, 3).sum(axis=0)
    expected = np.array([[str(totals[r])] if r < 3 else ["?"] for r in range(32)], object)
    np.testing.assert_array_equal(drawn, expected)


def test_histogram_page(browser, site):
    from cuda.coop.visualize._pages import histogram_samples

    drawn = _drawn(browser, site, "histogram", {"group": "block", "threads": 32},
                   {"items_per_thread": 3, "bins": 40, "valid_items": 48}, 1)
    counters = models.histogram_model(histogram_samples(32, 3, 40), 40, 32, valid=48)
    np.testing.assert_array_equal(drawn, counters.astype(str).astype(object))


def test_run_length_decode_page(browser, site):
    from cuda.coop.visualize._pages import run_lengths

    drawn = _drawn(browser, site, "run_length_decode", {"group": "block", "threads": 32},
                   {"runs_per_thread": 2, "decoded_items_per_thread": 3,
                    "decoded_window_offset": 32}, 1)
    values = np.arange(64).reshape(32, 2)
    window, total = models.run_length_decode_model(values, run_lengths(32, 2), 32, 3, 32)
    inside = (32 + np.arange(96) < total).reshape(32, 3)
    np.testing.assert_array_equal(drawn, np.where(inside, window, 0).astype(str).astype(object))


def test_radix_sort_page(browser, site):
    from cuda.coop.visualize._pages import radix_sort_keys

    drawn = _drawn(browser, site, "radix_sort", {"group": "block", "threads": 32},
                   {"items_per_thread": 3, "descending": "True", "blocked_to_striped": "True",
                    "valid_items": 48}, 1)
    keys = radix_sort_keys(32, 3).reshape(-1)
    order = models.radix_sort_order(keys, descending=True, valid=48)
    expected = np.full(96, "?", dtype=object)
    positions = np.arange(order.size)
    expected[(positions % 32) * 3 + positions // 32] = keys[order].astype(str)
    np.testing.assert_array_equal(drawn, expected.reshape(32, 3))


def test_merge_sort_page(browser, site):
    from cuda.coop.visualize._pages import merge_sort_keys

    drawn = _drawn(browser, site, "merge_sort", {"group": "logical warp", "threads": 8},
                   {"items_per_thread": 3, "compare_op": "by_magnitude", "descending": "True"}, 1)
    keys = merge_sort_keys(8, 3).reshape(-1)
    order = np.argsort(-np.abs(keys), kind="stable")
    np.testing.assert_array_equal(drawn, keys[order].astype(str).astype(object).reshape(8, 3))
