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

`grader.engine.warming` builds it. The same run records how long each exercise's checks take on the reference
solutions, so that `grade --jobs N` can share exercises out evenly.

Compile counts stay exact: JAX reports a compile event on a cache hit too,
so a warm cache changes how long a compile takes, never how many there are.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from grader import REPO_ROOT, __version__

WARM_LOG_ENV = "KATAS_WARM_LOG"  # set by `build` for its trusted run: where the plugin logs compiles
CACHE_SUFFIX = "-cache"  # how JAX's persistent cache names an entry's file


def warm_root() -> Path:
    from grader.core.files import cache_home

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


def seal(folder: Path) -> None:
    """Files readable by name, the folder unlistable: mode --x (the sandbox mounts it read-only,
    so no one inside can change that back)."""
    for entry in folder.iterdir():
        entry.chmod(0o444)
    folder.chmod(0o111)


def unseal(folder: Path) -> None:
    if folder.is_dir():
        folder.chmod(0o755)


def record_compiles(path: str) -> None:
    """In a check process of `build`'s trusted run: log each compile's cache key and kind."""
    from grader.checks.compiles import JAX_DIR, is_eager

    class _Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if not str(record.msg).startswith(("PERSISTENT COMPILATION CACHE MISS", "Persistent compilation cache hit")):
                return
            key = record.args[1] if isinstance(record.args, tuple) and len(record.args) > 1 else None
            frame = sys._getframe(1)
            while frame is not None and not frame.f_code.co_filename.startswith(JAX_DIR):
                frame = frame.f_back  # out of the logging machinery, into JAX's compiler
            if key:
                with open(path, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"key": key, "eager": is_eager(frame)}) + "\n")

    logger = logging.getLogger("jax._src.compiler")
    logger.addHandler(_Handler(logging.DEBUG))
    logger.setLevel(logging.DEBUG)


def maybe_record_compiles(environ: Any = os.environ) -> None:
    path = environ.get(WARM_LOG_ENV)
    if path:
        record_compiles(path)
