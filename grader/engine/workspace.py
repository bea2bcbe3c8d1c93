"""A fresh, isolated folder to grade one submission in.

The examiner's side holds the pristine checks of the exercises being graded
and the manifest (`exercises/`), their hidden checks apart (`hidden/`, deleted
by the examiner once collected), an explicit pytest config and the examiner's
own home/tmp/cache. The subject's side (`subject/`, the only part the subject
process is shown) holds *only* the manifest-listed exercise files copied from
the submission (`subject/submission/`) and the subject's own empty
home/tmp/cache. Nothing else a submission carries (a `conftest.py`,
`pytest.ini`, `sitecustomize.py`, `.pth`, `__pycache__`, extra test files,
symlinks) is ever loaded, and nothing of the repository but its checks is
here: no solutions, packed or plain.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.limits import SCRATCH_ENV
from grader.core.manifest import MANIFEST_NAME, Exercise

MAX_FILE_BYTES = 1024 * 1024  # an exercise file is a few kB; anything huge is not one
HIDDEN_DIR = "hidden"  # beside exercises/ in a workspace: the hidden checks, until collected

PYTEST_CONFIG = """\
[pytest]
python_files = test_*.py hidden_test_*.py
addopts = --import-mode=importlib -p no:cacheprovider -p no:unraisableexception --assert=plain
"""

# Environment a check process must not inherit: they change how Python,
# pytest, JAX or XLA start (plugins, paths, flags, device counts).
SCRUBBED_PREFIXES = ("PYTEST_", "PYTHON", "JAX_", "XLA_")


@dataclass
class Workspace:
    root: Path

    @property
    def checks(self) -> Path:
        return self.root / "exercises"

    @property
    def subject_root(self) -> Path:
        """All the subject process may see of the workspace."""
        return self.root / "subject"

    @property
    def submission(self) -> Path:
        return self.subject_root / "submission"

    @property
    def subject_config(self) -> Path:
        return self.root / "subject.json"

    @property
    def subject_writable(self) -> tuple[Path, ...]:
        """What the subject may write: its own home, tmp and cache."""
        return tuple(self.subject_root / name for name in ("home", "tmp", "cache"))

    @property
    def hidden(self) -> Path:
        return self.root / HIDDEN_DIR

    @property
    def config(self) -> Path:
        return self.root / "katas-pytest.ini"

    @property
    def writable(self) -> tuple[Path, ...]:
        """What the examiner may write: its home, tmp and cache, and the hidden checks it deletes."""
        return tuple(self.root / name for name in ("home", "tmp", "cache", HIDDEN_DIR))

    def check_paths(self, exercises: tuple[Exercise, ...]) -> list[str]:
        """The check files to run, relative to the root: visible ones, then hidden ones."""
        paths = [f"exercises/{e.check_path}" for e in exercises]
        return paths + [f"{HIDDEN_DIR}/{e.hidden_check_path}" for e in exercises
                        if (self.hidden / e.hidden_check_path).is_file()]

    def env(self, cache: Path | None = None) -> dict[str, str]:
        """The examiner's environment: the parent's, scrubbed, with a private home, tmp and cache."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(SCRUBBED_PREFIXES)}
        env.update(HOME=str(self.root / "home"), TMPDIR=str(self.root / "tmp"),
                   XDG_CACHE_HOME=str(cache or self.root / "cache"), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        return env

    def subject_env(self, cache: Path | None = None) -> dict[str, str]:
        """The subject's environment: scrubbed like the examiner's, with its own home, tmp and cache."""
        env = self.env(cache)
        home, tmp, own_cache = self.subject_writable
        env.update(HOME=str(home), TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache or own_cache))
        # What the keeper counts: the subject's own folders, not a shared (trusted) cache.
        env[SCRATCH_ENV] = os.pathsep.join(str(f) for f in (home, tmp) + (() if cache else (own_cache,)))
        return env


@dataclass
class Copied:
    files: list[str] = field(default_factory=list)  # manifest paths taken from the submission
    refused: dict[str, str] = field(default_factory=dict)  # manifest path -> why it was not taken


def build_workspace(root: Path, repo: Path, exercises: tuple[Exercise, ...],
                    source: Path | None) -> tuple[Workspace, Copied]:
    """Make a workspace in the empty folder `root` and lay out its files (see `lay_out`)."""
    workspace = Workspace(root)
    root.mkdir(parents=True)
    for name in ("home", "tmp", "cache"):
        (root / name).mkdir()
    workspace.subject_root.mkdir()
    for folder in workspace.subject_writable:
        folder.mkdir()
    return workspace, lay_out(workspace, repo, exercises, source)


def lay_out(workspace: Workspace, repo: Path, exercises: tuple[Exercise, ...],
            source: Path | None) -> Copied:
    """(Re)write the pristine checks, the config and the submission's exercise files.

    Called before every check process: whatever a crashed process changed in
    the workspace (a check file, the config, another exercise's file) is
    gone before the next one starts.
    """
    for part in (workspace.checks, workspace.hidden, workspace.submission):
        if part.exists():
            shutil.rmtree(part)
    workspace.checks.mkdir()
    shutil.copyfile(repo / "exercises" / MANIFEST_NAME, workspace.checks / MANIFEST_NAME)
    for entry in exercises:
        for name, folder in ((entry.check_path, workspace.checks), (entry.hidden_check_path, workspace.hidden)):
            pristine = repo / "exercises" / name
            if pristine.is_file():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pristine, folder / name)
    workspace.hidden.mkdir(exist_ok=True)
    workspace.config.write_text(PYTEST_CONFIG, encoding="utf-8")
    workspace.submission.mkdir()
    copied = Copied()
    if source is not None:
        for entry in exercises:
            why = _copy_exercise(source, entry.path, workspace.submission / entry.path)
            if why:
                copied.refused[entry.path] = why
            else:
                copied.files.append(entry.path)
    return copied


def _copy_exercise(source: Path, rel: str, dest: Path) -> str:
    src = source / rel
    if src.is_symlink():
        return "is a symbolic link"
    if not src.is_file():
        return "is missing"
    if not src.resolve().is_relative_to(source.resolve()):  # a linked folder on the way
        return "lies outside the submission (a symbolic link on its path)"
    if src.stat().st_size > MAX_FILE_BYTES:
        return f"is larger than {MAX_FILE_BYTES // 1024} kB"
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    return ""
