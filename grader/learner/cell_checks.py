"""Checking a notebook cell: its code saved as the exercise's file, the exercise's own checks run on
it in a fresh pytest process, and what the cell shows of that run.

The cell's source is saved as the exercise's file in `.katas-notebook/` in the
katas checkout (a folder shaped like exercises/: `NN_topic/<name>.py`, line
numbers as in the cell), and the exercise's checks run on it (`--target
.katas-notebook`) with 8 virtual CPU devices whatever the kernel's JAX has
done, or the real ones with JAX_KATAS_REAL_DEVICES=1; the check process hands
its results back through grader.learner.cell_report. The result goes into the
checkout's progress file under the fingerprint the checks would have if the
exercise file held the cell's code (grader.core.progress.fingerprint with
`code_dir`), marked as a notebook result.
"""

from __future__ import annotations

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

from grader.core.manifest import Exercise
from grader.core.progress import NOTEBOOK_DIR, Progress, Verdict, fingerprint, judge, percent
from grader.learner.cell_report import REPORT_ENV

N_DEVICES = 8  # as grader.plugin; not imported from there, which would load pytest into the kernel
REAL_DEVICES_ENV = "JAX_KATAS_REAL_DEVICES"
WIDTH = 100  # lessons are wrapped to this many columns


def topic_folder(exercise: Exercise) -> str:
    return exercise.path.split("/")[0]


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
        command = [sys.executable, "-m", "pytest", "-q", "--color=no", "-p", "grader.learner.cell_report",
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
    from grader.checks.layout import Picture  # imports JAX: only when a result is shown

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
