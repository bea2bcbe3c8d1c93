"""Notebooks: `grader notebooks` writes one per topic, and its `%%kata` cells check the cell's code.

The notebooks run for real, headless, in a Jupyter kernel of this interpreter
(a kernel spec written to a temporary folder, so nothing is installed for the
user), on a small copy of the repository holding only the 01_purity
exercises: once with the reference solutions pasted into the code cells, once
with the untouched stubs. Each check cell starts a JAX process, so those two
tests are marked slow.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbclient
import nbformat
import numpy as np
import pytest

from grader import REPO_ROOT
from grader.cli import main
from grader.learner.diagrams import find_block
from grader.core.manifest import load_manifest, select
from grader.learner.cell_checks import CheckResult, check_cell, render
from grader.learner.notebook_writer import lesson_markdown, split_stub
from grader.core.progress import NOTEBOOK_DIR, Progress, fingerprint
from support import PRISTINE, PURITY

KERNEL = "jax-katas-test"
CELL_TIMEOUT = 600  # seconds per cell: a check cell starts a JAX process, slow on a busy machine


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A katas checkout with the purity topic only: the untouched stubs, their checks and solutions."""
    root = tmp_path / "katas"
    (root / "exercises").mkdir(parents=True)
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copyfile(REPO_ROOT / name, root / name)
    for e in PURITY:
        for rel in (f"exercises/{e.path}", f"exercises/{e.check_path}", f"solutions/{e.path}"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(PRISTINE / rel, root / rel)
    blocks = []
    for e in PURITY:  # JSON strings are TOML strings
        fields = {"id": e.id, "path": e.path, "topic": e.topic, "points": e.points, "concept": e.concept,
                  "hints": list(e.hints)}
        blocks.append("[[exercise]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in fields.items()))
    (root / "exercises" / "manifest.toml").write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The name of a kernel spec running this interpreter, found through JUPYTER_PATH (no --user install)."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "JAX Katas tests", "language": "python"}), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.delenv("JAX_KATAS_REAL_DEVICES", raising=False)
    return KERNEL


def write(repo: Path, out: Path, *options: str) -> int:
    return main(["notebooks", str(out), "--repo", str(repo), *options])


def code_cells(notebook) -> dict[str, object]:
    """exercise id -> its `%%kata ID` cell."""
    return {cell.source.split()[1]: cell for cell in notebook.cells
            if cell.cell_type == "code" and cell.source.startswith("%%kata ")}


def execute(notebook, where: Path, kernel: str):
    client = nbclient.NotebookClient(notebook, kernel_name=kernel, timeout=CELL_TIMEOUT, startup_timeout=300,
                                     resources={"metadata": {"path": str(where)}})
    client.execute()
    return notebook


def shown(cell) -> str:
    """Everything a cell printed; errors fail the test (a check cell must never raise)."""
    errors = [output for output in cell.outputs if output.output_type == "error"]
    assert not errors, f"{cell.source.splitlines()[0]} raised {errors[0].ename}: {errors[0].evalue}"
    return "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")


# --- writing ---------------------------------------------------------------------------------


def test_one_notebook_per_topic_in_manifest_order(tmp_path: Path, capsys) -> None:
    exercises = load_manifest(REPO_ROOT / "exercises")
    out = tmp_path / "notebooks"
    assert write(REPO_ROOT, out) == 0
    topics = list(dict.fromkeys(e.path.split("/")[0] for e in exercises))
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.ipynb" for t in topics)
    for topic in topics:
        notebook = nbformat.read(out / f"{topic}.ipynb", as_version=4)
        nbformat.validate(notebook)
        setup = notebook.cells[1]
        assert setup.cell_type == "code" and setup.source.rstrip().endswith("%load_ext grader.learner.notebook")
        assert repr(str(REPO_ROOT)) in setup.source  # the checkout the notebook checks with
        entries = [e for e in exercises if e.path.startswith(f"{topic}/")]
        cells = code_cells(notebook)
        assert list(cells) == [e.id for e in entries]  # every exercise once, in manifest order
        for entry in entries:
            doc, code = split_stub((REPO_ROOT / "exercises" / entry.path).read_text(encoding="utf-8"))
            found = find_block(code)  # a lesson diagram moves from the code to the lesson (test_diagrams)
            code = code.replace(found[1], "", 1).lstrip("\n") if found else code
            assert cells[entry.id].source == f"%%kata {entry.id}\n{code}".rstrip("\n")
            lesson = notebook.cells[notebook.cells.index(cells[entry.id]) - 1]
            assert lesson.cell_type == "markdown" and lesson.source.startswith(f"## {entry.id}: ")
    # Written again, the notebooks (a learner's work) are kept unless asked.
    (out / f"{topics[0]}.ipynb").write_text("my work", encoding="utf-8")
    capsys.readouterr()
    assert write(REPO_ROOT, out, "--only", topics[0]) == 0
    assert "kept" in capsys.readouterr().out
    assert (out / f"{topics[0]}.ipynb").read_text(encoding="utf-8") == "my work"
    assert write(REPO_ROOT, out, "--only", topics[0], "--force") == 0
    nbformat.validate(nbformat.read(out / f"{topics[0]}.ipynb", as_version=4))


def test_the_lesson_is_the_docstring_as_markdown() -> None:
    entry = PURITY[0]
    doc, code = split_stub((PRISTINE / "exercises" / entry.path).read_text(encoding="utf-8"))
    assert doc and not code.startswith('"""')
    text = lesson_markdown(entry, doc)
    assert text.startswith(f"## {entry.id}: {doc.splitlines()[0]}")
    assert "**Task (fix-it):**" in text
    assert "Docs: <https://" in text  # links, not a run-on line of URLs


def test_help_has_examples_and_an_unknown_topic_is_refused(repo: Path, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["notebooks", "--help"])
    assert exited.value.code == 0 and "examples:\n  grader notebooks" in capsys.readouterr().out
    assert write(repo, tmp_path / "out", "--only", "purty") == 2
    assert "did you mean 'purity" in capsys.readouterr().err


def test_a_failure_is_shown_in_the_cells_terms(repo: Path) -> None:
    """Lines of the saved copy are the cell's; checks that fail alike show the lesson once."""
    entry = PURITY[0]
    copy = f"{NOTEBOOK_DIR}/{entry.path}"
    lesson = f"{entry.path} has no `scaled_logits`: the checks use it by that name."
    traceback = f"{copy}:8: in scaled_logits\n    return x\nE   NameError: name 'x' is not defined"
    check = {"passed": False, "reason": "boom", "lesson": lesson, "traceback": traceback}
    result = CheckResult(repo, entry, collected=["a::test_one", "a::test_two", "a::test_three"],
                         checks={"a::test_one": check, "a::test_two": dict(check),
                                 "a::test_three": {**check, "passed": True}})
    text = render(result, PURITY)
    assert f"the {entry.id} cell has no `scaled_logits`" in text
    assert f"Cell {entry.id}, line 8: in scaled_logits" in text and copy not in text
    assert text.count("NameError") == 1 and "the same failure as above: boom" in text
    assert "✓ three" in text and f"✗ {entry.id}: 1 of 3 checks pass" in text
    assert f"%kata hint {entry.id}" in text


def test_a_placement_failure_is_drawn_as_html_in_the_cell(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys) -> None:
    """The picture of where data lives comes as HTML tables; the terminal's text copy leaves the lesson."""
    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    from grader import checks
    from grader.learner.cell_checks import render_parts, show

    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    x = jax.device_put(np.ones((16, 3), np.float32), NamedSharding(mesh, P()))
    drawn = checks.picture(NamedSharding(mesh, P("data")), x)
    check = {"passed": False, "reason": "not split", "lesson": "shard_batch(x) is not split by rows.",
             "traceback": "", "picture": drawn.as_dict()}
    result = CheckResult(repo, PURITY[0], collected=["a::test_one"], checks={"a::test_one": check})
    parts = render_parts(result, PURITY)
    assert [type(part).__name__ for part in parts] == ["str", "Picture", "str"]
    assert "not split by rows" in parts[0] and parts[1] == drawn
    assert drawn.text() in render(result, PURITY)  # as text where no notebook draws it
    shown_html = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown_html.append(obj.data))
    show(result, PURITY)
    assert len(shown_html) == 1 and shown_html[0] == drawn.html()
    assert shown_html[0].count("<table") == 2 and "float32[16@data,3]" in shown_html[0]
    assert drawn.text() not in capsys.readouterr().out  # drawn once, as HTML


