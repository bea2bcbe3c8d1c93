"""What the learner's commands do: progress, next, hint, reset, solution (watch: grader.learner.watch).

Whether an exercise is done comes from the progress file (grader.core.progress):
results cached under a fingerprint of the exercise file and its checks, which
every learner's pytest run over exercises/ keeps up to date. A command that
needs a fresh result runs the checks the way a learner would, `python -m
pytest exercises/NN_topic/test_x.py` in the repository, so the output (and
the lessons in it) is exactly what plain pytest shows, and the plugin records
the result.

"The current exercise" follows the learner (grader.core.progress): the one last
run or named, until it passes, then the first unfinished one after it; the
first unfinished one in teaching order before anything was run. `hint` takes
it from the progress file without running anything; `next` and `watch` run
it. Each of them also takes an exercise (`explicit-3`) or a topic
(`explicit_sharding`: its first unfinished exercise), which becomes current.

Each command is a plain function of a `Course` (the checkout it works in) and
what the learner named; the CLI (grader.cli.learning) reads the options and the
notebook magic (`%kata hint`) calls the same functions. Each returns the exit
status and raises UsageProblem for what cannot be done.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from grader import REPO_ROOT
from grader.core.manifest import Exercise, ManifestError, load_course, suggest
from grader.core.manifest import select as select_exercises
from grader.core.progress import Progress, percent
from grader.core.selection import UsageProblem, checkout_here
from grader.core.solutions import read_solution


class WarmRun(Protocol):
    """A warm check process (grader.learner.watch.WarmChecks is one): pytest's exit status of a
    fresh run of its checks, or None when it cannot serve."""

    def run(self) -> int | None: ...


@dataclass
class Course:
    """One checkout of the katas: its manifest, its progress file, its checks."""

    repo: Path
    exercises: tuple[Exercise, ...]
    notebook: bool = False  # the learner types `%kata ...` in a notebook, not `grader ...`

    def progress(self) -> Progress:
        return Progress(self.repo)

    def command(self, *words: str) -> str:
        """A learner's command as the learner types it here: `grader hint x` or `%kata hint x`."""
        return f"`{'%kata' if self.notebook else 'grader'} {' '.join(words)}`"

    def find(self, name: str) -> Exercise:
        """An exercise by id (`purity-1`) or by its file (`exercises/01_purity/global_config.py`)."""
        path = name.replace("\\", "/").removeprefix("./").removeprefix("exercises/")
        for exercise in self.exercises:
            if name == exercise.id or path == exercise.path:
                return exercise
        raise UsageProblem(suggest(self.exercises, name))

    def current(self, progress: Progress, passed: set[str] = frozenset()) -> Exercise | None:
        """The exercise the learner is on (nor in `passed`, just seen passing here); None: all pass."""
        return progress.current(self.exercises, passed)

    def pick(self, name: str, progress: Progress) -> Exercise | None:
        """The exercise a learner names: by id or file, or by topic (its first unfinished exercise;
        None when every exercise of the topic passes)."""
        try:
            return self.find(name)
        except UsageProblem:
            pass
        try:
            chosen = select_exercises(self.exercises, name)
        except ManifestError:
            raise UsageProblem(suggest(self.exercises, name)) from None
        return next((e for e in chosen if not progress.is_done(e)), None)

    def target(self, name: str | None, progress: Progress) -> tuple[Exercise | None, str]:
        """The exercise a command works on: the one `name` names (an id or a topic), else the
        current one; with the words to say when there is none."""
        if not name:
            return self.current(progress), "Every exercise passes: well done!"
        return self.pick(name, progress), f"Every exercise of {name} passes: well done!"

    def pytest_command(self, exercises: list[Exercise], *options: str) -> list[str]:
        return [sys.executable, "-m", "pytest", *options, *(f"exercises/{e.check_path}" for e in exercises)]

    def run_checks(self, exercise: Exercise, warm: WarmRun | None = None) -> int:
        """Run one exercise's checks, showing pytest's output; pytest's exit status (0: all pass).

        With `warm` (grader watch), in a fresh fork of its warm process when it can serve.
        """
        say(f"$ pytest -q exercises/{exercise.check_path}")
        code = warm.run() if warm is not None else None
        if code is None:
            command = self.pytest_command([exercise], "-q")
            # stdin is not the child's: in `watch` the keyboard belongs to the watcher.
            code = subprocess.run(command, cwd=self.repo, stdin=subprocess.DEVNULL).returncode
        if code not in (0, 1):
            raise UsageProblem(f"pytest could not run the checks of {exercise.id} (exit status {code})")
        return code

    def refresh(self, exercises: tuple[Exercise, ...] | list[Exercise]) -> None:
        """Check, quietly and in one pytest run, the exercises whose cached result is out of date."""
        stale = self.progress().stale(tuple(exercises))
        if not stale:
            return
        plural = "s" if len(stale) > 1 else ""
        say(f"checking {len(stale)} exercise{plural}, new or changed since the last check ...")
        command = self.pytest_command(stale, "-q", "--tb=no")
        done = subprocess.run(command, cwd=self.repo, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace")
        if done.returncode not in (0, 1):
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise UsageProblem(f"pytest could not run the checks (exit status {done.returncode}):\n{tail}")


def say(*lines: str) -> None:
    """Print at once: a watcher's output goes through pipes in CI and in tests."""
    try:
        print(*lines, sep="\n", flush=True)
    except BrokenPipeError:  # `grader progress | head` stopped reading: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None


def wrapped(text: str, indent: str = "") -> str:
    width = min(100, max(40, shutil.get_terminal_size((100, 24)).columns))
    return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=" " * len(indent),
                         break_long_words=False, break_on_hyphens=False)


