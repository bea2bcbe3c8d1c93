"""`grader watch`: an exercise's checks again each time its file is saved.

The watch follows the current exercise: saving another exercise's file moves
it there, and so does an exercise run or named elsewhere (`grader hint ID`,
`pytest` on its checks, in another terminal), as the progress file records.

Each run is a fresh fork of a warm check process (grader.learner.warmwatch)
that has imported JAX and collected the checks already, so a verdict comes a
fraction of a second after the save; where it cannot serve, pytest runs
afresh. The keyboard stays the learner's: `q` quits.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from grader.core.manifest import Exercise
from grader.core.selection import UsageProblem
from grader.learner.learn import Course, heading, say


def watch(course: Course, name: str | None = None, poll: float = 0.05, max_runs: int | None = None) -> int:
    """Run the checks of the exercise `name` names (else the current one) each time its file is
    saved, moving on when it passes; until the learner quits (q, Ctrl-C) or after `max_runs` runs."""
    if poll <= 0:
        raise UsageProblem("--poll must be a positive number of seconds")
    tty = sys.stdout.isatty()
    exercise, all_done = course.target(name, course.progress())
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
                say(heading(exercise), "")
                runs += 1
                if course.run_checks(exercise, warm) == 0:
                    passed.add(exercise.id)
                    note = f"[watch] {exercise.id} passes! On to the next exercise."
                    exercise, all_done = course.current(course.progress(), passed), "Every exercise passes: well done!"
                    if max_runs is not None and runs >= max_runs:
                        say("", note if exercise is None else f"{note} Next: {exercise.id}.")
                        return 0
                    continue
                note = ""
                say("", f"[watch] {exercise.id} not done yet. Edit and save exercises/{exercise.path} "
                        f"to re-run; q to quit.")
                if max_runs is not None and runs >= max_runs:
                    return 0
                change = _wait_for_change(course, exercise, poll, pressed_quit)
                if change is None:
                    say("[watch] stopped.")
                    return 0
                exercise, news = change
                say(news)
                if tty:
                    note = news  # kept above the cleared screen
            say(note, all_done)
            return 0
        except KeyboardInterrupt:
            say("", "[watch] stopped.")
            return 0
        finally:
            if warm is not None:
                warm.close()


class WarmChecks:
    """One exercise's warm check process (grader.learner.warmwatch): each run is a fresh fork of it.

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
                [sys.executable, "-m", "grader.learner.warmwatch", f"exercises/{exercise.check_path}", str(theirs)],
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


def _wait_for_change(course: Course, exercise: Exercise, poll: float,
                     pressed_quit) -> tuple[Exercise, str] | None:
    """Wait until the learner saves an exercise file (the watched one, else another exercise's:
    the watch moves there) or makes another exercise current elsewhere (`grader hint ID`, a pytest
    run); the exercise to check next and the line that says why. None: the learner quit."""
    files = {e.id: course.repo / "exercises" / e.path for e in course.exercises}
    files.setdefault(exercise.id, course.repo / "exercises" / exercise.path)
    before = {name: _stamp(path) for name, path in files.items()}
    progress = course.progress()
    progress_stamp, named_before = _stamp(progress.path), progress.named()
    while True:
        if pressed_quit(poll):
            return None
        changed = [name for name, path in files.items() if _stamp(path) not in (None, before[name])]
        if changed:
            name = exercise.id if exercise.id in changed else changed[0]
            _settle(files[name])
            if name == exercise.id:
                return exercise, f"[watch] saved: re-running {exercise.id}"
            other = course.find(name)
            return other, (f"[watch] exercises/{other.path} saved: switching from {exercise.id} "
                           f"to {other.id}")
        if _stamp(progress.path) != progress_stamp:
            progress_stamp = _stamp(progress.path)
            progress = course.progress()
            named = progress.named()
            current = course.current(progress)
            if named not in (named_before, exercise.id) and current not in (None, exercise):
                return current, (f"[watch] {named} was run or named elsewhere: switching from "
                                 f"{exercise.id} to {current.id}")
            named_before = named


def _settle(path: Path) -> None:
    """Let the editor finish writing: the file must hold still for a moment."""
    now = _stamp(path)
    while True:
        time.sleep(SETTLE)
        settled = _stamp(path)
        if settled == now:
            return
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
