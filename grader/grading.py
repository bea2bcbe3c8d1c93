"""Grade one submission: isolate it, run the pristine checks, score from the manifest.

Scoring is decided here, in the trusted parent. The maximum comes from the
manifest; every check the pristine files define starts as failed and turns
passed only on a signed result from the check process. An exercise earns its
points when all its checks pass (a correct-but-recompiling answer is not
correct), nothing otherwise.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader import REPO_ROOT
from grader.limits import Limits
from grader.manifest import Exercise, load_manifest
from grader import sandbox
from grader.runner import CheckResult, run_checks
from grader.sandbox import PROCESS, Isolation
from grader.scan import Flag, scan_files, scan_planted
from grader.workspace import Workspace, build_workspace, lay_out


@dataclass
class Check:
    nodeid: str
    hidden: bool
    result: CheckResult

    @property
    def name(self) -> str:
        return self.nodeid.rsplit("::", 1)[-1]


@dataclass
class ExerciseGrade:
    exercise: Exercise
    checks: list[Check]
    score: int = 0
    reason: str = ""
    flags: list[Flag] = field(default_factory=list)
    code: str = ""  # the kind of mistake behind `reason` (checks.FAILURE_CODES); "" when passed

    @property
    def status(self) -> str:
        return "passed" if self.score == self.exercise.points else "failed"


@dataclass
class Grade:
    target: str
    exercises: list[ExerciseGrade] = field(default_factory=list)
    seconds: float = 0.0
    forged_results: int = 0
    planted: list[Flag] = field(default_factory=list)  # steering files the submission carries
    error: str = ""  # the submission could not be graded at all
    isolation: Isolation = Isolation(PROCESS)  # how the check processes were walled in

    @property
    def score(self) -> int:
        return sum(e.score for e in self.exercises)

    @property
    def max_score(self) -> int:
        return sum(e.exercise.points for e in self.exercises)

    @property
    def flags(self) -> list[Flag]:
        return [flag for e in self.exercises for flag in e.flags] + self.planted

    @property
    def needs_review(self) -> bool:
        return bool(self.flags or self.forged_results)

    def review_notes(self) -> list[str]:
        notes = [flag.text() if flag.line else f"{flag.path}: {flag.reason}" for flag in self.flags]
        if self.forged_results:
            notes.append(f"{self.forged_results} forged result line(s) were written to the grader's channel")
        return notes


def grade(source: Path | None, *, label: str | None = None, repo: Path = REPO_ROOT,
          only: tuple[Exercise, ...] | None = None, limits: Limits = Limits(),
          shared_cache: Path | None = None, user: str | None = None,
          isolation: Isolation | None = None) -> Grade:
    """Grade the exercise files under `source` (a folder shaped like `exercises/`).

    Args:
      only: grade just these exercises (default: the whole manifest).
      shared_cache: reuse this cache folder (XDG_CACHE_HOME-like: the compilation
        cache is its jax-katas/xla) for trusted code such as the reference
        solutions; submissions get a fresh one.
      user: run the check processes as this unprivileged user.
      isolation: how to wall the check processes in (default: the best this
        machine gives, see grader.sandbox).
    """
    start = time.monotonic()
    exercises = tuple(only or load_manifest(repo / "exercises"))
    isolation = isolation or sandbox.choose()
    report = Grade(target=label or str(source), isolation=isolation)
    with tempfile.TemporaryDirectory(prefix="katas-grade-") as scratch:
        workspace, copied = build_workspace(Path(scratch) / "ws", repo, exercises, source)
        if user is not None:
            _hand_over(workspace, user)
        flags = scan_files(workspace.submission, copied.files)
        writable = workspace.writable
        if shared_cache is not None:
            shared = Path(shared_cache) / "jax-katas" / "xla"
            shared.mkdir(parents=True, exist_ok=True)
            writable += (shared,)
        run = run_checks(workspace, workspace.check_paths(exercises), limits, env=workspace.env(shared_cache),
                         user=user, restore=lambda: lay_out(workspace, repo, exercises, source),
                         sandbox=sandbox.command(isolation, workspace.root, writable=writable))
    report.forged_results = run.forged
    if source is not None and source.is_dir():
        every = load_manifest(repo / "exercises")
        report.planted = scan_planted(source, {e.check_path for e in every} | {e.hidden_check_path for e in every})
    report.error = run.error
    for entry in exercises:
        checks = [Check(c["nodeid"], c.get("hidden", False), result) for c, result in run.for_exercise(entry.id)]
        report.exercises.append(_score(entry, checks, copied.refused.get(entry.path), run.error,
                                       flags.get(entry.path, [])))
    report.seconds = time.monotonic() - start
    return report


def _score(entry: Exercise, checks: list[Check], refused: str | None, run_error: str,
           flags: list[Flag]) -> ExerciseGrade:
    if refused and refused != "is missing":
        return ExerciseGrade(entry, checks, 0, f"{entry.path} {refused}: not graded", flags, "missing")
    if not checks:
        return ExerciseGrade(entry, checks, 0, run_error or "no checks ran for this exercise", flags, "not-run")
    failed = [c for c in checks if not c.result.passed]
    if failed:
        first = failed[0]
        where = "a hidden check" if first.hidden else first.name
        return ExerciseGrade(entry, checks, 0, f"{where}: {first.result.reason}", flags,
                             first.result.code or "error")
    return ExerciseGrade(entry, checks, entry.points, "", flags)


def _hand_over(workspace: Workspace, user: str) -> None:
    """Let the sandbox user read the workspace and write only its home, tmp and cache."""
    import os
    import pwd

    record = pwd.getpwnam(user)
    for folder in (workspace.root.parent, workspace.root):
        os.chmod(folder, 0o755)  # temporary folders start private to their owner
    for folder in workspace.writable:
        os.chown(folder, record.pw_uid, record.pw_gid)