def course_from(repo: Path | str | None, assignment: str | None = None) -> Course:
    """The checkout `repo` names, else the one holding the current directory, else the one the
    grader was installed from; with `assignment`, only that assignment's exercises."""
    repo = Path(repo or checkout_here() or REPO_ROOT).expanduser().resolve()
    if not (repo / "exercises" / "manifest.toml").is_file():
        raise UsageProblem(f"{repo} has no exercises/manifest.toml: run this in (or point --repo at) "
                           f"a checkout of the katas")
    try:
        whole = load_course(repo / "exercises")
        return Course(repo, whole.assignment(assignment).exercises if assignment else whole.exercises)
    except ManifestError as error:
        raise UsageProblem(str(error)) from None


def heading(exercise: Exercise) -> str:
    return f"{exercise.id}: exercises/{exercise.path}\n  {exercise.concept}"


# --- progress -----------------------------------------------------------------------


def show_progress(course: Course, recheck: bool = False) -> int:
    """Every exercise and whether it is done; with `recheck`, after checking those changed since."""
    if recheck:
        course.refresh(course.exercises)
    progress = course.progress()
    total, done = len(course.exercises), progress.done_count(course.exercises)
    current = course.current(progress)
    say(f"JAX Katas: {done} of {total} exercises done ({percent(done, total)}%)")
    width = max(len(e.id) for e in course.exercises)
    topic = None
    changed = 0
    for exercise in course.exercises:
        if exercise.topic != topic:
            topic = exercise.topic
            say("")
        result = progress.result(exercise)
        edited = result is None and progress.recorded(exercise)  # changed since its last check
        changed += edited
        if exercise is current:
            label = "current"
        elif result is None:
            label = "changed" if edited else "unchecked"
        else:
            label = "done" if result.passed else "not done"
        marker = ">" if exercise is current else " "
        say(f"{marker} {label:<9}  {exercise.id:<{width}}  exercises/{exercise.path}")
    say("")
    if changed:
        recheck = "`!grader progress --recheck`" if course.notebook else "`grader progress --recheck`"
        say(f"{changed} exercise(s) changed since their last check: {recheck} checks them.")
    if current is None:
        say("Every exercise passes: well done!")
    elif course.notebook:
        say(f"Next: {current.id}. Running its `%%kata {current.id}` cell checks it, "
            f"{course.command('hint', current.id)} gives a hint.")
    else:
        say(f"Next: {current.id}. `grader next` runs its checks, `grader hint {current.id}` gives a hint, "
            f"`grader watch` re-runs the checks each time you save.")
    return 0


# --- next ---------------------------------------------------------------------------


def run_next(course: Course, name: str | None = None) -> int:
    """Run the checks of the exercise `name` names (else the current one), and of the next ones
    while they pass: 0 when every exercise from there on passes, 1 while the one run fails."""
    exercise, all_done = course.target(name, course.progress())
    passed: set[str] = set()
    while exercise is not None:
        say(heading(exercise), "")
        if course.run_checks(exercise) != 0:
            return 1
        # It passes after all (it had changed since its last check): on to the next.
        passed.add(exercise.id)
        say("", f"{exercise.id} passes: on to the next exercise.", "")
        exercise, all_done = course.current(course.progress(), passed), "Every exercise passes: well done!"
    say(all_done)
    return 0


# --- hint ---------------------------------------------------------------------------


