"""Self-contained HTML for the visualizer: inline CSS, script and the
gzip-compressed frame tree; nothing is fetched from a server or network."""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources

from ._pages import Page

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} · cuda.coop visualizations</title>
<style>
{css}</style>
</head>
<body>
<nav>{nav}</nav>
<h1>{title}</h1>
<p>{about}</p>
<div id="controls"></div>
<div id="drawing"></div>
<p id="caption"></p>
{data}
<script>
{script}</script>
</body>
</html>
"""


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _nav(pages: list[Page]) -> str:
    links = ['<a href="index.html">all operations</a>']
    links += [f'<a href="{p.name}.html">{html.escape(p.title)}</a>' for p in pages]
    return " ".join(links)


def render_page(page: Page, pages: list[Page]) -> str:
    packed = gzip.compress(json.dumps(page.tree, separators=(",", ":")).encode(), 9, mtime=0)
    data = ('<script id="coop-data" type="application/octet-stream">'
            f"{base64.b64encode(packed).decode()}</script>")
    return _TEMPLATE.format(title=html.escape(page.title), css=_asset("page.css"),
                            nav=_nav(pages), about=page.about, data=data,
                            script=_asset("page.js"))


def render_index(pages: list[Page]) -> str:
    items = "\n".join(f'<li><a href="{p.name}.html">{html.escape(p.title)}</a>: {p.about}</li>'
                      for p in pages)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>cuda.coop visualizations</title>\n<style>\n{_asset('page.css')}</style>\n"
            f"</head>\n<body>\n<h1>cuda.coop visualizations</h1>\n"
            f"<p>Which tile elements each thread owns before and after a cooperative "
            f"operation, drawn from the NumPy models the GPU tests check "
            f"(<code>cuda.coop._models</code>).</p>\n<ul>\n{items}\n</ul>\n</body>\n</html>\n")
