"""A warm start for every submission's compilation cache, built once per version of the checks.

Every submission's check processes compile the same small programs: the
ones the checks' own eager operations need (making inputs, comparing
results), and, for every answer that is right, the very programs the
reference solutions compile. `grader warm` grades the reference solutions
once with a private cache and keeps two sets of them:

- `sealed/`: every program. In the namespaces sandbox a submission gets this
  folder read-only and unlistable (mode --x, on a read-only mount): JAX opens
  a program by its key, a hash of the exact program it is about to compile,
  so a submission is served only programs it has just built itself. It can
  neither list the folder nor open a solution's program without writing that
  solution first.
- `xla/`: the programs eager operations alone produced, for the fallback
  without a sandbox, where a submission's cache starts as a copy of them
  (there nothing stops a process from listing a folder its user owns, so no
  solution's program is ever handed out there).

The same run records how long each exercise's checks take on the reference
solutions, so that `grade --jobs N` can share exercises out evenly.

Compile counts stay exact: JAX reports a compile event on a cache hit too,
so a warm cache changes how long a compile takes, never how many there are.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from grader import REPO_ROOT, __version__
from grader.jaxsetup import SEALED_CACHE_ENV  # noqa: F401 - re-exported

WARM_LOG_ENV = "KATAS_WARM_LOG"  # set by `build` for its trusted run: where the plugin logs compiles
_CACHE_SUFFIX = "-cache"  # how JAX's persistent cache names an entry's file


def warm_root() -> Path:
    from grader.files import cache_home

    return cache_home() / "jax-katas" / "warm"


@functools.cache
def warm_dir(repo: Path = REPO_ROOT) -> Path:
    """Where the warm programs for this version of the checks (and of JAX) live."""
    from importlib.metadata import version

    return warm_root() / f"{checks_fingerprint(repo)[:16]}-jax{version('jax')}"


def checks_fingerprint(repo: Path = REPO_ROOT) -> str:
    """Changes whenever the pristine checks, the manifest or the grader change."""
    digest = hashlib.sha256(__version__.encode())
    for folder in (repo / "exercises", repo / "grader"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(repo).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def ready(repo: Path = REPO_ROOT) -> Path | None:
    """The warm programs' folder (holding `xla/` and `sealed/`), if built for the present checks."""
    folder = warm_dir(repo)
    return folder if (folder / "ready.json").is_file() else None


@functools.cache
def expected_seconds(repo: Path = REPO_ROOT) -> dict[str, float]:
    """exercise id -> seconds its checks took on the reference solutions (empty before `build`)."""
    try:
        return json.loads((warm_dir(repo) / "ready.json").read_text())["seconds"]
    except (OSError, ValueError, KeyError):
        return {}


def build(repo: Path = REPO_ROOT, *, force: bool = False, say=print) -> Path | None:
    """Build the warm programs for the present checks unless they exist; their folder, or None
    where there are no reference solutions to build from (a student release)."""
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


def collect(repo: Path, dest: Path, only: tuple | None = None, *, timed: bool = True) -> dict:
    """Grade the reference solutions (of `only`, default all) with a private cache; keep every
    program in `dest/sealed` (then seal it), those eager operations alone produced in `dest/xla`,
    and write `dest/ready.json`. `timed`: grade them once more as a submission is graded, warm,
    for the seconds each exercise takes (what `grade --jobs` shares out by)."""
    from grader.grading import grade

    with tempfile.TemporaryDirectory(prefix="katas-warm-") as scratch:
        cache = Path(scratch) / "jax-katas" / "xla"
        cache.mkdir(parents=True)
        log = cache / "katas-warm-log.jsonl"
        report = grade(repo / "solutions", label="warm-up", repo=repo, only=only, shared_cache=Path(scratch),
                       extra_env={WARM_LOG_ENV: str(log)})
        (dest / "xla").mkdir(parents=True, exist_ok=True)
        for key in _eager_only(log):
            entry = cache / f"{key}{_CACHE_SUFFIX}"
            if entry.is_file():
                shutil.copyfile(entry, dest / "xla" / entry.name)
        (dest / "sealed").mkdir(parents=True, exist_ok=True)
        for entry in cache.glob(f"*{_CACHE_SUFFIX}"):
            shutil.copyfile(entry, dest / "sealed" / entry.name)
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


def seal(folder: Path) -> None:
    """Files readable by name, the folder unlistable: mode --x (the sandbox mounts it read-only,
    so no one inside can change that back)."""
    for entry in folder.iterdir():
        entry.chmod(0o444)
    folder.chmod(0o111)


def unseal(folder: Path) -> None:
    if folder.is_dir():
        folder.chmod(0o755)


def _eager_only(log: Path) -> set[str]:
    """Cache keys every compile of which served an eager operation (never a learner's function)."""
    eager, programs = set(), set()
    if log.is_file():
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            (eager if entry["eager"] else programs).add(entry["key"])
    return eager - programs


def record_compiles(path: str) -> None:
    """In a check process of `build`'s trusted run: log each compile's cache key and kind."""
    from grader.checks.compiles import _JAX_DIR, _is_eager

    class _Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if not str(record.msg).startswith(("PERSISTENT COMPILATION CACHE MISS", "Persistent compilation cache hit")):
                return
            key = record.args[1] if isinstance(record.args, tuple) and len(record.args) > 1 else None
            frame = sys._getframe(1)
            while frame is not None and not frame.f_code.co_filename.startswith(_JAX_DIR):
                frame = frame.f_back  # out of the logging machinery, into JAX's compiler
            if key:
                with open(path, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"key": key, "eager": _is_eager(frame)}) + "\n")

    logger = logging.getLogger("jax._src.compiler")
    logger.addHandler(_Handler(logging.DEBUG))
    logger.setLevel(logging.DEBUG)


def maybe_record_compiles(environ: Any = os.environ) -> None:
    path = environ.get(WARM_LOG_ENV)
    if path:
        record_compiles(path)
