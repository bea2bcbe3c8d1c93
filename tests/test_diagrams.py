"""Lesson diagrams: the stubs carry them as text art, the notebooks show them as pictures, and both come
from the same drawing (grader.learner.diagrams), so they cannot drift apart."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ElementTree

import pytest

from grader.learner.diagrams import DIAGRAMS, STUBS, diagram, find_block
from grader.core.manifest import load_manifest
from support import ALL_EXERCISES, PRISTINE


@pytest.mark.parametrize("path, name", STUBS.items(), ids=list(STUBS))
def test_the_stub_carries_its_diagram_as_drawn(path: str, name: str) -> None:
    code = (PRISTINE / "exercises" / path).read_text(encoding="utf-8")  # as committed
    found = find_block(code)
    assert found is not None, f"{path}: no `# Diagram: {name}` block under the docstring"
    assert found == (name, diagram(name).comment()), \
        f"{path}: the diagram differs from its drawing; paste grader.learner.diagrams.diagram({name!r}).comment()"


def test_every_diagram_block_is_a_known_one_in_its_place() -> None:
    for entry in ALL_EXERCISES:
        found = find_block((PRISTINE / "exercises" / entry.path).read_text(encoding="utf-8"))
        assert (found[0] if found else None) == STUBS.get(entry.path), entry.path
    assert set(STUBS.values()) == set(DIAGRAMS)


def test_the_topics_of_where_data_lives_and_of_memory_have_diagrams() -> None:
    topics = {path.split("/")[0] for path in STUBS}
    assert {"08_sharding", "13_explicit_sharding", "17_memory"} <= topics


@pytest.mark.parametrize("name", DIAGRAMS)
def test_the_picture_is_an_svg_with_every_panel(name: str) -> None:
    drawn = diagram(name)
    root = ElementTree.fromstring(drawn.svg())
    texts = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
    for parts in drawn.lines_of_parts:
        for part in parts:
            title = getattr(part, "title", None) or getattr(part, "label", None)
            assert title in texts, f"{name}: {title!r} is not drawn"


def test_a_notebook_shows_the_diagram_as_an_image_not_as_comments(tmp_path) -> None:
    nbformat = pytest.importorskip("nbformat")
    from grader.learner.notebook_writer import build_notebook

    entries = [e for e in load_manifest(PRISTINE / "exercises") if e.path.startswith("13_explicit_sharding/")]
    notebook = build_notebook(PRISTINE, "13_explicit_sharding", entries)
    nbformat.validate(notebook)
    cells = {cell.id: cell.source for cell in notebook.cells}
    lesson, code = cells["explicit-3-lesson"], cells["explicit-3-code"]
    image = re.search(r"!\[reshard: [^\]]*\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)\)", lesson)
    assert image, lesson
    svg = base64.b64decode(image.group(1)).decode("utf-8")
    assert svg == diagram("reshard").svg() and "all-to-all" in svg
    assert "# Diagram:" not in code and code.startswith("%%kata explicit-3\nimport jax")
    assert "# Diagram:" not in cells["explicit-1-code"] and "data:image" not in cells["explicit-1-lesson"]
