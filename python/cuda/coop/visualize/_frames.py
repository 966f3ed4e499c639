"""Pictures as data: the panels of one drawing and the tree of control
values that selects it.

A page embeds one tree. Each level is a control; each option leads to the
next level, and the last to a frame (the panels drawn for that combination).
Sibling frames mostly differ in a few cells (one more valid item), so a
frame is stored as the cells that changed from the previous sibling when
that is shorter; the page's script undoes this encoding and knows nothing
about the operations.
"""

from __future__ import annotations

import dataclasses

# Cell colours: a hue in [0, 1) keyed by tile position or thread, or one of
# these two.
GRAY = -1      # unspecified, not read, not written
SPECIAL = -2   # a value the call supplies: oob_default, fill


@dataclasses.dataclass
class Panel:
    """One picture: `kind` "threads" (rows of `ipt` cells per thread) or
    "memory" (the tile's elements in order)."""
    title: str
    kind: str
    ipt: int
    labels: list[str]
    colors: list[float]

    def encode(self) -> dict:
        return {"title": self.title, "kind": self.kind, "ipt": self.ipt,
                "labels": self.labels, "colors": [round(c, 3) for c in self.colors]}


@dataclasses.dataclass
class Frame:
    panels: list[Panel]
    caption: str = ""

    def encode(self) -> dict:
        return {"caption": self.caption, "panels": [p.encode() for p in self.panels]}


def hue(k: int, count: int) -> float:
    return k / max(count, 1)


def _diff(previous: dict, frame: dict):
    """The changed cells of `frame` against `previous`, or None where the
    panels differ in shape or title."""
    if len(previous["panels"]) != len(frame["panels"]):
        return None
    cells = []
    for p, (old, new) in enumerate(zip(previous["panels"], frame["panels"])):
        if (old["title"], old["kind"], old["ipt"], len(old["labels"])) != (
                new["title"], new["kind"], new["ipt"], len(new["labels"])):
            return None
        for i, (a, b, c, d) in enumerate(zip(old["labels"], new["labels"], old["colors"],
                                             new["colors"])):
            if (a, c) != (b, d):
                cells.append([p, i, b, d])
    return {"caption": frame["caption"], "set": cells}


def encode_level(control: str, options: list[tuple[str, object]], widget: str = "select",
                 default: str | None = None) -> dict:
    """One level of the tree: `options` pairs a value's label with its
    subtree (an encoded level) or its Frame; `widget` is "select", or
    "range" for a slider over ordered values; `default` is the value shown
    first (the first option without one)."""
    encoded, previous = [], None
    for value, child in options:
        if isinstance(child, Frame):
            full = child.encode()
            delta = _diff(previous, full) if previous is not None else None
            cells = sum(len(p["labels"]) for p in full["panels"])
            short = delta is not None and 2 * len(delta["set"]) < cells
            encoded.append([value, {"delta": delta} if short else {"full": full}])
            previous = full
        else:
            encoded.append([value, child])
    return {"control": control, "widget": widget, "options": encoded,
            "default": options[0][0] if default is None else default}
