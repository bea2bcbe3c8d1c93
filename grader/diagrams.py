"""Small diagrams for the lessons: text art in the exercise stubs, pictures in the notebooks.

A diagram is a few panels joined by labelled arrows, in one or more lines.
Panels about where data lives are layouts of real shardings over four CPU
devices (grader.checks.layout: each cell is a block, listing the devices
holding it); the remat panels list what a real program keeps per layer for the
backward pass (Program.stored_per_step). `text()` is what a stub carries, under
its docstring, as a comment block headed `# Diagram: <name>`; `svg()` is the
picture a generated notebook shows in the lesson instead. The project's tests
check that every stub's block is exactly its diagram's text, so the two never
drift apart.

Building a diagram needs JAX with at least four devices (`grader notebooks`
gives its JAX eight virtual CPUs, as the checks have).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

MARKER = "# Diagram: "  # the first line of a stub's diagram block; the block ends at a blank line
N_DEVICES = 4


@dataclass(frozen=True)
class Panel:
    """A titled grid of cells; `row_labels` name the rows (may be empty)."""

    title: str
    rows: tuple[tuple[str, ...], ...]
    row_labels: tuple[str, ...] = ()
    col_labels: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        width = max(len(cell) for cell in (*self.col_labels, *(c for row in self.rows for c in row))) + 2
        left = max((len(label) for label in self.row_labels), default=0)
        margin = left + 1 if left else 0
        labels = self.row_labels or ("",) * len(self.rows)
        header = [" " * (margin + 1) + " ".join(label.center(width) for label in self.col_labels)]
        body = [f"{label:>{left}}{' ' if left else ''}|" + "|".join(cell.center(width) for cell in row) + "|"
                for label, row in zip(labels, self.rows)]
        return [self.title, *(header if any(self.col_labels) else []), *body]


@dataclass(frozen=True)
class Arrow:
    label: str

    def lines(self, height: int) -> list[str]:
        arrow = f"--{self.label}-->"
        middle = height // 2
        return [arrow if i == middle else " " * len(arrow) for i in range(height)]


@dataclass(frozen=True)
class Diagram:
    name: str
    caption: str
    lines_of_parts: tuple[tuple[Panel | Arrow, ...], ...]

    def text(self) -> str:
        out: list[str] = []
        for parts in self.lines_of_parts:
            height = max(len(p.lines()) for p in parts if isinstance(p, Panel))
            columns = []
            for part in parts:
                lines = part.lines(height) if isinstance(part, Arrow) else part.lines()
                lines = lines + [""] * (height - len(lines))
                width = max(len(line) for line in lines)
                columns.append([f"{line:<{width}}" for line in lines])
            if out:
                out.append("")
            out += ["  ".join(column[i] for column in columns).rstrip() for i in range(height)]
        return "\n".join(out)

    def comment(self) -> str:
        """The block a stub carries under its docstring."""
        lines = [f"{MARKER}{self.name}", f"#   {self.caption}", "#", *(f"#   {line}".rstrip()
                                                               for line in self.text().splitlines())]
        return "\n".join(lines)

    def svg(self) -> str:
        """The same diagram drawn: cells as boxes, arrows as arrows."""
        cell_w, cell_h, title_h, pad, char_w = 64, 22, 20, 10, 7.5
        shapes: list[str] = []
        y = pad
        width = 0.0
        for parts in self.lines_of_parts:
            x = float(pad)
            tallest = max(len(p.rows) + bool(any(p.col_labels)) for p in parts if isinstance(p, Panel))
            for part in parts:
                if isinstance(part, Arrow):
                    length = max(80.0, len(part.label) * 6.5 + 24)
                    mid = y + title_h + tallest * cell_h / 2
                    shapes.append(f'<line x1="{x}" y1="{mid}" x2="{x + length - 8}" y2="{mid}" stroke="#333" '
                                  f'marker-end="url(#head)"/>')
                    shapes.append(_label(x + length / 2, mid - 6, part.label, size=10))
                    x += length + pad
                    continue
                left = max((len(label) for label in part.row_labels), default=0) * char_w + (
                    6 if part.row_labels else 0)
                columns = max(len(row) for row in part.rows)
                grid = left + columns * cell_w
                span = max(grid, len(part.title) * char_w)
                start = x + (span - grid) / 2  # the grid centred under its title
                shapes.append(_label(x + span / 2, y + 14, part.title, bold=True))
                header = cell_h if any(part.col_labels) else 0
                for j, label in enumerate(part.col_labels if header else ()):
                    shapes.append(_label(start + left + j * cell_w + cell_w / 2, y + title_h + 15, label, size=10))
                for i, row in enumerate(part.rows):
                    top = y + title_h + header + i * cell_h
                    if part.row_labels:
                        shapes.append(_label(start + left - 6, top + 15, part.row_labels[i], anchor="end"))
                    for j, cell in enumerate(row):
                        shapes.append(f'<rect x="{start + left + j * cell_w}" y="{top}" width="{cell_w}" '
                                      f'height="{cell_h}" fill="{_fill(cell)}" stroke="#666"/>')
                        shapes.append(_label(start + left + j * cell_w + cell_w / 2, top + 15, cell))
                x += span + pad
            width = max(width, x)
            y += title_h + tallest * cell_h + 2 * pad
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + pad:.0f}" height="{y}" '
                f'font-family="monospace" font-size="12"><defs><marker id="head" markerWidth="8" '
                f'markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#333"/>'
                f'</marker></defs>{"".join(shapes)}</svg>')


def _label(x: float, y: float, text: str, *, bold: bool = False, size: int = 12, anchor: str = "middle") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x}" y="{y}" text-anchor="{anchor}" font-size="{size}"{weight}>'
            f'{html.escape(text)}</text>')


def _fill(cell: str) -> str:
    """One hue per device when a cell names one device, grey otherwise (as the failure pictures)."""
    from grader.checks.layout import device_colour

    return device_colour((int(cell),)) if cell.strip().isdigit() else "#eeeeee"


# --- the diagrams --------------------------------------------------------------------------------


def _layout_panel(title: str, mesh_shape: tuple[int, ...], names: tuple[str, ...], spec: tuple,
                  shape: tuple[int, ...]) -> Panel:
    """A panel of where an array of `shape` lives, laid out as `spec` on a mesh of the first devices."""
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from grader.checks.layout import block_labels, device_list, layout_of

    devices = jax.devices()
    if len(devices) < N_DEVICES:
        raise RuntimeError(f"drawing the lesson diagrams needs JAX with {N_DEVICES} devices; it has {len(devices)}")
    mesh = Mesh(np.array(devices[:int(np.prod(mesh_shape))]).reshape(mesh_shape), names)
    layout = layout_of(NamedSharding(mesh, PartitionSpec(*spec)), shape, title)
    rows, cols = block_labels(layout)
    cols = tuple(label.removeprefix("cols ") for label in cols) if len(cols) > 1 else ()  # short: panels sit in a row
    return Panel(title, tuple(tuple(device_list(cell) for cell in row) for row in layout.holders), tuple(rows), cols)


def rows_and_columns() -> Diagram:
    """08 mesh_2d: row bands copied across 'model', column bands copied across 'data', their product."""
    mesh, names = (2, 2), ("data", "model")
    return Diagram("rows and columns", "on a (2, 2) mesh; each cell is a block, listing the devices holding it", ((
        _layout_panel("batch P('data', None)", mesh, names, ("data", None), (4, 4)),
        Arrow("@"),
        _layout_panel("weights P(None, 'model')", mesh, names, (None, "model"), (4, 4)),
        Arrow("="),
        _layout_panel("product P('data', 'model')", mesh, names, ("data", "model"), (4, 4)),
    ),))


def reshard_transpose() -> Diagram:
    """13 reshard_to_match: a's row bands, a.T's column bands, and the all-to-all that re-splits a.T."""
    mesh, names = (N_DEVICES,), ("data",)
    return Diagram("reshard", "a.T is split by columns; jax.reshard moves it back to rows, in one all-to-all", ((
        _layout_panel("a: f32[4@data,4]", mesh, names, ("data",), (4, 4)),
        Arrow(".T"),
        _layout_panel("a.T: f32[4,4@data]", mesh, names, (None, "data"), (4, 4)),
        Arrow("all-to-all"),
        _layout_panel("reshard(a.T)", mesh, names, ("data",), (4, 4)),
    ),))


def partial_products() -> Diagram:
    """13 ambiguous_contraction: each device's partial product, then all-reduce (copies) or reduce-scatter."""
    mesh, names = (N_DEVICES,), ("data",)
    devices = tuple(f"device {i}" for i in range(N_DEVICES))
    partials = Panel("partial products", tuple((f"x{i} @ w{i}",) for i in range(N_DEVICES)), devices)
    return Diagram("partial products", "each device's partial product is whole-sized; summed, it comes out "
                   "whole on each device or split", (
        (partials, Arrow("all-reduce"), Panel("out_sharding=P()", (("the sum",),) * N_DEVICES, devices)),
        (partials, Arrow("reduce-scatter"),
         _layout_panel("out_sharding=P('data')", mesh, names, ("data",), (4, 2))),
    ))


