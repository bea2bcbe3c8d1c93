"""The learner's side: progress, hints, next, watch, reset, solution, and what pytest shows.

Each test works in a small copy of the repository holding only the 01_purity
exercises (its manifest lists just those), made a git repository so `reset`
has originals. Commands that run checks start a JAX process each: those tests
are marked slow and kept to a few runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader import REPO_ROOT
from support import PRISTINE, PURITY
from grader.cli import main
from grader.core.manifest import load_manifest, select
from grader.core.progress import STATE_NAME, Progress, Verdict, fingerprint, judge

GLOBAL_CONFIG = "exercises/01_purity/global_config.py"  # purity-1, the first exercise


def _manifest_text() -> str:
    # JSON strings are valid TOML strings, so no TOML writer is needed.
    blocks = []
    for e in PURITY:
        fields = {"id": e.id, "path": e.path, "topic": e.topic, "points": e.points,
                  "concept": e.concept, "hints": list(e.hints)}
        blocks.append("[[exercise]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in fields.items()))
    return "\n\n".join(blocks) + "\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=katas", "-c", "user.email=katas@example.com",
                    "-c", "init.defaultBranch=main", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git checkout of the katas with the purity topic only, as a learner clones it."""
    root = tmp_path / "katas"
    (root / "exercises").mkdir(parents=True)
    for name in ("conftest.py", "pyproject.toml", ".gitignore"):
        shutil.copyfile(REPO_ROOT / name, root / name)
    for e in PURITY:
        for rel in (f"exercises/{e.path}", f"exercises/{e.check_path}", f"solutions/{e.path}"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(PRISTINE / rel, root / rel)  # the untouched stubs, whatever a learner did
    (root / "exercises" / "manifest.toml").write_text(_manifest_text(), encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "katas")
    return root


def solve(repo: Path, exercise_path: str) -> None:
    """Put the reference solution where the learner's file is."""
    shutil.copyfile(repo / "solutions" / exercise_path, repo / "exercises" / exercise_path)


def grader(repo: Path, *args: str) -> int:
    return main([*args, "--repo", str(repo)])


def run_pytest(repo: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}  # wide enough that summary lines are not cut
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=timeout)


# --- done-ness -------------------------------------------------------------------------


def test_a_run_proves_done_only_when_every_check_ran_and_passed():
    ok, bad = Verdict(True), Verdict(False, "boom")
    assert judge(["a", "b"], {"a": ok, "b": ok}, whole=True) == ok
    assert judge(["a", "b"], {"a": ok, "b": bad}, whole=True) == bad
    assert judge(["a", "b"], {"a": ok}, whole=True) is None  # stopped early (-x, Ctrl-C)
    assert judge(["a"], {"a": ok}, whole=False) is None  # `file::check` or -k picked some checks
    assert judge(["a"], {"a": bad}, whole=False) == bad  # one failure proves it anyway


def test_cached_results_last_until_the_file_or_its_checks_change(repo):
    exercise = PURITY[0]
    progress = Progress(repo)
    progress.record(exercise, fingerprint(repo / "exercises", exercise), Verdict(True))
    progress.save()
    assert Progress(repo).is_done(exercise)
    (repo / GLOBAL_CONFIG).write_text((repo / GLOBAL_CONFIG).read_text() + "\n# edited\n")
    assert Progress(repo).result(exercise) is None
    assert Progress(repo).current(PURITY) == exercise


def _record(repo: Path, exercise, passed: bool) -> None:
    """What a pytest run of `exercise` on its file as it is now would record."""
    progress = Progress(repo)
    progress.record(exercise, fingerprint(repo / "exercises", exercise), Verdict(passed, "" if passed else "boom"))
    progress.set_current(exercise)
    progress.save()


def test_the_current_exercise_is_the_one_last_run_until_it_passes(repo):
    assert Progress(repo).current(PURITY) == PURITY[0]  # nothing run yet: teaching order
    _record(repo, PURITY[2], passed=False)  # the learner skipped ahead to purity-3
    assert Progress(repo).current(PURITY) == PURITY[2]
    solve(repo, PURITY[2].path)
    _record(repo, PURITY[2], passed=True)
    assert Progress(repo).current(PURITY) == PURITY[3]  # the next unfinished one after it
    solve(repo, PURITY[3].path)
    _record(repo, PURITY[3], passed=True)
    assert Progress(repo).current(PURITY) == PURITY[0]  # none left after it: the first unfinished
    assert Progress(repo).current(PURITY, passed={"purity-1"}) == PURITY[1]


