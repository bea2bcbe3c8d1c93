"""Pictures of where an array lives: which device holds which block, expected beside actual.

A check about placement fails with two small grids, made from the sharding
and shape of the arrays themselves (never drawn by hand): the layout the check
expected and the layout the answer has. Each cell is one block of the array
(rows by columns; a 1-D array is one column) and lists the devices holding it,
so a block held by several devices (replicated along a mesh axis) shows them
all. `Picture.text()` is what the terminal shows, under the failure's message;
`Picture.html()` is what a notebook shows (grader.notebook).

    expected: float32[8@data,3]     actual: float32[8,3]
         cols 0:3                        cols 0:3
    rows 0:2 | 0,1 |                rows 0:8 | 0-7 |
    rows 2:4 | 2,3 |
    ...
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

_MAX_BLOCKS = 16  # rows or columns drawn per grid; more are elided in the middle


@dataclass(frozen=True)
class Layout:
    """One array's blocks over the devices.

    `rows`/`cols`: the (start, stop) ranges the blocks cover along the two dimensions drawn;
    `holders[i][j]`: the ids of the devices holding block (i, j), sorted.
    """

    title: str
    ndim: int
    dims: tuple[int, ...]  # the array dimensions drawn as rows and columns (0, 1, or 2 of them)
    rows: tuple[tuple[int, int], ...]
    cols: tuple[tuple[int, int], ...]
    holders: tuple[tuple[tuple[int, ...], ...], ...]

    def as_dict(self) -> dict:
        return {"title": self.title, "ndim": self.ndim, "dims": list(self.dims), "rows": [list(r) for r in self.rows],
                "cols": [list(c) for c in self.cols],
                "holders": [[list(cell) for cell in row] for row in self.holders]}

    @classmethod
    def from_dict(cls, data: dict) -> Layout:
        return cls(data["title"], data["ndim"], tuple(data["dims"]), tuple(tuple(r) for r in data["rows"]),
                   tuple(tuple(c) for c in data["cols"]),
                   tuple(tuple(tuple(cell) for cell in row) for row in data["holders"]))


def layout_of(sharding: Any, shape: tuple[int, ...], title: str) -> Layout:
    """The layout of an array of `shape` placed with `sharding` (any jax.sharding.Sharding)."""
    shape = tuple(int(d) for d in shape)
    index_of = {device.id: index for device, index in sharding.devices_indices_map(shape).items()}
    ranges = {device: tuple(part.indices(size)[:2] for part, size in zip(index, shape))
              for device, index in index_of.items()}
    split = [d for d in range(len(shape)) if any(r[d] != (0, shape[d]) for r in ranges.values())]
    dims = tuple(sorted((split + [d for d in range(len(shape)) if d not in split])[:2]))
    blocks: dict[tuple, list[int]] = {}
    for device, block in sorted(ranges.items()):
        blocks.setdefault(tuple(block[d] for d in dims), []).append(device)
    rows = sorted({key[0] for key in blocks}) if dims else [(0, 1)]
    cols = sorted({key[1] for key in blocks}) if len(dims) == 2 else [(0, 1)]
    holders = tuple(tuple(tuple(blocks.get((row, col)[:len(dims)], ())) for col in cols) for row in rows)
    return Layout(title, len(shape), dims, tuple(rows), tuple(cols), holders)


def _dim_name(dim: int, ndim: int) -> str:
    if ndim == 1:
        return ""  # a vector: its index ranges say enough
    return {0: "rows", 1: "cols"}.get(dim, f"dim {dim}")


def layout_of_array(x: Any, title: str) -> Layout:
    """The layout of a jax.Array, titled with `title` and its type."""
    import jax

    return layout_of(x.sharding, x.shape, f"{title}: {jax.typeof(x)}")


def device_list(ids: tuple[int, ...]) -> str:
    """(0, 1, 2, 3) -> "0-3"; (0, 1) -> "0,1"; (0, 4) -> "0,4"; () -> "-"."""
    if not ids:
        return "-"
    runs: list[list[int]] = [[ids[0]]]
    for device in ids[1:]:
        if device == runs[-1][-1] + 1:
            runs[-1].append(device)
        else:
            runs.append([device])
    return ",".join(f"{run[0]}-{run[-1]}" if len(run) > 2 else ",".join(map(str, run)) for run in runs)


def _elided(items: list, limit: int = _MAX_BLOCKS) -> list:
    """The first and last items of a long list, with None where the middle was left out."""
    if len(items) <= limit:
        return items
    half = limit // 2
    return items[:half] + [None] + items[-half:]


def block_labels(layout: Layout) -> tuple[list[str], list[str]]:
    """Labels of the grid's rows and columns: the index ranges each covers."""
    names = [_dim_name(d, layout.ndim) for d in layout.dims]
    rows = [f"{names[0]} {a}:{b}".strip() if names else "" for a, b in layout.rows]
    cols = [f"{names[1]} {a}:{b}" for a, b in layout.cols] if len(names) == 2 else [""] * len(layout.cols)
    return rows, cols


