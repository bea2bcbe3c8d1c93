"""Helpers for the project's own tests: the targets they run and the variants they keep.

The soundness proof itself lives in the grader (grader/course/soundness.py, the
engine of `grader check`); these tests run it on this repository. Every target
it needs (the reference solutions twice, the untouched stubs, and rounds of
mutants, mimics and alternates) is started at once in the background, two at a
time (one per core), the first time any test asks for one. Each target runs
once per session; the tests only read the results.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from grader import REPO_ROOT
from grader.core.manifest import load_manifest, select
from grader.course.soundness import KINDS, VARIANTS as VARIANTS_REL, Proof, Variant, export_stubs, find_variants  # noqa: F401

# KATAS_ONLY=vmap,purity-1 narrows the soundness tests to some exercises while
# writing them; CI always runs everything.
ONLY = os.environ.get("KATAS_ONLY", "")
# KATAS_PRISTINE_REV=origin/main reads the stubs of a commit instead of git's index, for a
# learner who committed their solutions.
REVISION = os.environ.get("KATAS_PRISTINE_REV", "")
ALL_EXERCISES = load_manifest(REPO_ROOT / "exercises")
EXERCISES = select(ALL_EXERCISES, ONLY) if ONLY else ALL_EXERCISES
# The grader's own tests grade these four small exercises (one short child process each run);
# their fixtures are written against them, whatever later exercises the topic gains.
PURITY_IDS = "purity-1,purity-2,purity-3,purity-4"
PURITY = select(ALL_EXERCISES, PURITY_IDS)
VARIANTS = REPO_ROOT / VARIANTS_REL


def _export_pristine(folder: Path) -> Path:
    """This repository with every exercise stub as staged in git, not as a learner has edited it
    (grader.course.soundness.export_stubs says why); everything else is the working tree."""
    for top in ("exercises", "solutions", "grader"):
        shutil.copytree(REPO_ROOT / top, folder / top, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("conftest.py", "pyproject.toml", "README.md"):
        shutil.copyfile(REPO_ROOT / name, folder / name)
    export_stubs(REPO_ROOT, ALL_EXERCISES, folder / "exercises", REVISION)
    return folder


PRISTINE = _export_pristine(Path(tempfile.mkdtemp(prefix="katas-pristine-")) / "repo")
atexit.register(shutil.rmtree, PRISTINE.parent, ignore_errors=True)


def variants(kind: str) -> list[Variant]:
    return find_variants(REPO_ROOT, EXERCISES, kind)


def new_proof(scratch: Path) -> Proof:
    """The proof of the exercises these tests cover (KATAS_ONLY), on this repository."""
    return Proof(REPO_ROOT, EXERCISES, scratch, revision=REVISION)