def test_a_result_belongs_to_the_files_content_across_a_stash(repo):
    exercise = PURITY[0]
    solve(repo, exercise.path)
    _record(repo, exercise, passed=True)
    _git(repo, "stash", "-q")  # the learner's solution put aside: the stub is back
    assert Progress(repo).result(exercise) is None
    _record(repo, exercise, passed=False)  # the stub checked meanwhile
    assert Progress(repo).result(exercise).passed is False
    _git(repo, "stash", "pop", "-q")
    assert Progress(repo).is_done(exercise)  # the same content as before: its result, without a run
    kept = json.loads((repo / STATE_NAME).read_text())["seen"][exercise.id]
    assert len(kept) == 2


# --- hint ------------------------------------------------------------------------------


def test_hint_shows_one_more_hint_each_time_and_remembers(repo, capsys):
    hints = PURITY[0].hints
    for shown in (1, 2, 3, 3):
        assert grader(repo, "hint") == 0
        out = capsys.readouterr().out
        assert out.startswith("purity-1: exercises/01_purity/global_config.py")
        assert f"hint {shown} of 3:" in out and f"hint {shown + 1} of 3" not in out
        assert hints[shown - 1].split()[0] in out
    assert "That was the last hint" in out and "grader solution purity-1" in out
    assert json.loads((repo / STATE_NAME).read_text())["hints"] == {"purity-1": 3}

    assert grader(repo, "hint", "purity-3") == 0  # a named exercise keeps its own count
    assert "hint 1 of 3:" in capsys.readouterr().out
    assert Progress(repo).hints_shown(PURITY[2]) == 1


def test_hint_follows_the_exercise_named_or_run_last(repo, capsys):
    assert grader(repo, "hint", "purity-3") == 0  # named: the learner is on it now
    capsys.readouterr()
    assert grader(repo, "hint") == 0
    out = capsys.readouterr().out
    assert out.startswith("purity-3: exercises/01_purity/debug_print.py") and "hint 2 of 3:" in out
    assert "`grader hint purity-3` again" in out
    _record(repo, PURITY[1], passed=False)  # then a run of purity-2
    assert grader(repo, "hint") == 0
    assert capsys.readouterr().out.startswith("purity-2: ")


def test_hint_takes_a_topic_its_first_unfinished_exercise(repo, capsys):
    solve(repo, PURITY[0].path)
    _record(repo, PURITY[0], passed=True)
    assert grader(repo, "hint", "purity") == 0
    assert capsys.readouterr().out.startswith("purity-2: exercises/01_purity/no_mutation.py")
    assert grader(repo, "hint", "01_purity") == 0
    assert capsys.readouterr().out.startswith("purity-2: ")
    assert grader(repo, "hint", "purty") == 2
    assert "did you mean 'purity'?" in capsys.readouterr().err


def test_unknown_exercise_gets_a_suggestion_and_exit_2(repo, capsys):
    assert grader(repo, "hint", "purity-9") == 2
    assert "no exercise 'purity-9'; did you mean" in capsys.readouterr().err
    assert grader(repo, "solution", "purty-2") == 2
    assert "did you mean 'purity-2'?" in capsys.readouterr().err


def test_every_learner_command_has_help_with_an_example(capsys):
    for command in ("progress", "next", "hint", "watch", "reset", "solution"):
        with pytest.raises(SystemExit) as exited:
            main([command, "--help"])
        assert exited.value.code == 0
        assert f"examples:\n  grader {command}" in capsys.readouterr().out



def test_help_lists_the_learning_commands_a_release_readme_lists():
    """One list (grader.core.commands) for `grader --help` and a released course's README."""
    from grader.cli import listed
    from grader.cli.base import LEARNING
    from grader.core.commands import LEARNER_COMMANDS

    assert [(c.name, c.help) for c in listed() if c.group == LEARNING] == list(LEARNER_COMMANDS)

# --- reset -----------------------------------------------------------------------------


def test_reset_restores_the_stub_byte_for_byte(repo, capsys, monkeypatch):
    stub = (repo / GLOBAL_CONFIG).read_bytes()
    (repo / GLOBAL_CONFIG).write_text("my attempt\n")

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))  # the learner answers no
    assert grader(repo, "reset", "purity-1") == 1
    assert "Nothing changed" in capsys.readouterr().out
    assert (repo / GLOBAL_CONFIG).read_text() == "my attempt\n"

    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert grader(repo, "reset", "purity-1") == 0
    assert (repo / GLOBAL_CONFIG).read_bytes() == stub
    assert grader(repo, "reset", "purity-1", "--yes") == 0
    assert "nothing to restore" in capsys.readouterr().out


