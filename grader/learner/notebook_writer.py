"""`grader notebooks OUT/`: the katas as notebooks, one per topic, in manifest order.

Each opens with a set-up cell (`%load_ext grader.learner.notebook`); then, for
each exercise, its lesson (the stub's docstring, its diagram drawn) as markdown
and its code in a cell headed `%%kata ID`, which checks the cell when it runs
(grader.learner.notebook). The code cells start from the learner's exercises/
files as they are.
"""

from __future__ import annotations

import ast
import base64
import re
import textwrap
from pathlib import Path

from grader.core.files import write_atomically
from grader.core.manifest import Exercise
from grader.core.selection import UsageProblem, choose
from grader.learner.cell_checks import N_DEVICES, topic_folder
from grader.learner.diagrams import find_block
from grader.learner.learn import Course, say


def split_stub(source: str) -> tuple[str, str]:
    """(the module docstring, the code after it); ("", source) when there is none or it cannot parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "", source
    doc = ast.get_docstring(tree, clean=True)
    if doc is None:
        return "", source
    rest = source.splitlines(keepends=True)[tree.body[0].end_lineno:]
    return doc, "".join(rest).lstrip("\n")


_URL = re.compile(r"https?://\S+")


def lesson_markdown(exercise: Exercise, doc: str) -> str:
    """The lesson as markdown: the docstring's first line as the heading, links, the task in bold."""
    title, _, body = doc.partition("\n")
    out = [f"## {exercise.id}: {title.strip()}", "", f"*{exercise.concept}*", ""]
    links: list[str] = []

    def flush_links() -> None:
        if links:
            out.extend(["", "Docs: " + " · ".join(f"<{url}>" for url in links), ""])
            links.clear()

    for line in body.strip("\n").splitlines():
        stripped = line.strip()
        if stripped.startswith("Docs:") or (links and _URL.fullmatch(stripped)):
            links.extend(_URL.findall(stripped))
            continue
        flush_links()
        task = re.match(r"^(Task \([a-z-]+\):)(.*)$", line)
        out.append(f"**{task.group(1)}**{task.group(2)}" if task else line)
    flush_links()
    text = "\n".join(out).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text) + "\n"


def setup_source(repo: Path) -> str:
    """The first code cell: load the magic, installing the katas first in a fresh Colab runtime."""
    return textwrap.dedent(f"""\
        # Set-up: run this cell first, each time the kernel starts.
        KATAS = {str(repo)!r}  # the katas checkout these notebooks check with, and record progress in
        import importlib, importlib.util, os, subprocess, sys
        if "google.colab" in sys.modules:  # a fresh Colab runtime has neither your Drive nor the katas
            if KATAS.startswith("/content/drive/") and not os.path.isdir(KATAS):
                from google.colab import drive
                drive.mount("/content/drive")
            if importlib.util.find_spec("grader") is None:
                subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-e", KATAS + "[notebooks]"],
                               check=True)
                importlib.invalidate_caches()
        if importlib.util.find_spec("grader") is None:  # installed, but not importable in this kernel yet
            sys.path.insert(0, KATAS)
        %load_ext grader.learner.notebook""")


def intro_markdown(folder: str, entries: list[Exercise]) -> str:
    number, _, name = folder.partition("_")
    first = entries[0].id
    count = f"{len(entries)} exercise{'s' * (len(entries) != 1)}"
    return textwrap.dedent(f"""\
        # JAX Katas {number}: {name.replace("_", " ")}

        {count}. For each: read the lesson, edit the code cell below it, and run it
        (Shift+Enter). The `%%kata {first}` line on top runs your code here, then runs the
        exercise's checks on it in a separate process with {N_DEVICES} virtual CPU devices, and
        shows what is still wrong, in JAX terms. A pass counts in your progress
        (`%kata progress` here, or `grader progress` in a terminal).

        Stuck? `%kata hint {first}` shows a hint, gentle first, one more each time.
        Run the set-up cell below first, each time the kernel starts.
        """)


