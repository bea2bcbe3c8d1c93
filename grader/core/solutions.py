"""Reference solutions, as readable files (this repository) or packed (a student release).

A student release carries the solutions compressed in one file, so they are
not sitting next to the stubs; `grader solution ID` unpacks one, and only
once the learner's own version passes.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from grader.core.manifest import Exercise

PACK_NAME = "solutions.pack"  # next to the manifest, in exercises/


def pack(solutions_dir: Path, exercises: tuple[Exercise, ...]) -> bytes:
    """All reference solutions in one compressed blob."""
    files = {e.path: (solutions_dir / e.path).read_text(encoding="utf-8") for e in exercises}
    return zlib.compress(json.dumps(files, sort_keys=True).encode(), level=9)


def read_solution(repo: Path, exercise: Exercise) -> str | None:
    """The reference solution's source, from solutions/ or the packed copy; None if neither has it."""
    plain = repo / "solutions" / exercise.path
    if plain.is_file():
        return plain.read_text(encoding="utf-8")
    packed = repo / "exercises" / PACK_NAME
    if packed.is_file():
        return json.loads(zlib.decompress(packed.read_bytes())).get(exercise.path)
    return None
