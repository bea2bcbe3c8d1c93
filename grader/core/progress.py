"""A learner's progress: which exercises pass, and how many hints were shown.

Kept in `.katas-progress.json` at the repository root (git-ignored). An
exercise is *done* when all its checks pass on the learner's file. Running the
checks takes seconds, so results are cached under a fingerprint of the
exercise file and its check file: a result stays valid until either changes,
and only changed exercises are ever checked again. Every learner's pytest run
over `exercises/` records what it found (grader.plugin), so `grader progress`
usually has nothing left to check.

A result belongs to the content it was proved for, not to the file's last
write: each exercise also remembers its last few results by fingerprint, so a
file put back as it was (a `git stash` and `stash pop`, an undo) finds its
result again without a run.

*The current exercise* follows the learner: it is the exercise last run or
named (a pytest run's first failing exercise, `grader next ID`, `grader hint
ID`, a notebook cell), until it passes; then the first unfinished one after
it. Before anything was run or named it is the first unfinished exercise in
teaching order.

A notebook (grader.learner.notebook) checks a cell's code instead of the exercise
file: it saves that code as the exercise's file in `.katas-notebook/` and
records the result here, in the same place, under the fingerprint of that copy
and the checks, marked `"from": "notebook"`. Such a result is valid while the
copy and the checks are unchanged. Either way an exercise keeps its latest
result: a pytest run over exercises/ replaces a notebook's, and the other way
round.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from grader.core.files import write_atomically
from grader.core.manifest import Exercise

STATE_NAME = ".katas-progress.json"
NOTEBOOK_DIR = ".katas-notebook"  # a notebook's copy of each exercise it checked, shaped like exercises/
SCHEMA_VERSION = 1
KEPT_PER_EXERCISE = 8  # results remembered per exercise, by content: enough for a few undos or stashes


def fingerprint(exercises_dir: Path, exercise: Exercise, code_dir: Path | None = None) -> str:
    """Digest of the learner's file and its checks: a cached result is valid while it matches.

    `code_dir`: where the learner's file is when not beside its checks (a
    notebook's copy); the digest is the one its checks would have beside it.
    """
    digest = hashlib.sha256()
    for rel, folder in ((exercise.path, code_dir or exercises_dir), (exercise.check_path, exercises_dir)):
        path = folder / rel
        digest.update(rel.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"\0missing\0")
    return digest.hexdigest()


@dataclass
class Verdict:
    """What one pytest run proved about one exercise."""

    passed: bool
    reason: str = ""  # the first failing check's reason, when not passed


def judge(checks: list[str], outcomes: dict[str, Verdict], whole: bool) -> Verdict | None:
    """What a run proved about one exercise, from its checks' outcomes (None: nothing).

    One failing check proves it not done. Done needs every check of the
    exercise to have run and passed, so a run that selected only some of them
    (`file::check`, -k, an interrupted run) proves nothing either way.
    """
    for nodeid in checks:
        if nodeid in outcomes and not outcomes[nodeid].passed:
            return outcomes[nodeid]
    if whole and checks and all(nodeid in outcomes for nodeid in checks):
        return Verdict(True)
    return None


class Progress:
    """The progress file of one repository. Load, change, `save()`."""

    def __init__(self, repo: Path) -> None:
        self.repo = Path(repo)
        self.path = self.repo / STATE_NAME
        self.data = self._read()

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None  # none yet, or unreadable: start afresh rather than fail the learner
        if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
            data = {"version": SCHEMA_VERSION}
        data.setdefault("hints", {})
        data.setdefault("results", {})
        data.setdefault("seen", {})  # exercise id -> {fingerprint: result}, oldest first
        return data

    def save(self) -> None:
        """Write atomically, so an interrupted write never leaves half a file."""
        write_atomically(self.path, json.dumps(self.data, indent=2, sort_keys=True) + "\n")

    # --- hints ---------------------------------------------------------------

    def hints_shown(self, exercise: Exercise) -> int:
        return int(self.data["hints"].get(exercise.id, 0))

    def set_hints_shown(self, exercise: Exercise, count: int) -> None:
        self.data["hints"][exercise.id] = count

    # --- results -------------------------------------------------------------

    @property
    def exercises_dir(self) -> Path:
        return self.repo / "exercises"

    @property
    def notebook_dir(self) -> Path:
        return self.repo / NOTEBOOK_DIR

    def record(self, exercise: Exercise, digest: str, verdict: Verdict, source: str = "exercises") -> None:
        """Remember a result for the files whose fingerprint is `digest` (source "notebook": its copy)."""
        saved = {"fingerprint": digest, "passed": verdict.passed, "reason": verdict.reason}
        if source == "notebook":
            saved["from"] = "notebook"
        self.data["results"][exercise.id] = saved
        seen = self.data["seen"].setdefault(exercise.id, {})
        seen.pop(digest, None)  # re-inserted last: the newest result of that content
        seen[digest] = {key: value for key, value in saved.items() if key != "fingerprint"}
        while len(seen) > KEPT_PER_EXERCISE:
            del seen[next(iter(seen))]

    def result(self, exercise: Exercise) -> Verdict | None:
        """The result proved for the files as they are now (the latest one, or one remembered for this
        same content); None when unknown."""
        latest = self.data["results"].get(exercise.id)
        seen = self.data["seen"].get(exercise.id, {})
        candidates = ([latest] if latest else []) + [{**saved, "fingerprint": digest}
                                                     for digest, saved in reversed(seen.items())]
        digests: dict[bool, str] = {}  # from a notebook? -> the files' fingerprint, computed once
        for saved in candidates:
            notebook = saved.get("from") == "notebook"
            if notebook not in digests:
                digests[notebook] = fingerprint(self.exercises_dir, exercise,
                                                code_dir=self.notebook_dir if notebook else None)
            if saved.get("fingerprint") == digests[notebook]:
                return Verdict(bool(saved.get("passed")), saved.get("reason", ""))
        return None

    def recorded(self, exercise: Exercise) -> bool:
        """Whether any result was ever recorded for the exercise (perhaps for an older version of it)."""
        return exercise.id in self.data["results"]

    def is_done(self, exercise: Exercise) -> bool:
        known = self.result(exercise)
        return known is not None and known.passed

    def stale(self, exercises: tuple[Exercise, ...]) -> list[Exercise]:
        """Exercises with no valid cached result: never checked, or changed since."""
        return [e for e in exercises if self.result(e) is None]

    def current(self, exercises: tuple[Exercise, ...], passed: frozenset[str] | set[str] = frozenset()
                ) -> Exercise | None:
        """The exercise the learner is on (see the module's docstring); None when every one passes.

        `passed`: ids just seen passing that the file may not show yet.
        """
        def unfinished(entry: Exercise) -> bool:
            return entry.id not in passed and not self.is_done(entry)

        chosen = next((e for e in exercises if e.id == self.named()), None)
        if chosen is not None:
            if unfinished(chosen):
                return chosen
            after = next((e for e in exercises[exercises.index(chosen) + 1:] if unfinished(e)), None)
            if after is not None:
                return after
        return next((e for e in exercises if unfinished(e)), None)

    def named(self) -> str | None:
        """The id of the exercise last run or named, as recorded (passed or not)."""
        return self.data.get("current")

    def set_current(self, exercise: Exercise) -> None:
        """The learner ran or named this exercise: it is the current one until it passes."""
        self.data["current"] = exercise.id

    def done_count(self, exercises: tuple[Exercise, ...]) -> int:
        return sum(self.is_done(e) for e in exercises)


def percent(done: int, total: int) -> int:
    """Rounded down, so 100% means every exercise."""
    return 100 * done // total if total else 0
