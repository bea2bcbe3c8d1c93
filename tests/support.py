"""Helpers for the project's own tests: the targets they run and the variants they keep.

Running every check costs one JAX process per target, so the targets these
tests need (the reference solutions, the untouched stubs, and rounds of
mutants and alternates) are all started at once in the background, two at a
time (one per core), the first time any test asks for one. Each target runs
once per session; the tests only read the results.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from grader import REPO_ROOT
from grader.manifest import Exercise, load_manifest, select
from grader.grading import Grade, grade
from grader.files import cache_home

# KATAS_ONLY=vmap,purity-1 narrows the soundness tests to some exercises while
# writing them; CI always runs everything.
ONLY = os.environ.get("KATAS_ONLY", "")
# Trusted code (solutions, mutants) shares the user's compilation cache across runs.
USER_CACHE = cache_home()
ALL_EXERCISES = load_manifest(REPO_ROOT / "exercises")
EXERCISES = select(ALL_EXERCISES, ONLY) if ONLY else ALL_EXERCISES
# The grader's own tests grade these four small exercises (one short child process each run);
# their fixtures are written against them, whatever later exercises the topic gains.
PURITY_IDS = "purity-1,purity-2,purity-3,purity-4"
PURITY = select(ALL_EXERCISES, PURITY_IDS)
VARIANTS = Path(__file__).parent / "variants"


KINDS = ("mutant", "mimic", "alternate")


@dataclass(frozen=True)
class Variant:
    """A rewrite of one exercise kept to test its checks, in `tests/variants/<NN_topic>/<name>/`.

    - `mutant_<label>.py`: a plausible wrong answer; the checks must reject it.
    - `mimic_<label>.py`: returns the right values but skips the JAX idea the
      exercise teaches (NumPy on the host, a final device_put, a manual
      delete, zero compiles, the whole batch on every device...); the checks
      must reject it, and not for its values.
    - `alternate_<label>.py`: an unusual but correct answer; it must pass.
    """

    exercise: Exercise
    path: Path

    @property
    def kind(self) -> str:
        return self.path.name.split("_", 1)[0]

    @property
    def label(self) -> str:
        return f"{self.exercise.id}:{self.path.stem}"


def _export_pristine(folder: Path) -> Path:
    """This repository with every exercise stub as staged in git, not as a learner has edited it.

    A learner solves exercises in exercises/; the project's tests must judge
    the untouched stubs whatever the learner did, so stubs are read from
    git's index (`git add` a stub you changed on purpose). Everything else
    (checks, manifest, solutions, the grader) is the working tree. A stub git
    does not know yet (a new exercise) is the working tree's; outside a git
    checkout every file is. KATAS_PRISTINE_REV=origin/main reads the stubs of
    a commit instead, for a learner who committed their solutions.
    """
    for top in ("exercises", "solutions", "grader"):
        shutil.copytree(REPO_ROOT / top, folder / top, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("conftest.py", "pyproject.toml", "README.md"):
        shutil.copyfile(REPO_ROOT / name, folder / name)
    revision = os.environ.get("KATAS_PRISTINE_REV", "")  # "" is git's index
    for entry in load_manifest(REPO_ROOT / "exercises"):
        staged = subprocess.run(["git", "show", f"{revision}:exercises/{entry.path}"], cwd=REPO_ROOT,
                                capture_output=True)
        if staged.returncode == 0:
            (folder / "exercises" / entry.path).write_bytes(staged.stdout)
    return folder


PRISTINE = _export_pristine(Path(tempfile.mkdtemp(prefix="katas-pristine-")) / "repo")
atexit.register(shutil.rmtree, PRISTINE.parent, ignore_errors=True)


def pristine_exercises(scratch: Path | None = None) -> Path:
    """exercises/ as committed: the untouched stubs, whatever the learner did to their copy."""
    return PRISTINE / "exercises"


def variants(kind: str) -> list[Variant]:
    found = []
    for entry in EXERCISES:
        folder = VARIANTS / entry.path.removesuffix(".py")
        found += [Variant(entry, p) for p in sorted(folder.glob(f"{kind}_*.py"))]
    return found


def rounds(kind: str) -> list[list[Variant]]:
    """Group variants so each round holds at most one per exercise: one child process per round."""
    by_exercise: dict[str, list[Variant]] = {}
    for variant in variants(kind):
        by_exercise.setdefault(variant.exercise.id, []).append(variant)
    depth = max((len(v) for v in by_exercise.values()), default=0)
    return [[v[i] for v in by_exercise.values() if i < len(v)] for i in range(depth)]


class Runs:
    """Every target's results, computed once, two targets at a time."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.futures: dict[str, Future] = {}
        self.seconds: dict[str, float] = {}  # target -> how long it ran, for the closing summary

    def start_all(self) -> None:
        if "solutions" in self.futures:
            return  # started already (other tests may have queued their own work first)
        self.submit("solutions", self._grade_cli, "solutions")
        self.submit("stubs", self._grade_cli, str(pristine_exercises()))
        # Biggest rounds first, so that no big one is left running alone at the end.
        for size, name, group in sorted(((len(group), f"{kind}-{i}", group) for kind in KINDS
                                         for i, group in enumerate(rounds(kind))), key=lambda r: -r[0]):
            self.submit(name, self._run_round, name, group)

    def _grade_cli(self, target: str) -> dict:
        """Grade with the real `grader` command: these runs double as its end-to-end test."""
        out = self.scratch / f"{Path(target).name}.json"
        only = ["--only", ONLY] if ONLY else []
        # One check process: the pool runs two targets at once already, one per core.
        proc = subprocess.run([sys.executable, "-m", "grader.cli", "grade", target, "--json", str(out),
                               "--jobs", "1", *only], cwd=REPO_ROOT, capture_output=True, text=True, timeout=1800)
        return {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr,
                "json": json.loads(out.read_text()) if out.exists() else None}

    def _run_round(self, name: str, group: list[Variant]) -> Grade:
        target = self.scratch / name
        for variant in group:
            dest = target / variant.exercise.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(variant.path, dest)
        only = tuple(sorted({v.exercise for v in group}, key=lambda e: e.index))
        return grade(target, only=only, shared_cache=USER_CACHE)

    def submit(self, name: str, fn, *args) -> None:
        """Queue more work on the same two workers (once per name)."""
        if name not in self.futures:
            self.futures[name] = self.pool.submit(self._timed, name, fn, *args)

    def _timed(self, name: str, fn, *args):
        start = time.monotonic()
        try:
            return fn(*args)
        finally:
            self.seconds[name] = time.monotonic() - start

    def get(self, name: str):
        if name not in self.futures:
            self.start_all()
        return self.futures[name].result()


def checks_by_exercise(graded: dict) -> dict[str, list[dict]]:
    """exercise id -> its checks, from the grader's JSON."""
    return {e["id"]: e["checks"] for e in graded["exercises"]}


def variant_results(runs: Runs, kind: str) -> dict[str, list]:
    """variant label -> its exercise's checks (grader.grading.Check)."""
    results = {}
    for i, group in enumerate(rounds(kind)):
        graded = {e.exercise.id: e for e in runs.get(f"{kind}-{i}").exercises}
        for variant in group:
            results[variant.label] = graded[variant.exercise.id].checks
    return results