def test_reset_all_and_what_it_refuses(repo, tmp_path, capsys):
    originals = {e.path: (repo / "exercises" / e.path).read_bytes() for e in PURITY}
    for e in PURITY[:2]:
        (repo / "exercises" / e.path).write_text("changed\n")
    (repo / "exercises" / PURITY[3].path).unlink()
    assert grader(repo, "reset", "--all", "--yes") == 0
    assert {e.path: (repo / "exercises" / e.path).read_bytes() for e in PURITY} == originals
    assert capsys.readouterr().out.count("restored ") == 3

    assert grader(repo, "reset") == 2
    assert "name one exercise" in capsys.readouterr().err
    plain = tmp_path / "not-git"
    shutil.copytree(repo, plain, ignore=shutil.ignore_patterns(".git"))
    assert grader(plain, "reset", "purity-1", "--yes") == 2
    assert "is not a git checkout" in capsys.readouterr().err


# --- commands that run checks (one JAX process per run) ---------------------------------


@pytest.mark.slow
def test_next_shows_the_lessons_and_the_closing_summary(repo, capfd):
    assert grader(repo, "next") == 1
    out = capfd.readouterr().out
    assert out.startswith("purity-1: exercises/01_purity/global_config.py")
    assert "$ pytest -q exercises/01_purity/test_global_config.py" in out
    assert "baked in the global's old value" in out  # the check's lesson
    summary = out[out.index("katas: 0 of 4 exercises done (0%)"):]
    assert "next: purity-1, exercises/01_purity/global_config.py" in summary
    assert PURITY[0].concept in summary and "`grader hint purity-1` shows hint 1 of 3" in summary
    assert Progress(repo).result(PURITY[0]).passed is False


@pytest.mark.slow
def test_footer_and_next_follow_the_exercise_just_run(repo, capfd):
    run = run_pytest(repo, "exercises/01_purity/test_debug_print.py")  # skipped ahead to purity-3
    summary = run.stdout[run.stdout.index("katas: 0 of 4 exercises done"):]
    assert "next: purity-3, exercises/01_purity/debug_print.py" in summary
    assert "stuck? `grader hint purity-3` shows hint 1 of 3; `grader watch purity-3` re-runs" in summary
    assert grader(repo, "next") == 1  # no id: the exercise just run
    assert capfd.readouterr().out.startswith("purity-3: exercises/01_purity/debug_print.py")
    assert grader(repo, "next", "purity-2") == 1  # named: run, and current from now on
    out = capfd.readouterr().out
    assert out.startswith("purity-2: exercises/01_purity/no_mutation.py")
    assert "next: purity-2, exercises/01_purity/no_mutation.py" in out
    assert grader(repo, "hint") == 0
    assert capfd.readouterr().out.startswith("purity-2: ")


@pytest.mark.slow
def test_watch_takes_an_exercise_and_checks_each_save_in_a_warm_fork(repo, capfd):
    from grader.learner.learn import Course
    from grader.learner.watch import WarmChecks

    course = Course(repo, load_manifest(repo / "exercises"))
    warm = WarmChecks(repo, PURITY[1])
    try:
        assert course.run_checks(PURITY[1], warm) == 1  # the stub, in a fork of the warm process
        assert warm.state == "ready", capfd.readouterr()
        assert Progress(repo).result(PURITY[1]).passed is False
        solve(repo, PURITY[1].path)
        assert course.run_checks(PURITY[1], warm) == 0  # the same warm process sees the saved file
        assert Progress(repo).is_done(PURITY[1])  # recorded for the code that fork ran
    finally:
        warm.close()
    assert "no_mutation" in capfd.readouterr().out
    assert grader(repo, "watch", "purity-3", "--max-runs", "1") == 0
    out = capfd.readouterr().out
    assert out.startswith("purity-3: exercises/01_purity/debug_print.py")
    assert "[watch] purity-3 not done yet" in out