def show_hint(course: Course, name: str | None = None) -> int:
    """The hints of the exercise `name` names (else the current one) up to one more than last time."""
    progress = course.progress()
    exercise, all_done = course.target(name, progress)
    if exercise is None:
        say(f"{all_done} No hints needed. {course.command('hint', 'ID')} shows one exercise's hints.")
        return 0
    total = len(exercise.hints)
    shown = min(progress.hints_shown(exercise) + 1, total)
    say(heading(exercise), "")
    for number, hint in enumerate(exercise.hints[:shown], start=1):
        say(wrapped(hint, f"hint {number} of {total}: "))
    say("")
    if shown < total:
        say(f"Still stuck? {course.command('hint', exercise.id)} again gives a stronger hint.")
    else:
        say(f"That was the last hint. Once your version passes, {course.command('solution', exercise.id)} "
            f"shows the reference solution.")
    progress.set_hints_shown(exercise, shown)
    if name:
        progress.set_current(exercise)  # named: the learner is on it now
    progress.save()
    return 0


# --- reset --------------------------------------------------------------------------


def reset(course: Course, name: str | None, every: bool = False, yes: bool = False,
          source: str = "HEAD") -> int:
    """Restore the exercise `name` names (or, with `every`, every exercise) as git has it at commit
    `source`, after asking unless `yes`: 0 when restored or nothing differed, 1 when not confirmed."""
    if bool(name) == every:
        raise UsageProblem("name one exercise (grader reset purity-1) or pass --all")
    chosen = course.exercises if every else (course.find(name),)
    _require_git(course.repo)
    originals = {e.id: original_file(course.repo, e, source) for e in chosen}
    changed = [e for e in chosen if _read(course.repo / "exercises" / e.path) != originals[e.id]]
    if not changed:
        what = "every exercise file is" if every else f"exercises/{chosen[0].path} is"
        say(f"{what} already as in git {source}: nothing to restore.")
        return 0
    listed = ", ".join(f"exercises/{e.path}" for e in changed[:3])
    if len(changed) > 3:
        listed += f" and {len(changed) - 3} more"
    if not yes and not _confirm(f"Restore {listed} as in git {source}? "
                                     f"Your changes will be lost. [y/N] "):
        say("Nothing changed.")
        return 1
    for exercise in changed:
        path = course.repo / "exercises" / exercise.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(originals[exercise.id])
        say(f"restored exercises/{exercise.path}")
    return 0


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _git(repo: Path, *command: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(repo), *command], capture_output=True)
    except FileNotFoundError:
        raise UsageProblem("git is not installed, and `grader reset` takes the original files "
                           "from git") from None


def _require_git(repo: Path) -> None:
    if _git(repo, "rev-parse", "--git-dir").returncode != 0:
        raise UsageProblem(f"{repo} is not a git checkout, so there is no original to restore from. "
                           f"Clone the course repository with git (or copy the file again from a "
                           f"fresh download)")


def original_file(repo: Path, exercise: Exercise, source: str = "HEAD") -> bytes:
    """The exercise file as git has it at commit `source` (bytes, as committed)."""
    done = _git(repo, "show", f"{source}:./exercises/{exercise.path}")
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise UsageProblem(f"git has no exercises/{exercise.path} at {source}"
                           + (f" ({why[0]})" if why else ""))
    return done.stdout


def _confirm(question: str) -> bool:
    try:
        answer = input(question)
    except EOFError:  # no one to answer (a pipe, CI): do nothing rather than guess
        print()
        return False
    return answer.strip().lower() in ("y", "yes")


# --- solution -----------------------------------------------------------------------


def show_solution(course: Course, name: str) -> int:
    """The reference solution of exercise `name`, once the learner's version passes (else 1)."""
    exercise = course.find(name)
    course.refresh([exercise])  # runs the checks unless the file has not changed since they passed
    verdict = course.progress().result(exercise)
    if verdict is None or not verdict.passed:
        why = verdict.reason if verdict is not None else "its checks did not finish"
        say(wrapped(f"{exercise.id} does not pass yet, so its reference solution stays hidden: "
                     f"working it out is the exercise. First failure: {why}"), "",
            f"{course.command('hint', exercise.id)} gives a hint; " + (
                f"running its `%%kata {exercise.id}` cell" if course.notebook else
                f"`pytest exercises/{exercise.check_path}`") + " shows every failing check.")
        return 1
    source = read_solution(course.repo, exercise)
    if source is None:
        raise UsageProblem(f"{exercise.id} passes, well done. This course repository carries no reference "
                           f"solutions (your instructor can release them with `grader release "
                           f"--with-solutions`)")
    say(f"# {exercise.id} passes. The reference solution (solutions/{exercise.path}), to compare "
        f"with yours:", "", source.rstrip("\n"))
    return 0
