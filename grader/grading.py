"""Score a target folder against the manifest and the pristine checks.

Scoring: an exercise earns its manifest points when every one of its checks
passes, and nothing otherwise (a correct-but-recompiling answer is not
correct). The maximum always comes from the manifest, never from what ran.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from grader import REPO_ROOT
from grader.manifest import Exercise, load_manifest
from grader.runner import CHECK_TIMEOUT, CheckResult, run_checks

SCHEMA_VERSION = 1


@dataclass
class ExerciseGrade:
    exercise: Exercise
    checks: list[CheckResult]
    score: int = 0
    reason: str = ""

    @property
    def status(self) -> str:
        return "passed" if self.score == self.exercise.points else "failed"


@dataclass
class Grade:
    target: Path
    exercises: list[ExerciseGrade] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def score(self) -> int:
        return sum(e.score for e in self.exercises)

    @property
    def max_score(self) -> int:
        return sum(e.exercise.points for e in self.exercises)


def grade(target: Path, *, root: Path = REPO_ROOT, only: list[Exercise] | None = None,
          timeout: int | None = None) -> Grade:
    """Run the checks of every manifest exercise (or `only` these) against `target`."""
    start = time.monotonic()
    exercises = list(only or load_manifest(root / "exercises"))
    paths = [f"exercises/{e.check_path}" for e in exercises if (root / "exercises" / e.check_path).is_file()]
    run = run_checks(target, paths, root=root, timeout=timeout or CHECK_TIMEOUT) if paths else None
    report = Grade(target=target)
    for entry in exercises:
        checks = run.for_exercise(entry.id) if run else []
        report.exercises.append(_score(entry, checks, run.output if run else ""))
    report.seconds = time.monotonic() - start
    return report


def _score(entry: Exercise, checks: list[CheckResult], output: str) -> ExerciseGrade:
    if not checks:
        reason = "no checks ran for this exercise"
        if "error" in output.lower():
            tail = [line for line in output.splitlines() if line.strip()][-1:]
            reason += f" ({tail[0][:160]})" if tail else ""
        return ExerciseGrade(entry, checks, 0, reason)
    failed = [c for c in checks if not c.passed]
    if failed:
        first = failed[0]
        name = first.nodeid.rsplit("::", 1)[-1]
        return ExerciseGrade(entry, checks, 0, f"{name}: {first.reason}")
    return ExerciseGrade(entry, checks, entry.points, "")


def to_json(report: Grade) -> dict:
    """The project's own results schema (versioned: bump SCHEMA_VERSION on change)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "target": str(report.target),
        "score": report.score,
        "max_score": report.max_score,
        "seconds": round(report.seconds, 2),
        "exercises": [
            {
                "id": e.exercise.id,
                "path": e.exercise.path,
                "score": e.score,
                "max_score": e.exercise.points,
                "status": e.status,
                "reason": e.reason,
                "checks": [
                    {"name": c.nodeid, "status": c.outcome, "message": c.reason,
                     "duration": round(c.duration, 3)}
                    for c in e.checks
                ],
            }
            for e in report.exercises
        ],
    }


def render_table(report: Grade, width: int = 100) -> str:
    """A plain-text table: exercise, points, status, first failure line; then the total."""
    rows = [("exercise", "points", "status", "reason")]
    for e in report.exercises:
        rows.append((e.exercise.id, f"{e.score}/{e.exercise.points}",
                     "ok" if e.status == "passed" else "FAIL", e.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    room = max(20, width - sum(widths) - 6)
    lines = []
    for row in rows:
        reason = row[3] if len(row[3]) <= room else row[3][: room - 3] + "..."
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + reason)
    lines.insert(1, "-" * min(width, max(len(line) for line in lines)))
    lines.append("")
    lines.append(f"total: {report.score} / {report.max_score} points "
                 f"({sum(e.status == 'passed' for e in report.exercises)} of {len(report.exercises)} "
                 f"exercises) in {report.seconds:.1f} s")
    return "\n".join(lines)