@pytest.mark.slow
def test_progress_and_solution_unlocking(repo, capfd):
    solve(repo, PURITY[0].path)
    assert grader(repo, "progress") == 0  # at once, from what is recorded: nothing yet
    out = capfd.readouterr().out
    assert "checking" not in out and "JAX Katas: 0 of 4 exercises done (0%)" in out
    assert "> current    purity-1" in out and "  unchecked  purity-2" in out
    assert grader(repo, "progress", "--recheck") == 0
    out = capfd.readouterr().out
    assert "checking 4 exercises, new or changed since the last check" in out
    assert "JAX Katas: 1 of 4 exercises done (25%)" in out
    assert "  done       purity-1  exercises/01_purity/global_config.py" in out
    assert "> current    purity-2  exercises/01_purity/no_mutation.py" in out
    assert "  not done   purity-3" in out and "  not done   purity-4" in out

    assert grader(repo, "solution", "purity-2") == 1  # cached as failing: refused without a run
    out = capfd.readouterr().out
    assert "checking" not in out and "does not pass yet" in out and "grader hint purity-2" in out
    assert "def sgd_update" not in out

    solve(repo, PURITY[1].path)
    assert grader(repo, "solution", "purity-2") == 0  # changed: checked again, now passes
    out = capfd.readouterr().out
    assert "checking 1 exercise, new or changed" in out
    assert (repo / "solutions" / PURITY[1].path).read_text().strip() in out

    assert grader(repo, "progress") == 0
    assert "2 of 4 exercises done (50%)" in capfd.readouterr().out
    (repo / "exercises" / PURITY[0].path).write_text((repo / "exercises" / PURITY[0].path).read_text() + "\n")
    assert grader(repo, "progress") == 0
    out = capfd.readouterr().out
    # The learner moved on from purity-2 (just passed): purity-1, edited since, shows as changed.
    assert "  changed    purity-1" in out and "> current    purity-3" in out
    assert "1 exercise(s) changed since their last check: `grader progress --recheck`" in out


@pytest.mark.slow
def test_watch_reruns_on_save_and_moves_on_when_it_passes(repo):
    watcher = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "watch", "--repo", str(repo), "--poll", "0.1", "--max-runs", "2"],
        cwd=repo, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        for line in watcher.stdout:
            lines.append((time.monotonic(), line))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def seen(text: str, limit: float) -> float:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            hit = [when for when, line in lines if text in line]
            if hit:
                return hit[0]
            time.sleep(0.02)
        watcher.kill()
        pytest.fail(f"`grader watch` never printed {text!r}; it printed:\n{''.join(l for _, l in lines)}")

    try:
        seen("[watch] purity-1 not done yet", 120)
        saved = time.monotonic()
        solve(repo, PURITY[0].path)
        assert seen("[watch] saved: re-running purity-1", 30) - saved < 2.0
        seen("purity-1 passes! On to the next exercise. Next: purity-2.", 120)
        assert watcher.wait(timeout=30) == 0
    finally:
        watcher.kill()
        reader.join(timeout=5)
    assert Progress(repo).is_done(PURITY[0])


def _watch_with(monkeypatch, repo: Path, elsewhere) -> list[str]:
    """`grader watch purity-1` for two runs, the checks faked (every run fails at once) and
    `elsewhere()` done while it waits, as a learner's save or command would be; the ids it checked."""
    from grader.learner import watch as watching
    from grader.learner.learn import Course

    class NoWarmProcess:
        def __init__(self, repo: Path, exercise) -> None:
            self.exercise = exercise

        def stale(self) -> bool:
            return False

        def close(self) -> None:
            pass

    checked: list[str] = []
    waits = iter([elsewhere])

    @contextlib.contextmanager
    def keys():
        yield lambda timeout: next(waits, lambda: None)() or False  # acts on the first wait only

    monkeypatch.setattr(watching, "WarmChecks", NoWarmProcess)
    monkeypatch.setattr(watching, "_keys", keys)
    monkeypatch.setattr(Course, "run_checks", lambda self, exercise, warm=None: checked.append(exercise.id) or 1)
    course = Course(repo, load_manifest(repo / "exercises"))
    assert watching.watch(course, "purity-1", poll=0.01, max_runs=2) == 0
    return checked


def test_watch_moves_to_another_exercise_when_its_file_is_saved(repo, monkeypatch, capsys):
    other = repo / "exercises" / PURITY[2].path

    def save_purity_3() -> None:
        other.write_text(other.read_text() + "\n# my attempt\n")

    assert _watch_with(monkeypatch, repo, save_purity_3) == ["purity-1", "purity-3"]
    out = capsys.readouterr().out
    assert f"[watch] exercises/{PURITY[2].path} saved: switching from purity-1 to purity-3" in out
    assert "[watch] purity-3 not done yet" in out


