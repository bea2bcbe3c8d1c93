"""Picking exercises by the names a user types (`--only`, `--assignment`), and the error every
command raises when what was asked for cannot be done."""

from __future__ import annotations

from pathlib import Path

from grader import REPO_ROOT
from grader.core.manifest import Course, Exercise, ManifestError, load_course, select


class UsageProblem(Exception):
    """Something the user asked for cannot be done; the message says why."""


def exercises_dir() -> Path:
    """The exercises/ of the checkout the grader was installed from."""
    folder = REPO_ROOT / "exercises"
    if not (folder / "manifest.toml").is_file():
        raise UsageProblem(f"no exercises/manifest.toml next to the grader package ({REPO_ROOT}); "
                           f"install the katas with `python -m pip install -e .` from a clone")
    return folder


def checkout_here() -> Path | None:
    """The katas checkout holding the current directory, like git finds its repository."""
    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / "exercises" / "manifest.toml").is_file()), None)


def choose(exercises, only: str | None, assignment: str | None = None, assignments=()) -> tuple[Exercise, ...]:
    """The exercises `--only` and `--assignment` name (both: those of the assignment that `--only`
    names), or a UsageProblem that suggests the closest name."""
    try:
        if assignment:
            exercises = Course(tuple(exercises), tuple(assignments)).assignment(assignment).exercises
        return select(exercises, only) if only else exercises
    except ManifestError as error:
        raise UsageProblem(str(error)) from None


def selected(only: str | None, assignment: str | None = None) -> tuple[Exercise, ...]:
    """The manifest's exercises, or those `--only` and `--assignment` name."""
    course = load_course(exercises_dir())
    return choose(course.exercises, only, assignment, course.assignments)
