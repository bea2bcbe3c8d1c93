"""What the plugin keeps for one pytest run: where the code under test comes from, the learner's run,
and the grader's channel; JAX's set-up as a pytest usage error."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from grader.core.manifest import Exercise, exercise_for_check_file
from grader.core.progress import Progress, Verdict, fingerprint
from grader.runtime.jaxsetup import N_DEVICES, JaxSetupError, start_backend
from grader.runtime.jaxsetup import configure_jax as _configure_jax


def configure_jax(n_devices: int = N_DEVICES, start: bool = True) -> str:
    """grader.runtime.jaxsetup.configure_jax, its failure as a pytest usage error."""
    try:
        return _configure_jax(n_devices, start=start)
    except JaxSetupError as error:
        raise pytest.UsageError(str(error)) from error


def begin_forked_run(config: pytest.Config) -> None:
    """In a fresh fork of a warm process (grader.learner.warmwatch): start JAX, and fingerprint the learner's
    files as they are now, so that this run's results are recorded for the code it ran."""
    try:
        start_backend()
    except JaxSetupError as error:
        raise pytest.UsageError(str(error)) from error
    state = config.stash[STATE]
    if state.learner is not None:
        for entry in state.exercises:
            if entry.id in state.learner.fingerprints:
                state.learner.fingerprints[entry.id] = fingerprint(state.checks_dir, entry)


@dataclass
class KataState:
    root: Path
    checks_dir: Path  # the pristine checks and manifest
    target: Path
    exercises: tuple[Exercise, ...]
    header: str
    channel: Any = None  # the grader's result pipe, when run by `grader`
    key: bytes = b""
    learner: LearnerRun | None = None  # set when the learner runs the checks on exercises/
    progress: Progress | None = None  # the progress file, once this run's results are in
    failed_hard: dict[str, str] = field(default_factory=dict)  # exercise id -> why (timeout, memory)
    restart: bool = False  # the grader's process must end after this check's report
    session: Any = None  # under --examiner: the connection to the subject that imports the exercises
    results: dict[str, list[str]] | None = None  # under --kata-results: nodeid -> [outcome, code]
    file_order: list[str] = field(default_factory=list)  # the checks' nodeids in teaching and file order
    _exercise_of: dict[str, Exercise | None] = field(default_factory=dict)
    _prediction_texts: dict[str, str | None] = field(default_factory=dict)

    def read_prediction_texts(self) -> None:
        """Read every predict kata's file from the target now (the examiner: before its subject starts, so
        nothing the submission runs can rewrite what is judged)."""
        for entry in self.exercises:
            if entry.kind == "predict":
                self.prediction_text(entry)

    def prediction_text(self, entry: Exercise) -> str | None:
        """A predict kata's file as text, read once per run (None when missing): its predictions are read
        from it, never imported."""
        if entry.path not in self._prediction_texts:
            path = self.target / entry.path
            try:
                self._prediction_texts[entry.path] = path.read_text(encoding="utf-8") if path.is_file() else None
            except (OSError, UnicodeDecodeError):
                self._prediction_texts[entry.path] = None
        return self._prediction_texts[entry.path]

    def exercise_for(self, path: Path) -> Exercise | None:
        """The exercise a check file belongs to (in the checks folder, or the grader's hidden folder)."""
        key = str(path)
        if key not in self._exercise_of:  # every hook asks, for every check: resolve each file once
            resolved, found = path.resolve(), None
            for folder in (self.checks_dir, self.hidden_dir):
                if resolved.is_relative_to(folder.resolve()):
                    found = exercise_for_check_file(self.exercises, resolved.relative_to(folder.resolve()).as_posix())
                    break
            self._exercise_of[key] = found
        return self._exercise_of[key]

    @property
    def hidden_dir(self) -> Path:
        """Where the grader's workspace keeps hidden checks, apart from the visible ones."""
        from grader.engine.workspace import HIDDEN_DIR

        return self.root / HIDDEN_DIR


@dataclass
class LearnerRun:
    """What a learner's run over exercises/ found: for the progress file and the closing summary."""

    checks: dict[str, list[str]] = field(default_factory=dict)  # exercise id -> its collected checks
    fingerprints: dict[str, str] = field(default_factory=dict)  # exercise id -> files at collection
    partial: set[str] = field(default_factory=set)  # exercises only some of whose checks were selected
    outcomes: dict[str, Verdict] = field(default_factory=dict)  # nodeid -> outcome


STATE = pytest.StashKey[KataState]()