def diagram_markdown(name: str, block: str) -> str:
    """A lesson diagram as an image (SVG, inline); its text art as a fallback where it cannot be drawn."""
    from grader.learner.diagrams import DIAGRAMS, diagram  # imports JAX: only when drawing

    try:
        drawn = diagram(name) if name in DIAGRAMS else None
    except Exception:  # noqa: BLE001 - JAX without the devices a diagram needs: the text art says the same
        drawn = None
    if drawn is None:
        art = "\n".join(line[4:] if line.startswith("#   ") else line.lstrip("#") for line in block.splitlines()[1:])
        return f"```text\n{art.strip()}\n```\n"
    data = base64.b64encode(drawn.svg().encode("utf-8")).decode("ascii")
    return f"![{name}: {drawn.caption}](data:image/svg+xml;base64,{data})\n\n*{drawn.caption}*\n"


def build_notebook(repo: Path, folder: str, entries: list[Exercise]):
    """The notebook of one topic (an nbformat NotebookNode)."""
    import nbformat.v4 as nbf

    def cell(make, source: str, cell_id: str):
        made = make(source)
        made.id = cell_id
        return made

    cells = [cell(nbf.new_markdown_cell, intro_markdown(folder, entries), "intro"),
             cell(nbf.new_code_cell, setup_source(repo), "setup")]
    for entry in entries:
        source = (repo / "exercises" / entry.path).read_text(encoding="utf-8")
        doc, code = split_stub(source)
        lesson = lesson_markdown(entry, doc or entry.concept)
        found = find_block(code)
        if found is not None:  # the stub's diagram: a picture in the lesson instead of comments in the code
            name, block = found
            code = code.replace(block, "", 1).lstrip("\n")
            lesson += "\n" + diagram_markdown(name, block)
        cells.append(cell(nbf.new_markdown_cell, lesson, f"{entry.id}-lesson"))
        cells.append(cell(nbf.new_code_cell, f"%%kata {entry.id}\n{code}".rstrip("\n"), f"{entry.id}-code"))
    notebook = nbf.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


def by_topic(exercises) -> dict[str, list[Exercise]]:
    """Topic folder -> its exercises, both in manifest order."""
    topics: dict[str, list[Exercise]] = {}
    for entry in exercises:
        topics.setdefault(topic_folder(entry), []).append(entry)
    return topics


def write_notebooks(repo: Path, out: Path, exercises, force: bool = False) -> list[tuple[Path, str]]:
    """Write one notebook per topic into `out`; (path, "wrote" | "kept") for each topic."""
    import nbformat

    out.mkdir(parents=True, exist_ok=True)
    done = []
    for folder, entries in by_topic(exercises).items():
        path = out / f"{folder}.ipynb"
        if path.exists() and not force:
            done.append((path, "kept"))
            continue
        notebook = build_notebook(repo, folder, entries)
        nbformat.validate(notebook)
        write_atomically(path, nbformat.writes(notebook) + "\n")
        done.append((path, "wrote"))
    return done


def write_course_notebooks(course: Course, out: Path, only: str | None = None, force: bool = False) -> int:
    """Write the notebooks of the course's exercises (or those `only` names) into `out`, saying
    which it wrote and which it kept; needs nbformat (the notebooks extra)."""
    try:
        import nbformat  # noqa: F401
    except ImportError:
        raise UsageProblem("writing notebooks needs nbformat: python -m pip install -e \".[notebooks]\" "
                           "(in the katas checkout)") from None
    exercises = choose(course.exercises, only) if only else course.exercises
    _cpu_devices_for_diagrams()
    for path, what in write_notebooks(course.repo, out, exercises, force=force):
        if what == "wrote":
            say(f"wrote {path}")
        else:
            say(f"kept  {path}: it is there already (your work?); --force writes over it")
    say("", "Open them in Jupyter (jupyter lab, VS Code) or Colab and run the set-up cell first; "
            "in each exercise's cell, the %%kata line runs its checks.")
    return 0


def _cpu_devices_for_diagrams() -> None:
    """The lesson diagrams lay arrays out over a few devices: give this process's JAX virtual CPUs."""
    import jax

    try:
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", N_DEVICES)
    except RuntimeError:
        pass  # started already (a caller's JAX): diagrams it cannot draw stay text
