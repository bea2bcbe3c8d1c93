"""Mutation operators a course adds of its own: `mutations.py` at the root of its repository.

The public interface is the `operator` decorator. It marks a function of that file as an operator;
`grader check --mutate` calls the function on every node of each reference solution's syntax tree,
with `name_of`, which says what a name or attribute refers to through the solution's imports
(`jnp.cumsum` -> "jax.numpy.cumsum"). It returns the node to put there instead, or None where it
does not apply: one mutant per place. The mutated module imports `jax`, `jax.numpy as jnp`,
`numpy as np` and `lax` first, so a replacement may use those names.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from grader.core.selection import UsageProblem
from grader.course.mutation_syntax import Site, name_of, walk

COURSE_FILE = "mutations.py"
OPERATOR_NAME = re.compile(r"[a-z][a-z0-9-]*")
USUAL_IMPORTS = "_katas_usual_imports"  # the helper that imports jax, jnp, np and lax into the mutant


@dataclass(frozen=True)
class CourseOperator:
    name: str
    description: str  # what the mutant does instead of the reference: shown with each survivor
    rewrite: Callable[[ast.AST, Callable[[ast.AST], str]], ast.AST | None]


def operator(name: str, description: str) -> Callable:
    """Mark `rewrite(node, name_of) -> new node | None` as the course's mutation operator `name`."""
    if not OPERATOR_NAME.fullmatch(name):
        raise ValueError(f"operator name {name!r}: use lower-case letters, digits and dashes (like 'drop-jit')")

    def mark(rewrite: Callable) -> Callable:
        rewrite.mutation_operator = CourseOperator(name, description, rewrite)
        return rewrite

    return mark


def load_operators(repo: Path, built_in: set[str]) -> list[CourseOperator]:
    """The operators `mutations.py` at the course's root defines (none without the file). A file that
    cannot be loaded, defines none, or reuses a name is a UsageProblem naming the file and line."""
    path = Path(repo) / COURSE_FILE
    if not path.is_file():
        return []
    spec = importlib.util.spec_from_file_location("_katas_course_mutations", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the course's own code: any error is the file's
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == str(path)]
        line = getattr(error, "lineno", None) if isinstance(error, SyntaxError) else (frames[-1].lineno if frames
                                                                                     else None)
        raise UsageProblem(f"{COURSE_FILE}:{line or 1}: cannot be loaded: {type(error).__name__}: {error}") from None
    found = [v.mutation_operator for v in vars(module).values()
             if isinstance(getattr(v, "mutation_operator", None), CourseOperator)]
    if not found:
        raise UsageProblem(f"{COURSE_FILE}: defines no operator: mark a function with "
                           f"@operator(name, description) from grader.course.mutation_course")
    names = [o.name for o in found]
    clash = sorted({n for n in names if n in built_in or names.count(n) > 1})
    if clash:
        raise UsageProblem(f"{COURSE_FILE}: operator {', '.join(clash)} is named twice or is a built-in operator's "
                           f"name: give it a name of its own")
    return found


def course_sites(tree: ast.Module, names: dict[str, str], operators: list[CourseOperator]) -> Iterator[Site]:
    def resolve(node: ast.AST) -> str:
        return name_of(node, names)

    for course_operator in operators:
        # each operator reads its own copy: one that changes a node in place spoils no other's places
        for node, path, where in walk(copy.deepcopy(tree)):
            try:
                new = course_operator.rewrite(node, resolve)
            except Exception as error:
                raise UsageProblem(f"{COURSE_FILE}: operator {course_operator.name} failed on line "
                                   f"{getattr(node, 'lineno', '?')} of a solution: {type(error).__name__}: "
                                   f"{error}") from None
            if new is None:
                continue
            kind = next((k for k in (ast.expr, ast.stmt) if isinstance(node, k)), ast.AST)
            if not isinstance(new, kind):
                raise UsageProblem(f"{COURSE_FILE}: operator {course_operator.name} returned {type(new).__name__} "
                                   f"for {type(node).__name__} (line {getattr(node, 'lineno', '?')}): return an ast "
                                   f"{kind.__name__} node, or None where it does not apply")
            yield Site(course_operator.name, path, where, getattr(node, "lineno", 0), course_operator.description,
                       lambda tree, spot, new=new: _put(spot, new))


def _put(spot, new: ast.AST) -> set[str]:
    spot.replace(copy.deepcopy(new))
    return {USUAL_IMPORTS}
