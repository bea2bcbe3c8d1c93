"""The katas in a notebook: `grader notebooks OUT/` and the `%%kata` magic that checks a cell.

`grader notebooks OUT/` writes one notebook per topic, in manifest order. It
opens with a set-up cell (`%load_ext grader.notebook`); then, for each
exercise, its lesson (the stub's docstring) as markdown and its code in a cell
headed `%%kata ID`. Running that cell runs the code in the kernel, as any
cell, and then checks it: the cell's source is saved as the exercise's file in
`.katas-notebook/` in the katas checkout (a folder shaped like exercises/:
`NN_topic/<name>.py`, line numbers as in the cell), and the exercise's own
checks run on it in a fresh pytest process (`--target .katas-notebook`), which
gets 8 virtual CPU devices whatever this kernel's JAX has done, or the real
ones with JAX_KATAS_REAL_DEVICES=1. The cell shows what a learner needs of that
run: each check, passed or failed with its lesson.

The result goes into the checkout's progress file, the one a learner's pytest
run and `grader progress` use, under the fingerprint the checks would have if
the exercise file held the cell's code (grader.progress.fingerprint with
`code_dir`), marked as a notebook result: it stays valid while the saved copy
and the checks are unchanged. Each exercise keeps its latest result, from a
notebook or from pytest.

`%kata hint [ID]`, `%kata progress` and `%kata solution ID` are the grader
commands of the same names. This module is also the pytest plugin (`-p
grader.notebook`) that hands the check process's results back to the magic.
"""

from __future__ import annotations

import argparse
import ast
import base64
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.diagrams import find_block
from grader.files import write_atomically
from grader.manifest import Exercise
from grader.progress import NOTEBOOK_DIR, Progress, Verdict, fingerprint, judge, percent

REPORT_ENV = "KATAS_NOTEBOOK_REPORT"  # where the check process writes its results (set by the magic)
N_DEVICES = 8  # as grader.plugin; not imported from there, which would load pytest into the kernel
REAL_DEVICES_ENV = "JAX_KATAS_REAL_DEVICES"
WIDTH = 100  # lessons are wrapped to this many columns


def topic_folder(exercise: Exercise) -> str:
    return exercise.path.split("/")[0]