def test_checks_that_never_finish_are_a_failure(repo: Path) -> None:
    """A check stuck in compiled code ends the check process (the plugin's watchdog): not done, and why."""
    result = CheckResult(repo, PURITY[0], collected=["a::test_one", "a::test_two"],
                         checks={"a::test_one": {"passed": True, "reason": "", "lesson": "", "traceback": ""}},
                         output=f"!!! timed out after 60 s in {PURITY[0].id} !!!\n", returncode=1)
    assert result.verdict.passed is False and result.verdict.reason == f"timed out after 60 s in {PURITY[0].id}"
    text = render(result, PURITY)
    assert "did not finish" in text and "timed out after 60 s" in text


def test_a_notebook_result_has_the_fingerprint_of_the_same_file_in_exercises(repo: Path) -> None:
    """A cell checked in a notebook and the same code in exercises/ are the same submission."""
    entry = PURITY[0]
    copy = repo / NOTEBOOK_DIR / entry.path
    copy.parent.mkdir(parents=True)
    copy.write_text("# my version\n", encoding="utf-8")
    in_notebook = fingerprint(repo / "exercises", entry, code_dir=repo / NOTEBOOK_DIR)
    assert in_notebook != fingerprint(repo / "exercises", entry)
    (repo / "exercises" / entry.path).write_text("# my version\n", encoding="utf-8")
    assert in_notebook == fingerprint(repo / "exercises", entry)


# --- running -----------------------------------------------------------------------------------


