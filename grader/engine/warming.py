"""Building the warm cache: grade the reference solutions once per version of the checks, keep
every program they compiled (sealed) and the seconds each exercise took (grader.engine.warm reads
them)."""

from __future__ import annotations

import fcntl
import json
import shutil
import tempfile
from pathlib import Path

from grader import REPO_ROOT
from grader.engine.grading import examiners_cache, grade
from grader.engine.warm import CACHE_SUFFIX, WARM_LOG_ENV, expected_seconds, seal, unseal, warm_dir


def build(repo: Path = REPO_ROOT, *, force: bool = False, say=print) -> Path | None:
    """Build the warm programs for the present checks unless they exist; their folder, or None
    where there are no reference solutions to build from (a student release)."""
    compile_grader()
    if not (repo / "solutions").is_dir():
        return None
    folder = warm_dir(repo)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two batches on one machine build it once
        if (folder / "ready.json").is_file() and not force:
            return folder
        say("warming the compilation cache: grading the reference solutions once for this version "
            "of the checks ...")
        staged = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
        found = collect(repo, staged)
        if folder.exists():
            unseal(folder / "sealed")
            shutil.rmtree(folder)
        staged.rename(folder)
        expected_seconds.cache_clear()
        say(f"warm: {found['programs']} programs kept in {folder} (sealed), {found['eager_programs']} "
            f"of them for eager operations alone")
        return folder


def compile_grader() -> None:
    """Write the grader's bytecode beside its sources (where they may be written). Every process
    `grader grade` starts runs with `-B` and so never writes it; without it, the grader, its
    examiners' fork server and the subject host each compiled the grader's modules again on every
    grade, a fifth of a second of CPU apiece."""
    import compileall

    import grader

    try:
        compileall.compile_dir(Path(grader.__file__).parent, quiet=2)
    except OSError:
        pass  # a read-only install: the modules are compiled as they are imported, as before


def collect(repo: Path, dest: Path, only: tuple | None = None, *, timed: bool = True) -> dict:
    """Grade the reference solutions (of `only`, default all) with a private cache; keep every
    program in `dest/sealed` (then seal it), those eager operations alone produced in `dest/xla`,
    and write `dest/ready.json`. `timed`: grade them once more as a submission is graded, warm,
    for the seconds each exercise takes (what `grade --jobs` shares out by)."""
    with tempfile.TemporaryDirectory(prefix="katas-warm-") as scratch:
        cache = Path(scratch) / "jax-katas" / "xla"
        cache.mkdir(parents=True)
        log = cache / "katas-warm-log.jsonl"
        report = grade(repo / "solutions", label="warm-up", repo=repo, only=only, shared_cache=Path(scratch),
                       extra_env={WARM_LOG_ENV: str(log)})
        (dest / "xla").mkdir(parents=True, exist_ok=True)
        for key in _eager_only(log):
            entry = cache / f"{key}{CACHE_SUFFIX}"
            if entry.is_file():
                shutil.copyfile(entry, dest / "xla" / entry.name)
        (dest / "sealed").mkdir(parents=True, exist_ok=True)
        for folder in (cache, examiners_cache(Path(scratch))):  # the subjects' programs and the examiners'
            for entry in folder.glob(f"*{CACHE_SUFFIX}"):
                shutil.copyfile(entry, dest / "sealed" / entry.name)
        if (examiners_cache(Path(scratch)) / "executables").is_dir():  # what the examiners' checks compiled
            shutil.copytree(examiners_cache(Path(scratch)) / "executables", dest / "executables")
    programs, eager = len(list((dest / "sealed").iterdir())), len(list((dest / "xla").iterdir()))
    seal(dest / "sealed")
    if timed:  # the first run compiled everything: its seconds are not what a submission's take
        report = grade(repo / "solutions", label="warm-up, timed", repo=repo, only=only, warm_cache=dest)
    found = {"programs": programs, "eager_programs": eager, "score": report.score,
             "max_score": report.max_score,
             "seconds": {e.exercise.id: round(sum(c.result.duration for c in e.checks), 3)
                         for e in report.exercises}}
    (dest / "ready.json").write_text(json.dumps(found, indent=2) + "\n")
    return found


def _eager_only(log: Path) -> set[str]:
    """Cache keys every compile of which served an eager operation (never a learner's function)."""
    eager, programs = set(), set()
    if log.is_file():
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            (eager if entry["eager"] else programs).add(entry["key"])
    return eager - programs
