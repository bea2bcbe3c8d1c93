"""`grader` subcommands for learners: progress, next, hint, watch, reset, solution.

Whether an exercise is done comes from the progress file (grader.progress):
results cached under a fingerprint of the exercise file and its checks, which
every learner's pytest run over exercises/ keeps up to date. A command that
needs a fresh result runs the checks the way a learner would, `python -m
pytest exercises/NN_topic/test_x.py` in the repository, so the output (and
the lessons in it) is exactly what plain pytest shows, and the plugin records
the result.

"The current exercise" follows the learner (grader.progress): the one last
run or named, until it passes, then the first unfinished one after it; the
first unfinished one in teaching order before anything was run. `hint` takes
it from the progress file without running anything; `next` and `watch` run
it. Each of them also takes an exercise (`explicit-3`) or a topic
(`explicit_sharding`: its first unfinished exercise), which becomes current.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from grader import REPO_ROOT
from grader.cli import UsageProblem, _example
from grader.manifest import Exercise, ManifestError, load_course, suggest
from grader.manifest import select as select_exercises
from grader.progress import Progress, percent
from grader.solutions import read_solution


@dataclass
class Course:
    """One checkout of the katas: its manifest, its progress file, its checks."""

    repo: Path
    exercises: tuple[Exercise, ...]

    def progress(self) -> Progress:
        return Progress(self.repo)

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

    def target(self, args: argparse.Namespace, progress: Progress) -> tuple[Exercise | None, str]:
        """The exercise a command works on: the one named in `args.id` (an id or a topic), else the
        current one; with the words to say when there is none."""
        if not args.id:
            return self.current(progress), "Every exercise passes: well done!"
        return self.pick(args.id, progress), f"Every exercise of {args.id} passes: well done!"

    def pytest_command(self, exercises: list[Exercise], *options: str) -> list[str]:
        return [sys.executable, "-m", "pytest", *options, *(f"exercises/{e.check_path}" for e in exercises)]

    def run_checks(self, exercise: Exercise, warm: WarmChecks | None = None) -> int:
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


def _wrapped(text: str, indent: str = "") -> str:
    width = min(100, max(40, shutil.get_terminal_size((100, 24)).columns))
    return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=" " * len(indent),
                         break_long_words=False, break_on_hyphens=False)


def _repo_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the katas checkout to work in (default: the one you are in, else the "
                             "one the grader was installed from)")
    parser.add_argument("--assignment", metavar="NAME",
                        help="work on this assignment's exercises only (an [[assignment]] table of the manifest)")


def _checkout_here() -> Path | None:
    """The katas checkout holding the current directory, like git finds its repository."""
    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / "exercises" / "manifest.toml").is_file()), None)


def course_from(args: argparse.Namespace) -> Course:
    repo = Path(args.repo or _checkout_here() or REPO_ROOT).expanduser().resolve()
    if not (repo / "exercises" / "manifest.toml").is_file():
        raise UsageProblem(f"{repo} has no exercises/manifest.toml: run this in (or point --repo at) "
                           f"a checkout of the katas")
    try:
        whole = load_course(repo / "exercises")
        name = getattr(args, "assignment", None)
        return Course(repo, whole.assignment(name).exercises if name else whole.exercises)
    except ManifestError as error:
        raise UsageProblem(str(error)) from None


def _heading(exercise: Exercise) -> str:
    return f"{exercise.id}: exercises/{exercise.path}\n  {exercise.concept}"


# --- progress -----------------------------------------------------------------------


def _progress_parser(commands) -> None:
    parser = commands.add_parser("progress", help="which exercises are done, and the current one")
    _example(parser, "grader progress             # at once, from the last results",
             "grader progress --recheck   # first re-run the exercises changed since their last check")
    parser.add_argument("--recheck", action="store_true",
                        help="run the checks of exercises changed since their last check before printing")
    _repo_option(parser)
    parser.set_defaults(run=progress_command)


def progress_command(args: argparse.Namespace) -> int:
    course = course_from(args)
    if args.recheck:
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
        say(f"{changed} exercise(s) changed since their last check: `grader progress --recheck` checks them.")
    if current is None:
        say("Every exercise passes: well done!")
    else:
        say(f"Next: {current.id}. `grader next` runs its checks, `grader hint {current.id}` gives a hint, "
            f"`grader watch` re-runs the checks each time you save.")
    return 0


# --- next ---------------------------------------------------------------------------


def _next_parser(commands) -> None:
    parser = commands.add_parser("next", help="run the checks of the current (or a named) exercise")
    _example(parser, "grader next                # the current exercise",
             "grader next explicit-3     # this exercise, then the unfinished ones after it",
             "grader next vmap           # the first unfinished exercise of a topic")
    _target_argument(parser)
    _repo_option(parser)
    parser.set_defaults(run=next_command)


def _target_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", metavar="ID|TOPIC",
                        help="an exercise id, or a topic (its first unfinished exercise); default: the "
                             "current exercise")


def next_command(args: argparse.Namespace) -> int:
    """Exit status 0 when every exercise from there on passes, 1 while the one run fails."""
    course = course_from(args)
    exercise, all_done = course.target(args, course.progress())
    passed: set[str] = set()
    while exercise is not None:
        say(_heading(exercise), "")
        if course.run_checks(exercise) != 0:
            return 1
        # It passes after all (it had changed since its last check): on to the next.
        passed.add(exercise.id)
        say("", f"{exercise.id} passes: on to the next exercise.", "")
        exercise, all_done = course.current(course.progress(), passed), "Every exercise passes: well done!"
    say(all_done)
    return 0


# --- hint ---------------------------------------------------------------------------


def _hint_parser(commands) -> None:
    parser = commands.add_parser("hint", help="the next hint for the current (or a named) exercise")
    _example(parser, "grader hint             # the current exercise", "grader hint purity-2",
             "grader hint vmap        # the first unfinished exercise of a topic")
    _target_argument(parser)
    _repo_option(parser)
    parser.set_defaults(run=hint_command)


def hint_command(args: argparse.Namespace) -> int:
    course = course_from(args)
    progress = course.progress()
    exercise, all_done = course.target(args, progress)
    if exercise is None:
        say(f"{all_done} No hints needed. `grader hint ID` shows one exercise's hints.")
        return 0
    total = len(exercise.hints)
    shown = min(progress.hints_shown(exercise) + 1, total)
    say(_heading(exercise), "")
    for number, hint in enumerate(exercise.hints[:shown], start=1):
        say(_wrapped(hint, f"hint {number} of {total}: "))
    say("")
    if shown < total:
        say(f"Still stuck? `grader hint {exercise.id}` again gives a stronger hint.")
    else:
        say(f"That was the last hint. Once your version passes, `grader solution {exercise.id}` "
            f"shows the reference solution.")
    progress.set_hints_shown(exercise, shown)
    if args.id:
        progress.set_current(exercise)  # named: the learner is on it now
    progress.save()
    return 0


# --- watch --------------------------------------------------------------------------


def _watch_parser(commands) -> None:
    parser = commands.add_parser("watch", help="re-run the current (or a named) exercise's checks each "
                                               "time you save it")
    _example(parser, "grader watch", "grader watch explicit-3      # this exercise, then the ones after it",
             "grader watch vmap            # from the first unfinished exercise of a topic",
             "grader watch --max-runs 1   # run once and stop (scripts, CI)")
    _target_argument(parser)
    parser.add_argument("--poll", type=float, default=0.05, metavar="S",
                        help="how often to look at the file, seconds (default %(default)s)")
    parser.add_argument("--max-runs", type=int, default=None, metavar="N",
                        help="stop after running the checks N times (default: until you quit)")
    _repo_option(parser)
    parser.set_defaults(run=watch_command)


def watch_command(args: argparse.Namespace) -> int:
    course = course_from(args)
    if args.poll <= 0:
        raise UsageProblem("--poll must be a positive number of seconds")
    tty = sys.stdout.isatty()
    exercise, all_done = course.target(args, course.progress())
    runs, passed, note = 0, set(), ""
    warm: WarmChecks | None = None
    with _keys() as pressed_quit:
        try:
            while exercise is not None:
                if warm is None or warm.exercise != exercise or warm.stale():
                    if warm is not None:
                        warm.close()
                    warm = WarmChecks(course.repo, exercise)  # imports JAX while the screen is read
                if tty:
                    print("\033[2J\033[H", end="")  # clear the screen: only this run's output shows
                elif runs:
                    say("", "-" * 40)
                if note:
                    say(note, "")
                say(_heading(exercise), "")
                runs += 1
                if course.run_checks(exercise, warm) == 0:
                    passed.add(exercise.id)
                    note = f"[watch] {exercise.id} passes! On to the next exercise."
                    exercise, all_done = course.current(course.progress(), passed), "Every exercise passes: well done!"
                    if args.max_runs is not None and runs >= args.max_runs:
                        say("", note if exercise is None else f"{note} Next: {exercise.id}.")
                        return 0
                    continue
                note = ""
                say("", f"[watch] {exercise.id} not done yet. Edit and save exercises/{exercise.path} "
                        f"to re-run; q to quit.")
                if args.max_runs is not None and runs >= args.max_runs:
                    return 0
                if not _wait_for_save(course.repo / "exercises" / exercise.path, args.poll, pressed_quit):
                    say("[watch] stopped.")
                    return 0
                say(f"[watch] saved: re-running {exercise.id}")
            say(note, all_done)
            return 0
        except KeyboardInterrupt:
            say("", "[watch] stopped.")
            return 0
        finally:
            if warm is not None:
                warm.close()


class WarmChecks:
    """One exercise's warm check process (grader.warmwatch): each run is a fresh fork of it.

    `run()` answers None when the warm process cannot serve (another OS, threads started while
    collecting, a crash): the caller then runs pytest afresh, as before.
    """

    def __init__(self, repo: Path, exercise: Exercise) -> None:
        self.exercise = exercise
        self.check_file = repo / "exercises" / exercise.check_path
        self.checks_stamp = _stamp(self.check_file)
        self.state = "starting"  # then "ready", or "gone" for good
        replies, theirs = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "grader.warmwatch", f"exercises/{exercise.check_path}", str(theirs)],
                cwd=repo, stdin=subprocess.PIPE, pass_fds=(theirs,), text=True,
                start_new_session=True)  # its forks go with it, and the keyboard's Ctrl-C is the watcher's
        except OSError:
            os.close(replies)
            self.process, self.state = None, "gone"
        finally:
            os.close(theirs)
        self.replies = os.fdopen(replies, "r") if self.process is not None else None

    def stale(self) -> bool:
        """The checks changed since the warm process collected them."""
        return _stamp(self.check_file) != self.checks_stamp

    def _answer(self) -> str:
        line = self.replies.readline().strip()
        if not line or line == "cold":
            self.state = "gone"
        return line

    def run(self) -> int | None:
        if self.state == "starting":
            self.state = "ready" if self._answer() == "ready" else "gone"
        if self.state != "ready":
            return None
        try:
            self.process.stdin.write("run\n")
            self.process.stdin.flush()
        except OSError:
            self.state = "gone"
            return None
        answer = self._answer()
        return int(answer.split()[1]) if answer.startswith("done ") else None

    def close(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(OSError):
            self.process.stdin.close()  # the warm process ends at the end of its input
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # and a run still going ends with it
        self.process.wait()
        self.replies.close()
        self.process = None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None  # mid-save (some editors delete and rename): keep waiting
    return info.st_mtime_ns, info.st_size


def _wait_for_save(path: Path, poll: float, pressed_quit) -> bool:
    """Wait until `path` changes (True) or the learner asks to quit (False)."""
    before = _stamp(path)
    while True:
        if pressed_quit(poll):
            return False
        now = _stamp(path)
        if now is not None and now != before:
            while True:  # let the editor finish writing: the file must hold still for a moment
                time.sleep(SETTLE)
                settled = _stamp(path)
                if settled == now:
                    return True
                now = settled


SETTLE = 0.02  # seconds a saved file must stay unchanged before its checks run


@contextlib.contextmanager
def _keys() -> Iterator:
    """A function `(timeout) -> bool`: waits up to `timeout` s, True once `q` is pressed.

    On a terminal it reads single keys (no Enter needed); from a pipe it reads
    lines; with no input at all (CI, /dev/null) it just waits.
    """
    stream = sys.stdin
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        yield lambda timeout: time.sleep(timeout) or False
        return
    saved = None
    if os.isatty(fd):
        import termios
        import tty

        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
    closed = False

    def pressed_quit(timeout: float) -> bool:
        nonlocal closed
        if closed:
            time.sleep(timeout)
            return False
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return False
        data = os.read(fd, 1 if saved is not None else 1024)
        if not data:
            closed = True  # end of input: keep watching, stop reading
            return False
        return b"q" in data.lower()

    try:
        yield pressed_quit
    finally:
        if saved is not None:
            import termios

            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


# --- reset --------------------------------------------------------------------------


def _reset_parser(commands) -> None:
    parser = commands.add_parser(
        "reset", help="restore an exercise's original file (from git)",
        description="Restore exercise files as git has them: by default as of your last commit "
                    "(HEAD), which is the original stub until you commit your own work. After "
                    "committing, name the commit holding the originals with --from.")
    _example(parser, "grader reset purity-1", "grader reset purity-1 --yes", "grader reset --all",
             "grader reset purity-1 --from $(git rev-list --max-parents=0 HEAD)   # your first commit")
    parser.add_argument("id", nargs="?", help="the exercise to restore")
    parser.add_argument("--all", action="store_true", help="restore every exercise file")
    parser.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    parser.add_argument("--from", dest="source", default="HEAD", metavar="REV",
                        help="the git commit holding the originals (default %(default)s)")
    _repo_option(parser)
    parser.set_defaults(run=reset_command)


def reset_command(args: argparse.Namespace) -> int:
    course = course_from(args)
    if bool(args.id) == args.all:
        raise UsageProblem("name one exercise (grader reset purity-1) or pass --all")
    chosen = course.exercises if args.all else (course.find(args.id),)
    _require_git(course.repo)
    originals = {e.id: original_file(course.repo, e, args.source) for e in chosen}
    changed = [e for e in chosen if _read(course.repo / "exercises" / e.path) != originals[e.id]]
    if not changed:
        what = "every exercise file is" if args.all else f"exercises/{chosen[0].path} is"
        say(f"{what} already as in git {args.source}: nothing to restore.")
        return 0
    listed = ", ".join(f"exercises/{e.path}" for e in changed[:3])
    if len(changed) > 3:
        listed += f" and {len(changed) - 3} more"
    if not args.yes and not _confirm(f"Restore {listed} as in git {args.source}? "
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


def _solution_parser(commands) -> None:
    parser = commands.add_parser("solution", help="the reference solution, once your version passes")
    _example(parser, "grader solution purity-1")
    parser.add_argument("id", help="the exercise")
    _repo_option(parser)
    parser.set_defaults(run=solution_command)


def solution_command(args: argparse.Namespace) -> int:
    course = course_from(args)
    exercise = course.find(args.id)
    course.refresh([exercise])  # runs the checks unless the file has not changed since they passed
    verdict = course.progress().result(exercise)
    if verdict is None or not verdict.passed:
        why = verdict.reason if verdict is not None else "its checks did not finish"
        say(_wrapped(f"{exercise.id} does not pass yet, so its reference solution stays hidden: "
                     f"working it out is the exercise. First failure: {why}"), "",
            f"`grader hint {exercise.id}` gives a hint; `pytest exercises/{exercise.check_path}` "
            f"shows every failing check.")
        return 1
    source = read_solution(course.repo, exercise)
    if source is None:
        raise UsageProblem(f"{exercise.id} passes, well done. This course repository carries no reference "
                           f"solutions (your instructor can release them with `grader release "
                           f"--with-solutions`)")
    say(f"# {exercise.id} passes. The reference solution (solutions/{exercise.path}), to compare "
        f"with yours:", "", source.rstrip("\n"))
    return 0


PARSERS: list = [_progress_parser, _next_parser, _hint_parser, _watch_parser, _reset_parser,
                 _solution_parser]  # functions (subparsers) -> None, registered by grader.cli