def remat_residuals() -> Diagram:
    """17 remat_scan: what each layer keeps for the backward pass, without and with jax.checkpoint."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    from grader.checks import program_of

    def layer(x, w):
        return jnp.tanh(x @ w), None

    layers = 4
    panels = []
    for title, step in (("lax.scan(layer, x, ws)", layer), ("lax.scan(jax.checkpoint(layer), x, ws)",
                                                             jax.checkpoint(layer))):
        def loss(ws, x, step=step):
            return jnp.mean(lax.scan(step, x, ws)[0] ** 2)

        kept = program_of(jax.grad(loss), jnp.ones((layers, 3, 3)), jnp.ones((2, 3)), what="grad").stored_per_step()
        names = tuple({"input": "x"}.get(value.source, value.source) for value in kept)
        panels.append(Panel(title, tuple(names for _ in range(layers)),
                            tuple(f"layer {i + 1}" for i in range(layers))))
    return Diagram("remat", "kept per layer for the backward pass (x: the layer's input; tanh, sub: values "
                   "computed from it)", ((panels[0], Arrow("checkpoint the step"), panels[1]),))


DIAGRAMS: dict[str, Callable[[], Diagram]] = {
    "rows and columns": rows_and_columns,
    "reshard": reshard_transpose,
    "partial products": partial_products,
    "remat": remat_residuals,
}
# Which stub carries which diagram (the notebooks and the tests read this).
STUBS = {
    "08_sharding/mesh_2d.py": "rows and columns",
    "13_explicit_sharding/reshard_to_match.py": "reshard",
    "13_explicit_sharding/ambiguous_contraction.py": "partial products",
    "17_memory/remat_scan.py": "remat",
}


def diagram(name: str) -> Diagram:
    return DIAGRAMS[name]()


def find_block(code: str) -> tuple[str, str] | None:
    """(the diagram's name, its comment block as written) in a stub's code, or None."""
    lines = code.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(MARKER):
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith("#")), len(lines))
            return line[len(MARKER):].strip(), "\n".join(lines[i:end])
    return None