def _grid_lines(layout: Layout) -> list[str]:
    row_label, col_label = block_labels(layout)
    cells = [[device_list(cell) for cell in row] for row in layout.holders]
    width = max([len(c) for row in cells for c in row] + [len(c) for c in col_label] + [3]) + 2
    left = max(len(r) for r in row_label)
    lines = [layout.title]
    col_index = _elided(list(range(len(layout.cols))))
    if any(col_label):
        lines.append(" " * (left + 2) + " ".join(
            ("..." if j is None else col_label[j]).center(width) for j in col_index))
    for i in _elided(list(range(len(layout.rows)))):
        if i is None:
            lines.append(" " * left + "   ...")
            continue
        row = "|".join(("..." if j is None else cells[i][j]).center(width) for j in col_index)
        lines.append(f"{row_label[i]:>{left}} |{row}|")
    return lines


@dataclass(frozen=True)
class Picture:
    """Expected and actual layouts, side by side (the actual one alone when no layout is expected)."""

    expected: Layout | None
    actual: Layout

    @property
    def layouts(self) -> list[Layout]:
        return [layout for layout in (self.expected, self.actual) if layout is not None]

    def text(self) -> str:
        grids = [_grid_lines(layout) for layout in self.layouts]
        height = max(len(grid) for grid in grids)
        widths = [max(len(line) for line in grid) for grid in grids]
        lines = ["    ".join(f"{(grid + [''] * height)[i]:<{width}}" for grid, width in zip(grids, widths)).rstrip()
                 for i in range(height)]
        lines.append(f"({LEGEND})")
        return "\n".join(lines)

    def html(self) -> str:
        tables = "".join(f'<div style="margin-right:2em">{_table(layout)}</div>' for layout in self.layouts)
        return (f'<div class="katas-layout" style="display:flex;align-items:flex-start;font-family:monospace">'
                f'{tables}</div><div style="font-size:smaller">{LEGEND}</div>')

    def as_dict(self) -> dict:
        return {"expected": self.expected.as_dict() if self.expected else None, "actual": self.actual.as_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> Picture:
        expected = data.get("expected")
        return cls(Layout.from_dict(expected) if expected else None, Layout.from_dict(data["actual"]))


LEGEND = "each cell is a block of the array; the numbers are the ids of the devices holding it"


def device_colour(ids: tuple[int, ...]) -> str:
    """One light hue per device (#rrggbb); a block on several devices is grey."""
    import colorsys

    if len(ids) != 1:
        return "#e8e8e8"
    red, green, blue = colorsys.hls_to_rgb((ids[0] * 47 % 360) / 360, 0.85, 0.7)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def _table(layout: Layout) -> str:
    cell = "border:1px solid #888;padding:2px 8px;text-align:center"
    row_label, col_label = block_labels(layout)
    rows = []
    if any(col_label):
        header = "".join(f'<th style="{cell}">{label}</th>' for label in col_label)
        rows.append(f"<tr><th></th>{header}</tr>")
    for label, holders in zip(row_label, layout.holders):
        cells = "".join(f'<td style="{cell};background:{device_colour(ids)}">{device_list(ids)}</td>' for ids in holders)
        rows.append(f'<tr><th style="{cell}">{label}</th>{cells}</tr>')
    return (f"<div><b>{html.escape(layout.title)}</b></div>"
            f'<table style="border-collapse:collapse">{"".join(rows)}</table>')


def picture(expected: Any, actual: Any, *, expected_title: str = "expected",
            actual_title: str = "actual") -> Picture | None:
    """Expected beside actual. `actual` is a jax.Array; `expected` the Sharding it should have had
    (for its shape), a jax.Array laid out as expected, or None when no one layout is expected.
    None when not even the actual layout can be drawn (not an array)."""
    import jax

    try:
        if expected is None:
            wanted = None
        elif isinstance(expected, jax.Array):
            wanted = layout_of_array(expected, expected_title)
        else:
            wanted = layout_of(expected, actual.shape, f"{expected_title}: {_type_under(expected, actual)}")
    except Exception:  # noqa: BLE001 - no such layout (a split that does not divide): the failure says why
        wanted = None
    try:
        return Picture(wanted, layout_of_array(actual, actual_title))
    except Exception:  # noqa: BLE001 - a picture is never worth hiding the failure it illustrates
        return None


def _type_under(sharding: Any, x: Any) -> str:
    """x's type as it would read laid out with `sharding` (`float32[8@data,3]`)."""
    spec = getattr(sharding, "spec", None)
    dims = []
    for d, size in enumerate(x.shape):
        part = spec[d] if spec is not None and d < len(spec) else None
        names = part if isinstance(part, tuple) else ((part,) if part else ())
        dims.append(f"{size}@{','.join(names)}" if names else f"{size}")
    return f"{x.dtype}[{','.join(dims)}]"