def test_kata_commands_name_the_notebooks_own_commands(repo: Path, capsys) -> None:
    """`%kata hint` and `%kata progress` point at `%kata ...` and the cells, never at `grader ...`."""
    from grader.learner.notebook import _Magic

    magic = _Magic(None, repo, load_manifest(repo / "exercises"))
    first = PURITY[0]
    magic("hint " + first.id)
    out = capsys.readouterr().out
    assert f"Still stuck? `%kata hint {first.id}` again gives a stronger hint." in out
    magic("progress")
    out = capsys.readouterr().out
    assert f"Next: {first.id}. Running its `%%kata {first.id}` cell checks it, `%kata hint {first.id}`" in out
    for _ in first.hints:
        magic("hint " + first.id)
    out = capsys.readouterr().out
    assert f"Once your version passes, `%kata solution {first.id}` shows the reference" in out
    assert "grader " not in out
    assert main(["hint", first.id, "--repo", str(repo)]) == 0  # the terminal's hint still names its own
    assert f"`grader solution {first.id}`" in capsys.readouterr().out


@pytest.mark.slow
def test_solutions_pasted_into_the_cells_pass_and_count_as_done(repo: Path, kernel: str, tmp_path: Path) -> None:
    out = tmp_path / "notebooks"
    assert write(repo, out) == 0
    notebook = nbformat.read(out / "01_purity.ipynb", as_version=4)
    for exercise_id, cell in code_cells(notebook).items():
        entry = next(e for e in PURITY if e.id == exercise_id)
        cell.source = f"%%kata {exercise_id}\n" + (repo / "solutions" / entry.path).read_text(encoding="utf-8")
    execute(notebook, out, kernel)
    assert "8 virtual CPU devices" in shown(notebook.cells[1])
    cells = code_cells(notebook)
    for entry in PURITY:
        assert f"✓ {entry.id} passes" in shown(cells[entry.id]), shown(cells[entry.id])
    assert f"{len(PURITY)} of {len(PURITY)} exercises done" in shown(cells[PURITY[-1].id])
    progress = Progress(repo)  # the checkout's progress file, as `grader progress` reads it
    for entry in PURITY:
        assert progress.is_done(entry)
        assert progress.data["results"][entry.id]["from"] == "notebook"
        assert (repo / NOTEBOOK_DIR / entry.path).is_file()
    # The checks' own files decide validity: a changed check file makes the results out of date.
    check_file = repo / "exercises" / PURITY[0].check_path
    check_file.write_text(check_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert Progress(repo).result(PURITY[0]) is None


@pytest.mark.slow
def test_stubs_fail_with_their_lessons_and_the_notebook_runs_on(repo: Path, kernel: str, tmp_path: Path) -> None:
    out = tmp_path / "notebooks"
    assert write(repo, out) == 0
    notebook = nbformat.read(out / "01_purity.ipynb", as_version=4)
    first = PURITY[0]
    notebook.cells.append(nbformat.v4.new_code_cell(f"%kata hint {first.id}"))
    execute(notebook, out, kernel)  # raises if a cell raised: a failing check must not
    cells = code_cells(notebook)
    progress = Progress(repo)
    for entry in PURITY:
        text = shown(cells[entry.id])
        assert f"✗ {entry.id}: 0 of" in text, text
        assert f"%kata hint {entry.id}" in text
        verdict = progress.result(entry)  # recorded as a failure, with the lesson's first line
        assert verdict is not None and not verdict.passed
        assert " ".join(verdict.reason.split())[:60] in " ".join(text.split()), (verdict.reason, text)
    assert first.hints[0] in " ".join(shown(notebook.cells[-1]).split())
    assert f"`%kata hint {first.id}` again" in shown(notebook.cells[-1])
    assert Progress(repo).hints_shown(first) == 1


@pytest.mark.slow
def test_the_check_process_sends_the_picture_with_the_lesson(tmp_path: Path) -> None:
    """From the check process to the cell: a placement failure's picture travels as data, its text stays out."""
    entry = select(load_manifest(REPO_ROOT / "exercises"), "explicit-1")[0]
    root = tmp_path / "katas"
    for rel in (f"exercises/{entry.path}", f"exercises/{entry.check_path}"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PRISTINE / rel, root / rel)
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copyfile(REPO_ROOT / name, root / name)
    fields = {"id": entry.id, "path": entry.path, "topic": entry.topic, "points": entry.points,
              "concept": entry.concept, "hints": list(entry.hints)}
    (root / "exercises" / "manifest.toml").write_text(
        "[[exercise]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in fields.items()) + "\n")
    replicated = ("import jax\nfrom jax.sharding import PartitionSpec as P\n\n\n"
                  "def shard_batch(x):\n    return jax.device_put(x, P())\n")
    result = check_cell(root, entry, replicated)
    pictured = [c for c in result.checks.values() if c.get("picture")]
    assert pictured, result.output
    check = pictured[0]
    assert "expected the rows split" in check["lesson"] and "each cell is a block" not in check["lesson"]
    assert "@data" in check["picture"]["expected"]["title"]
    # The check process's own terminal output, as plain pytest shows it, draws the grids as text.
    assert "expected: float32[" in result.output and "each cell is a block of the array" in result.output