# --- writing the notebooks ---------------------------------------------------------------


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
        %load_ext grader.notebook""")


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
    from grader.diagrams import DIAGRAMS, diagram

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


def _notebooks_parser(commands) -> None:
    from grader.cli import _example

    parser = commands.add_parser(
        "notebooks", help="write the exercises as Jupyter/Colab notebooks, one per topic",
        description="Write one notebook per topic into OUT, in teaching order: each exercise's lesson, "
                    "its code in a cell headed `%%kata ID` that runs the exercise's checks on the cell "
                    "when you run it, and a set-up cell. Results count in your progress file. The code "
                    "cells start from your exercises/ files as they are now. Needs the notebooks "
                    "extra: python -m pip install -e \".[notebooks]\".")
    _example(parser, "grader notebooks notebooks/                  # then: jupyter lab notebooks/",
             "grader notebooks notebooks/ --only purity,jit_tracing",
             "grader notebooks notebooks/ --force          # write over notebooks already there",
             "grader notebooks /content/drive/MyDrive/jax-katas/notebooks   # Colab, in your Drive")
    parser.add_argument("out", help="the folder to write the notebooks into (made if missing)")
    parser.add_argument("--only", metavar="IDS",
                        help="only these topics or exercises: ids, topics or topic folders, comma-separated")
    parser.add_argument("--force", action="store_true",
                        help="write over notebooks already in OUT (your work in them is lost); by default "
                             "they are kept")
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the katas checkout to work in (default: the one you are in, else the one the "
                             "grader was installed from)")
    parser.add_argument("--assignment", metavar="NAME",
                        help="only this assignment's exercises (an [[assignment]] table of the manifest)")
    parser.set_defaults(run=notebooks_command)


def notebooks_command(args: argparse.Namespace) -> int:
    from grader.cli import UsageProblem, choose
    from grader.learn import course_from, say

    try:
        import nbformat  # noqa: F401
    except ImportError:
        raise UsageProblem("writing notebooks needs nbformat: python -m pip install -e \".[notebooks]\" "
                           "(in the katas checkout)") from None
    course = course_from(args)
    exercises = choose(course.exercises, args.only) if args.only else course.exercises
    _cpu_devices_for_diagrams()
    for path, what in write_notebooks(course.repo, Path(args.out).expanduser(), exercises, force=args.force):
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


PARSERS: list = [_notebooks_parser]  # registered by grader.cli


# --- checking a cell ------------------------------------------------------------------------


@dataclass
class CheckResult:
    """What one check run proved about one exercise's notebook code."""

    repo: Path
    exercise: Exercise
    collected: list[str] = field(default_factory=list)  # nodeids, in run order
    checks: dict[str, dict] = field(default_factory=dict)  # nodeid -> passed, reason, lesson, traceback
    output: str = ""  # the check process's own output (shown when it did not finish)
    returncode: int = 0
    seconds: float = 0.0
    recorded: bool = False  # written to the progress file

    @property
    def verdict(self) -> Verdict | None:
        """As a learner's pytest run judges it; a run that ended before its checks did is a failure."""
        outcomes = {nodeid: Verdict(bool(c["passed"]), c["reason"]) for nodeid, c in self.checks.items()}
        found = judge(self.collected, outcomes, whole=True)
        if found is None and self.collected and not self.finished and self.returncode != 0:
            stuck = re.search(r"timed out after [0-9.]+ s in \S+", self.output)  # the plugin's watchdog
            return Verdict(False, stuck.group() if stuck else f"the checks ended early (exit status "
                                                              f"{self.returncode})")
        return found

    @property
    def finished(self) -> bool:
        return bool(self.collected) and all(nodeid in self.checks for nodeid in self.collected)


def notebook_dir(repo: Path) -> Path:
    return repo / NOTEBOOK_DIR


def save_cell(repo: Path, exercise: Exercise, body: str) -> Path:
    """Save a cell's code as the exercise's file in the notebook folder; its path.

    Line 1 is a comment standing for the `%%kata` line, so the lines of the file
    are the lines of the cell.
    """
    path = notebook_dir(repo) / exercise.path
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f"# {exercise.id}, from a notebook cell (line 1 there is the %%kata line)\n{body.rstrip()}\n"
    path.write_text(text, encoding="utf-8")
    return path


