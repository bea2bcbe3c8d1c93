"""Predict katas judge a prediction against JAX running the very program the learner read.

The stub shows a program and leaves predictions as `NAME = ...`; the checks build their own copy of that
program (a learner who edits the stub's copy changes nothing) and compute the real outcome from it. These
tests keep the copies identical, statement for statement, and the reference solution's program untouched.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader import REPO_ROOT
from support import EXERCISES, PRISTINE

PREDICT = [e for e in EXERCISES if e.kind == "predict"]


def _split(path: Path) -> tuple[dict[str, str], dict[str, ast.expr]]:
    """(the program: each statement's name -> its AST, the predictions: name -> value expression).

    Predictions are the assignments after the '# Your predictions' line; imports and docstrings are left out
    (a check file has its own).
    """
    source = path.read_text(encoding="utf-8")
    marker = next((number for number, line in enumerate(source.splitlines(), start=1)
                   if line.startswith("# Your predictions")), None)
    program, predictions = {}, {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue
        if isinstance(node, ast.Assign) and marker is not None and node.lineno > marker:
            predictions[ast.unparse(node.targets[0])] = node.value
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            program[node.name] = ast.dump(node)
        elif isinstance(node, ast.Assign):
            program[ast.unparse(node.targets[0])] = ast.dump(node)
        else:
            program[ast.unparse(node)[:60]] = ast.dump(node)
    return program, predictions


@pytest.mark.parametrize("entry", PREDICT, ids=[e.id for e in PREDICT])
def test_the_checks_run_the_program_the_stub_shows(entry) -> None:
    stub_program, predictions = _split(PRISTINE / "exercises" / entry.path)
    assert stub_program and predictions, f"{entry.id}: a program, then '# Your predictions' and NAME = ... lines"
    assert all(isinstance(v, ast.Constant) and v.value is Ellipsis for v in predictions.values()), \
        f"{entry.id}: the stub leaves every prediction as ..."
    check_program, _ = _split(REPO_ROOT / "exercises" / entry.check_path)
    differ = [name for name, tree in stub_program.items() if check_program.get(name) != tree]
    assert not differ, (f"{entry.id}: the checks' copy of {', '.join(differ)} is not the stub's: a prediction "
                        f"would be judged against another program than the one the learner read")


@pytest.mark.parametrize("entry", PREDICT, ids=[e.id for e in PREDICT])
def test_the_solution_predicts_everything_and_changes_no_program(entry) -> None:
    stub_program, asked = _split(PRISTINE / "exercises" / entry.path)
    solution_program, answered = _split(REPO_ROOT / "solutions" / entry.path)
    assert solution_program == stub_program, f"{entry.id}: the reference solution must leave the program as it is"
    assert set(answered) == set(asked), f"{entry.id}: the solution answers {sorted(answered)}, the stub asks {sorted(asked)}"
    unanswered = [name for name, value in answered.items() if isinstance(value, ast.Constant) and value.value is Ellipsis]
    assert not unanswered, f"{entry.id}: the solution leaves {unanswered} unpredicted"


def test_there_are_predict_katas_across_the_topics_where_the_mechanism_is_invisible() -> None:
    if len(PREDICT) < len([e for e in EXERCISES if e.kind == "predict"]):
        pytest.skip("KATAS_ONLY leaves some out")
    from support import ALL_EXERCISES

    every = [e for e in ALL_EXERCISES if e.kind == "predict"]
    assert len(every) >= 12
    assert {"jit_tracing", "static_args", "vmap", "sharding", "explicit_sharding", "dtypes", "memory"} <= \
        {e.topic for e in every}