def test_watch_follows_an_exercise_named_or_run_elsewhere(repo, monkeypatch, capsys):
    from grader.learner.learn import Course, show_hint

    def hint_purity_2() -> None:  # `grader hint purity-2` in another terminal
        show_hint(Course(repo, load_manifest(repo / "exercises")), "purity-2")

    assert _watch_with(monkeypatch, repo, hint_purity_2) == ["purity-1", "purity-2"]
    out = capsys.readouterr().out
    assert "[watch] purity-2 was run or named elsewhere: switching from purity-1 to purity-2" in out


def test_watch_stays_on_its_exercise_when_its_own_file_is_saved(repo, monkeypatch, capsys):
    own = repo / "exercises" / PURITY[0].path

    def save_purity_1() -> None:
        own.write_text(own.read_text() + "\n# my attempt\n")
        Progress(repo).save()  # a progress write that names nothing new moves nothing

    assert _watch_with(monkeypatch, repo, save_purity_1) == ["purity-1", "purity-1"]
    assert "[watch] saved: re-running purity-1" in capsys.readouterr().out


# --- what plain pytest shows --------------------------------------------------------------

BRANCHING = '''import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def scaled_logits(logits):
    if logits.sum() > 0:
        return logits / TEMPERATURE
    return logits
'''

ENDLESS_PYTHON = '''def damped_step(x, v):
    while True:
        pass
'''

ENDLESS_XLA = '''import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_of_squares(values):
    return lax.while_loop(lambda c: c > -1.0, lambda c: jnp.abs(c) + 1.0, jnp.sum(values ** 2))
'''


@pytest.mark.slow
def test_failures_show_a_lesson_above_the_learners_own_frames(repo):
    (repo / GLOBAL_CONFIG).write_text(BRANCHING)
    (repo / "exercises/01_purity/debug_print.py").write_text(ENDLESS_PYTHON)
    run = run_pytest(repo, "exercises/01_purity/test_global_config.py", "exercises/01_purity/test_debug_print.py",
                     "--check-timeout", "1", "-rf")
    out = run.stdout
    assert run.returncode == 1, out
    section = out[out.index("test_follows_temperature_changes ___"):]
    lesson = "Python `if`/`while`/`and`/`or` was applied to a traced value (TracerBoolConversionError)"
    assert section.split("\n")[1] == lesson
    assert "Read: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError" in section
    start = section.index("\n\nexercises/")
    trace = section[start:section.index("\n___", start)]
    assert "exercises/01_purity/test_global_config.py:" in trace  # the check line that called it
    assert "exercises/01_purity/global_config.py:13: in scaled_logits\n    if logits.sum() > 0:" in trace
    assert "site-packages" not in out and "jax/_src" not in out and "grader/checks" not in out
    assert "JAX has removed its internal frames" not in out
    assert f"test_follows_temperature_changes - {lesson}" in out  # pytest's short summary line

    assert "timed out after 1 s in purity-3" in out
    assert "exercises/01_purity/debug_print.py:" in out and ": in damped_step" in out  # where it looped
    assert "Stack of" not in out and "+++ Timeout +++" not in out  # no thread dump
    assert "katas: 0 of 4 exercises done (0%)" in out


@pytest.mark.slow
def test_a_check_stuck_in_compiled_code_ends_the_run_with_a_lesson(repo):
    (repo / "exercises/01_purity/loop_iterator.py").write_text(ENDLESS_XLA)
    run = run_pytest(repo, "exercises/01_purity/test_loop_iterator.py", "--check-timeout", "1", timeout=60)
    out = run.stdout + run.stderr
    assert run.returncode == 1
    assert "timed out after 1 s in purity-4" in out and "stuck in compiled code" in out
    assert "lax.while_loop whose condition never turns False" in out
    assert "Stack of" not in out and "Traceback" not in out
    assert Progress(repo).result(PURITY[3]).reason == "timed out after 1 s in purity-4"  # not re-run


@pytest.mark.slow
def test_the_summary_counts_only_whole_exercises_and_stays_quiet_for_other_targets(repo):
    solve(repo, PURITY[0].path)
    one_check = run_pytest(repo, "exercises/01_purity/test_global_config.py::test_follows_temperature_changes")
    assert one_check.returncode == 0
    assert "katas: 0 of 4 exercises done (0%)" in one_check.stdout  # one check of two proves nothing
    assert Progress(repo).result(PURITY[0]) is None

    reference = run_pytest(repo, "exercises/01_purity/test_global_config.py", "--target", "solutions")
    assert reference.returncode == 0
    assert "katas:" not in reference.stdout.replace("katas: checking", "")
    assert not (repo / STATE_NAME).exists()