def check_cell(repo: Path, exercise: Exercise, body: str, *, timeout: float | None = None) -> CheckResult:
    """Run the exercise's checks on `body` in a fresh pytest process; record the result as a notebook result."""
    save_cell(repo, exercise, body)
    checks_dir = repo / "exercises"
    digest = fingerprint(checks_dir, exercise, code_dir=notebook_dir(repo))
    result = CheckResult(repo, exercise)
    with tempfile.TemporaryDirectory(prefix="katas-notebook-") as scratch:
        report = Path(scratch) / "report.json"
        env = {**os.environ, REPORT_ENV: str(report)}
        command = [sys.executable, "-m", "pytest", "-q", "--color=no", "-p", "grader.notebook",
                   "--target", str(notebook_dir(repo)), f"exercises/{exercise.check_path}"]
        started = time.monotonic()
        child = subprocess.Popen(command, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
        try:
            result.output, _ = child.communicate(timeout=timeout)
        except BaseException:  # interrupted (the notebook's stop button) or past the timeout
            _end(child)
            raise
        result.seconds = time.monotonic() - started
        result.returncode = child.returncode
        if report.is_file():
            data = json.loads(report.read_text(encoding="utf-8"))
            result.collected, result.checks = data["collected"], data["checks"]
    verdict = result.verdict
    if verdict is not None and fingerprint(checks_dir, exercise, code_dir=notebook_dir(repo)) == digest:
        progress = Progress(repo)
        progress.record(exercise, digest, verdict, source="notebook")
        progress.set_current(exercise)  # the learner is on the cell just run
        try:
            progress.save()
            result.recorded = True
        except OSError:
            pass  # a read-only checkout: the cell still shows the result
    return result


def _end(child: subprocess.Popen) -> None:
    """Stop the check process and whatever it started (it leads its own session)."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    child.wait()


def check_name(nodeid: str) -> str:
    """`exercises/01_purity/test_x.py::test_follows_changes` -> `follows changes`."""
    name = nodeid.rpartition("::")[2]
    return name.removeprefix("test_").replace("_", " ")


def _wrap(text: str) -> str:
    lines = []
    for line in text.splitlines():
        plain = line and not line[0].isspace() and len(line) > WIDTH
        lines.append(textwrap.fill(line, WIDTH, break_long_words=False, break_on_hyphens=False)
                     if plain else line)
    return "\n".join(lines)


def _in_cell_terms(lesson: str, traceback: str, result: CheckResult) -> tuple[str, str]:
    """The lesson and traceback naming the cell, not its saved copy (whose lines are the cell's).

    A frame in the copy reads `Cell purity-1, line 8:`; the lesson's
    `01_purity/global_config.py has no ...` reads `the purity-1 cell has no ...`.
    """
    exercise = result.exercise
    copy = notebook_dir(result.repo) / exercise.path
    for place in sorted({str(copy), copy.relative_to(result.repo).as_posix()}, key=len, reverse=True):
        traceback = re.sub(rf"(?m)^{re.escape(place)}:(\d+):",
                           lambda match: f"Cell {exercise.id}, line {match.group(1)}:", traceback)
    lesson = re.sub(rf"(?<![\w./-]){re.escape(exercise.path)}\b", f"the {exercise.id} cell", lesson)
    return lesson, traceback


GREEN, RED, BOLD, RESET = "\x1b[1;32m", "\x1b[1;31m", "\x1b[1m", "\x1b[0m"


def render(result: CheckResult, exercises) -> str:
    """What the cell shows, as text: each check, a lesson under each failure, and what comes next."""
    return "\n".join(part if isinstance(part, str) else part.text() for part in render_parts(result, exercises))


def render_parts(result: CheckResult, exercises) -> list:
    """What the cell shows, in order: text, and the pictures of where data lives
    (grader.checks.layout.Picture), which a notebook draws as HTML."""
    from grader.checks.layout import Picture

    exercise = result.exercise
    verdict = result.verdict
    passed = sum(1 for c in result.checks.values() if c["passed"])
    total = len(result.collected)
    parts: list = []
    lines: list[str] = []
    if verdict is not None and verdict.passed:
        lines.append(f"{GREEN}✓ {exercise.id} passes{RESET}: all {total} checks ({result.seconds:.1f} s).")
    else:
        lines.append(f"{RED}✗ {exercise.id}: {passed} of {total} checks pass{RESET} ({result.seconds:.1f} s).")
        shown: list[tuple[str, str]] = []
        for nodeid in result.collected:
            check = result.checks.get(nodeid)
            if check is None:
                lines += ["", f"{BOLD}? {check_name(nodeid)}{RESET}: did not finish"]
                continue
            if check["passed"]:
                lines += ["", f"✓ {check_name(nodeid)}"]
                continue
            lines += ["", f"{BOLD}✗ {check_name(nodeid)}{RESET}"]
            lesson, traceback = _in_cell_terms(check["lesson"], check["traceback"], result)
            same = (lesson, traceback.rstrip().rpartition("\n")[2])
            if same in shown:  # the checks often fail alike: one copy of the lesson is enough
                lines.append(f"the same failure as above: {check['reason']}")
                continue
            shown.append(same)
            shown_text = "\n".join(part for part in (_wrap(lesson), traceback) if part)
            lines.append(shown_text.rstrip() or check["reason"])
            if check.get("picture"):
                parts += ["\n".join(lines), Picture.from_dict(check["picture"])]
                lines = []
    if not result.finished:
        tail = "\n".join(result.output.rstrip().splitlines()[-20:])
        lines += ["", f"The checks did not finish (exit status {result.returncode}); the end of their output:",
                  tail]
    progress = Progress(result.repo) if result.recorded else None
    if progress is not None:
        done = progress.done_count(exercises)
        summary = f"katas: {done} of {len(exercises)} exercises done ({percent(done, len(exercises))}%)."
        current = progress.current(exercises)
        if verdict is not None and verdict.passed:
            if current is None:
                summary += " Every exercise passes: well done!"
            else:
                where = ("in this notebook" if topic_folder(current) == topic_folder(exercise)
                         else f"notebook {topic_folder(current)}.ipynb")
                summary += f" Next: {current.id}, {where}."
        lines += ["", summary]
    if verdict is None or not verdict.passed:
        lines += ["", f"Not done yet. Stuck? `%kata hint {exercise.id}` shows a hint, gentle first."]
    return parts + ["\n".join(lines)]


def show(result: CheckResult, exercises) -> None:
    """Show a check run in the cell: text printed, pictures drawn as HTML."""
    from IPython.display import HTML, display

    for part in render_parts(result, exercises):
        if isinstance(part, str):
            print(part, flush=True)
        else:
            display(HTML(part.html()))


# --- the IPython extension ----------------------------------------------------------------------


def configure_kernel_jax() -> str:
    """Give this kernel's JAX the checks' devices (8 virtual CPUs) unless told to use the real ones."""
    if os.environ.get(REAL_DEVICES_ENV) == "1":
        import jax

        return f"this kernel and the checks use the real devices: {jax.device_count()} {jax.default_backend()}"
    import jax

    try:
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", N_DEVICES)
        jax.config.update("jax_enable_x64", False)
    except RuntimeError:
        return (f"the checks get {N_DEVICES} virtual CPU devices; this kernel's JAX had started already, with "
                f"{jax.device_count()} {jax.default_backend()} device(s) (restart the kernel and run the set-up "
                f"cell first to have {N_DEVICES} here too)")
    count = jax.device_count()
    return f"this kernel and the checks get {count} virtual CPU devices ({REAL_DEVICES_ENV}=1: the real ones)"


class _Magic:
    """`%%kata ID` over an exercise's code cell; `%kata hint|progress|solution ...`."""

    def __init__(self, shell, repo: Path, exercises) -> None:
        self.shell, self.repo, self.exercises = shell, repo, exercises

    def find(self, name: str) -> Exercise:
        from IPython.core.error import UsageError

        from grader.manifest import suggest

        for exercise in self.exercises:
            if name == exercise.id:
                return exercise
        raise UsageError(suggest(self.exercises, name))

    def __call__(self, line: str, cell: str | None = None):
        from IPython.core.error import UsageError

        words = line.split()
        if cell is not None:
            if len(words) != 1:
                raise UsageError("head an exercise's code cell with `%%kata ID`, e.g. `%%kata purity-1`")
            return self.check(self.find(words[0]), cell)
        if words and words[0] in ("hint", "progress", "solution"):
            return self.command(words[0], words[1:])
        raise UsageError("%kata hint [ID] | %kata progress | %kata solution ID; to check an exercise, put "
                         "`%%kata ID` on the first line of its code cell and run the cell")

    def check(self, exercise: Exercise, body: str) -> None:
        self.shell.run_cell(body, store_history=False)  # as any cell: the learner can use it below
        print(f"checking {exercise.id} ...", flush=True)
        result = check_cell(self.repo, exercise, body)
        show(result, self.exercises)

    def command(self, name: str, rest: list[str]) -> None:
        from IPython.core.error import UsageError

        from grader import learn
        from grader.cli import UsageProblem

        commands = {"hint": learn.hint_command, "progress": learn.progress_command,
                    "solution": learn.solution_command}
        if name == "solution" and len(rest) != 1:
            raise UsageError("%kata solution ID")
        if len(rest) > 1:
            raise UsageError(f"%kata {name} takes at most one exercise id")
        args = argparse.Namespace(repo=self.repo, recheck=False, id=rest[0] if rest else None)
        try:  # an unknown id or topic comes back as a UsageProblem, with a suggestion
            commands[name](args)
        except UsageProblem as problem:
            raise UsageError(str(problem)) from None


def load_ipython_extension(ipython) -> None:
    """`%load_ext grader.notebook`: register %kata / %%kata for the katas checkout in use.

    The checkout is the one named by `KATAS` in the kernel (a generated notebook's
    set-up cell sets it to the checkout it was made from), else the one holding
    the kernel's working directory, else the one the grader was installed from.
    """
    from IPython.core.error import UsageError

    from grader import learn
    from grader.cli import UsageProblem

    made_from = ipython.user_ns.get("KATAS")  # set by a generated notebook's set-up cell
    if not (isinstance(made_from, str) and (Path(made_from) / "exercises" / "manifest.toml").is_file()):
        made_from = None  # moved, or another machine: the checkout here, else the grader's own
    try:
        course = learn.course_from(argparse.Namespace(repo=made_from))
    except UsageProblem as problem:
        raise UsageError(str(problem)) from None
    try:
        devices = configure_kernel_jax()
    except ImportError as problem:
        raise UsageError(f"this kernel's Python cannot import JAX ({problem}): choose the kernel of the "
                         f"environment the katas are installed in, or install them into this one: "
                         f"pip install -e \"{course.repo}[notebooks]\"") from None
    ipython.register_magic_function(_Magic(ipython, course.repo, course.exercises), magic_kind="line_cell",
                                    magic_name="kata")
    print(f"JAX Katas ready: {len(course.exercises)} exercises in {course.repo}; {devices}.")


# --- in the check process: `-p grader.notebook` hands the results back ---------------------------

_collected: list[str] = []
_checks: dict[str, dict] = {}


def _save_report() -> None:
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    write_atomically(Path(path), json.dumps({"collected": _collected, "checks": _checks}))


def pytest_collection_finish(session) -> None:
    _collected[:] = [item.nodeid for item in session.items]
    _save_report()


def pytest_runtest_logreport(report) -> None:
    """Fold setup/call/teardown into one outcome per check, as the katas plugin does."""
    check = _checks.setdefault(report.nodeid, {"passed": None, "reason": "", "lesson": "", "traceback": ""})
    if report.failed or report.skipped:
        if check["passed"] is not False:
            check["passed"] = False
            check["reason"] = getattr(report, "kata_reason", "") or ("skipped" if report.skipped else "failed")
            check["lesson"], check["traceback"] = _lesson(report)
            picture = getattr(report, "kata_picture", None)
            if picture is not None:  # drawn as HTML by the cell: its text copy leaves the lesson
                from grader.checks.layout import Picture

                check["picture"] = picture
                check["lesson"] = check["lesson"].replace(Picture.from_dict(picture).text(), "").rstrip()
    elif report.when == "call" and check["passed"] is None:
        check["passed"] = True
    if report.when == "teardown":
        if check["passed"] is None:  # never reached its call (deselected, interrupted)
            del _checks[report.nodeid]
        _save_report()


def _lesson(report) -> tuple[str, str]:
    """(the lesson's words, the trimmed traceback) of a failed or skipped check."""
    from grader.plugin import LessonRepr

    longrepr = report.longrepr
    if isinstance(longrepr, LessonRepr):
        text = longrepr.text
        first, _, rest = text.partition("\n")
        if first == report.nodeid:  # a KataFailure's lesson starts with the check's id
            text = rest
        return text.strip(), str(longrepr.traceback or "").rstrip()
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        return str(longrepr[-1]), ""
    return "", report.longreprtext.rstrip()
