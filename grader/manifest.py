"""The ordered list of exercises, read from `exercises/manifest.toml`.

The manifest is the single source of truth for order, ids, paths, points and
hints; everything else (test ordering, grading, progress) derives from it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MANIFEST_NAME = "manifest.toml"
_ID = re.compile(r"^[a-z][a-z0-9_]*-[0-9]+$")
_REQUIRED = ("id", "path", "topic", "points", "concept", "hints")
# What the learner does: fill in code, fix buggy code, or predict what JAX will do before running it.
# An entry may name its kind (a predict kata must: its checks read predictions, not code to run);
# the stub's `Task (<kind>):` line says the same.
KINDS = ("fill-in", "fix-it", "predict")


class ManifestError(ValueError):
    """The manifest is malformed: the message names the entry and the field."""


@dataclass(frozen=True)
class Exercise:
    id: str
    path: str  # relative to the exercises folder, e.g. "01_purity/global_state.py"
    topic: str
    points: int
    concept: str
    hints: tuple[str, ...]
    index: int  # position in the manifest, 0-based
    kind: str = ""  # one of KINDS when the manifest says; "" leaves it to the stub's Task line

    @property
    def check_path(self) -> str:
        """The visible check file, next to the stub: `NN_topic/test_<name>.py`."""
        folder, name = self.path.rsplit("/", 1)
        return f"{folder}/test_{name}"

    @property
    def hidden_check_path(self) -> str:
        """Instructor-only checks, omitted from the student release."""
        folder, name = self.path.rsplit("/", 1)
        return f"{folder}/hidden_test_{name}"


def _entry(raw: dict, index: int) -> Exercise:
    where = f"manifest entry #{index + 1} ({raw.get('id', 'no id')})"
    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise ManifestError(f"{where} lacks {', '.join(missing)}")
    if not _ID.match(raw["id"]):
        raise ManifestError(f"{where}: id should read like 'purity-1'")
    if not (isinstance(raw["points"], int) and raw["points"] > 0):
        raise ManifestError(f"{where}: points must be a positive integer")
    hints = tuple(raw["hints"])
    if not 2 <= len(hints) <= 3:
        raise ManifestError(f"{where}: give 2 or 3 hints, gentle to explicit")
    if not re.match(r"^\d\d_[a-z0-9_]+/[a-z0-9_]+\.py$", raw["path"]):
        raise ManifestError(f"{where}: path should read like '01_purity/global_state.py'")
    if raw.get("kind", "") not in ("", *KINDS):
        raise ManifestError(f"{where}: kind must be one of {', '.join(KINDS)}")
    return Exercise(
        id=raw["id"],
        path=raw["path"],
        topic=raw["topic"],
        points=raw["points"],
        concept=raw["concept"],
        hints=hints,
        index=index,
        kind=raw.get("kind", ""),
    )


@cache
def load_manifest(exercises_dir: Path) -> tuple[Exercise, ...]:
    """Read and validate the manifest in `exercises_dir`, in teaching order."""
    path = Path(exercises_dir) / MANIFEST_NAME
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    exercises = tuple(_entry(entry, i) for i, entry in enumerate(raw.get("exercise", [])))
    for kind in ("id", "path"):
        seen = [getattr(e, kind) for e in exercises]
        dupes = sorted({v for v in seen if seen.count(v) > 1})
        if dupes:
            raise ManifestError(f"duplicate {kind} in manifest: {', '.join(dupes)}")
    return exercises


def exercise_for_check_file(exercises: tuple[Exercise, ...], relpath: str) -> Exercise | None:
    """Map `NN_topic/test_x.py` or `NN_topic/hidden_test_x.py` to exercise `NN_topic/x.py`."""
    folder, _, name = relpath.replace("\\", "/").rpartition("/")
    for prefix in ("hidden_test_", "test_"):
        if name.startswith(prefix):
            stub = f"{folder}/{name[len(prefix):]}"
            return next((e for e in exercises if e.path == stub), None)
    return None


def select(exercises: tuple[Exercise, ...], wanted: str) -> tuple[Exercise, ...]:
    """Exercises matching a comma-separated list of ids, topics or topic folders.

    `select(all, "purity-1,at_updates")` -> purity-1 and every `02_at_updates` exercise.
    Raises ManifestError (with a suggestion) for a name that matches nothing.
    """
    chosen: list[Exercise] = []
    for name in filter(None, (part.strip() for part in wanted.split(","))):
        hits = [e for e in exercises
                if name in (e.id, e.topic, e.path.split("/")[0])]
        if not hits:
            raise ManifestError(suggest(exercises, name))
        chosen += [e for e in hits if e not in chosen]
    return tuple(sorted(chosen, key=lambda e: e.index))


def suggest(exercises: tuple[Exercise, ...], wanted: str) -> str:
    """'no exercise 'x'; did you mean 'y'?' for an unknown id or topic."""
    import difflib

    names = [e.id for e in exercises] + list(dict.fromkeys(e.topic for e in exercises))
    close = difflib.get_close_matches(wanted, names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"no exercise '{wanted}'{hint}"
