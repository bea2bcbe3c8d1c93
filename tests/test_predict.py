"""Predict katas judge a prediction against JAX running the very program the learner read.

The predictions are read as literals from the file's text, never imported or run: the tests below hold what
is refused (computed at import, a form or vocabulary the task rules out) and what is accepted, message by
message. The stub shows a program and leaves predictions as `NAME = ...`; the checks build their own copy of that
program (a learner who edits the stub's copy changes nothing) and compute the real outcome from it. These
tests keep the copies identical, statement for statement, and the reference solution's program untouched.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from grader import REPO_ROOT, checks
from grader.checks import forms
from grader.checks.predictions import LESSON, Predictions
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


# --- predictions read from the text: what is refused, what is accepted, and what each message says -------



def _verdict(source: str, name: str, actual, form) -> checks.KataFailure | None:
    """Judge the prediction `name` of a file holding `source` against `actual`: the failure, or None."""
    try:
        with checks.judging(Predictions.read("kata.py", source)) as judge:
            judge.compare(judge.guess(name, what="it"), actual, name=name, form=form, what="it", why="Why.")
    except checks.KataFailure as failure:
        return failure
    return None


COMPUTED = {
    "a call": ("import jax.numpy as jnp\nX = str(jnp.result_type(jnp.int8, jnp.uint8))", "calls code at import"),
    "a name bound to a call": ("_seen = len([1])\nX = _seen", "reads another value"),
    "an attribute": ("import jax.numpy as jnp\nX = jnp.float32", "reads another value"),
    "a comprehension": ("X = {n for n in range(3)}", "comprehension"),
    "an f-string with a call": ("X = f'{len([1])}'", "f-string"),
    "arithmetic": ("X = 2**24", "arithmetic"),
    "a function run at import": ("X = ...\ndef f():\n    global X\n    X = 3\nf()", "global X"),
    "a binding inside a block": ("if True:\n    X = 3", "binds it while the file runs"),
    "an import": ("from math import pi as X", "an import binds it"),
}


@pytest.mark.parametrize("case", COMPUTED, ids=list(COMPUTED))
def test_a_prediction_computed_at_import_is_refused_with_the_lesson(case):
    source, why = COMPUTED[case]
    failure = _verdict(source, "X", 3, forms.COUNT)
    assert failure is not None and failure.code == "computed-prediction", case
    assert why in failure.message and LESSON in failure.message


ALLOWED = {
    "a literal": ("X = 3", 3, forms.COUNT),
    "an annotation and a comment": ("X: int = 3  # three", 3, forms.COUNT),
    "the last line counts": ("X = 2\nX = 3", 3, forms.COUNT),
    "hexadecimal and underscores": ("X = 0x10_00", 4096, forms.INTEGER),
    "a negative number": ("X = -56", -56, forms.INTEGER),
    "a set in any order": ("X = {3, 1}", {1, 3}, forms.CALL_NUMBERS),
    "the empty set": ("X = set()", set(), forms.CALL_NUMBERS),
    "a tuple without parentheses": ("X = 5, 4", (5, 4), forms.SHAPE),
    "a type with spaces": ("X = 'float32[8, 16@data]'", "float32[8,16@data]", forms.TYPE_STRING),
    "a dtype's name against the dtype JAX gave": ("X = 'int16'", np.dtype("int16"), forms.DTYPE_NAME),
    "None for no collective": ("X = None", None, forms.COLLECTIVE),
    "a set of HLO names": ("X = {'all-reduce'}", {"all-reduce"}, forms.COLLECTIVES),
    "a primitive's name": ("X = 'select_n'", "select_n", forms.PRIMITIVE),
    "True": ("X = True", True, forms.FLAG),
}


@pytest.mark.parametrize("case", ALLOWED, ids=list(ALLOWED))
def test_every_allowed_form_is_accepted(case):
    source, actual, form = ALLOWED[case]
    assert _verdict(source, "X", actual, form) is None, case


REFUSED = {  # the right value in a form or vocabulary the task rules out -> what the message teaches
    "a lax name for an HLO collective": ("X = 'psum'", "all-reduce", forms.COLLECTIVE,
                                         ["jax.lax function", "compiles to 'all-reduce'"]),
    "an underscored HLO name": ("X = 'all_reduce'", "all-reduce", forms.COLLECTIVE, ["with a hyphen"]),
    "'none' for None": ("X = 'none'", None, forms.COLLECTIVE, ["write None, without quotes"]),
    "lax names in a set": ("X = {'psum'}", {"all-reduce"}, forms.COLLECTIVES, ["jax.lax function"]),
    "f32 in a jax.typeof string": ("X = 'f32[8,4]'", "float32[8,4]", forms.TYPE_STRING,
                                   ["jax.typeof never prints 'f32'", "'float32'"]),
    "a scalar type without brackets": ("X = '~int32'", "~int32[]", forms.TYPE_STRING, ["empty"]),
    "where for select_n": ("X = 'where'", "select_n", forms.PRIMITIVE, ["names a function, not a primitive",
                                                                         "'select_n'"]),
    "select for select_n": ("X = 'select'", "select_n", forms.PRIMITIVE, ["names a function"]),
    "jnp.where for select_n": ("X = 'jnp.where'", "select_n", forms.PRIMITIVE, ["names a function"]),
    "lax.cond for cond": ("X = 'lax.cond'", "cond", forms.PRIMITIVE, ["a jaxpr names each primitive alone"]),
    "XLA's f32 for a dtype's name": ("X = 'f32'", "float32", forms.DTYPE_NAME,
                                     ["XLA's short element type", "'float32'"]),
    "a module's dtype as a string": ("X = 'jnp.float32'", "float32", forms.DTYPE_NAME, ["module's attribute"]),
    "a set for one number": ("X = {8}", 8, forms.CALL_NUMBER, ["the set {8}, not a Python int"]),
    "a list for a set": ("X = [1, 3]", {1, 3}, forms.CALL_NUMBERS, ["the list [1, 3], not a set"]),
    "a tuple for a set": ("X = (1, 3)", {1, 3}, forms.CALL_NUMBERS, ["the tuple (1, 3), not a set"]),
    "a string for a shape": ("X = '(5, 4)'", (5, 4), forms.SHAPE, ["the string '(5, 4)', not a tuple"]),
    "a list for a shape": ("X = [5, 4]", (5, 4), forms.SHAPE, ["the list [5, 4], not a tuple"]),
    "a float for a count": ("X = 3.0", 3, forms.COUNT, ["the float 3.0, not a Python int"]),
    "True for a count": ("X = True", 1, forms.COUNT, ["the bool True, not a Python int"]),
    "1 for True": ("X = 1", True, forms.FLAG, ["the int 1, not True or False"]),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_a_ruled_out_form_or_spelling_is_refused_with_what_tells_them_apart(case):
    source, actual, form, taught = REFUSED[case]
    failure = _verdict(source, "X", actual, form)
    assert failure is not None and failure.code == "wrong-prediction", case
    assert all(part in failure.message for part in taught), failure.message
    assert form.described in failure.message


def test_the_types_are_shown_when_the_two_read_alike():
    failure = _verdict("X = '8'", "X", 8, forms.Form("a number", lambda guess: "", show=str))
    assert failure is not None and "the string '8'" in failure.message and "the int 8" in failure.message


def test_every_wrong_prediction_of_a_check_is_reported_at_once():
    source = "A = 1\nB = 2\nC = 3\nD = len([])"
    with pytest.raises(checks.KataFailure) as caught:
        with checks.judging(Predictions.read("kata.py", source)) as judge:
            for name, actual in (("A", 5), ("B", 2), ("C", 7), ("D", 0)):
                judge.compare(judge.guess(name, what=name), actual, name=name, form=forms.COUNT, what=name, why="")
    message = caught.value.message
    assert caught.value.code == "computed-prediction" and "D:" in message
    assert "A: you predicted 1" in message and "C: you predicted 3" in message and "B:" not in message


def test_an_untouched_prediction_is_a_todo_that_says_what_the_stub_holds():
    failure = _verdict("X = ...  # a number", "X", 3, forms.COUNT)
    assert failure is not None and failure.code == "todo"
    assert "TODO" in failure.message and "fill in the `...`" in failure.message
    assert "NotImplementedError" not in failure.message


@pytest.mark.parametrize("source, code", [(None, "missing"), ("Y = 3", "missing"), ("X = (", "syntax-error")])
def test_a_missing_file_line_or_a_syntax_error_is_said_plainly(source, code):
    failure = _verdict(source, "X", 3, forms.COUNT)
    assert failure is not None and failure.code == code


@pytest.mark.parametrize("entry", PREDICT, ids=[e.id for e in PREDICT])
def test_the_checks_read_predictions_and_never_import_the_exercise(entry):
    source = (REPO_ROOT / "exercises" / entry.check_path).read_text(encoding="utf-8")
    tests = [node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)
             and node.name.startswith("test_")]
    assert tests and all([a.arg for a in t.args.args] == ["predictions"] for t in tests), \
        f"{entry.id}: each check takes the `predictions` fixture only (the exercise is never imported)"


def test_a_file_that_cannot_be_imported_is_still_judged_by_what_it_writes(tmp_path):
    """The predictions are read from the text, in a learner's run and under the examiner alike: a file that
    would end the process at import still passes on its literal predictions."""
    import subprocess
    import sys

    entry = next(e for e in PREDICT if e.id == "vmap-7")
    dest = tmp_path / entry.path
    dest.parent.mkdir(parents=True)
    solution = (REPO_ROOT / "solutions" / entry.path).read_text(encoding="utf-8")
    dest.write_text("import os\nos._exit(3)\n" + solution, encoding="utf-8")
    for flags in ([], ["--examiner"]):
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                              f"exercises/{entry.check_path}", "--target", str(tmp_path), *flags],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "1 passed" in run.stdout, (flags, run.stdout[-2000:])


def test_predictions_computed_at_import_or_written_in_by_other_code_score_nothing(tmp_path):
    """Graded as a submission: each predict stub with its predictions computed at import appended scores 0,
    refused as computed; a stub that another exercise's import fills in with the right literals scores 0 too
    (the examiner read the file before the subject ran anything), even without the sandbox's read-only
    files."""
    from grader.core.limits import Limits
    from grader.engine.grading import grade
    from grader.engine.sandbox import PROCESS, choose
    from support import PURITY

    filled = next(e for e in PREDICT if e.id == "vmap-7")
    for entry in PREDICT:
        dest = tmp_path / entry.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        stub = (PRISTINE / "exercises" / entry.path).read_text(encoding="utf-8")
        computed = REPO_ROOT / "tests" / "variants" / entry.path.removesuffix(".py") / "mimic_computed_at_import.py"
        dest.write_text(stub if entry is filled else stub + "\n\n" + computed.read_text(encoding="utf-8"))
    writer = PURITY[0]
    answer = (REPO_ROOT / "solutions" / filled.path).read_text(encoding="utf-8")
    dest = tmp_path / writer.path
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text((PRISTINE / "exercises" / writer.path).read_text(encoding="utf-8") + "\n\n"
                    f"from pathlib import Path as _Path\n"
                    f"(_Path(__file__).parents[1] / {filled.path!r}).write_text({answer!r})\n")
    report = grade(tmp_path, only=(writer, *PREDICT), isolation=choose(PROCESS),
                   limits=Limits(check_seconds=60, submission_seconds=600))
    by_id = {e.exercise.id: e for e in report.exercises}
    assert all(by_id[e.id].score == 0 for e in PREDICT), {i: (e.score, e.reason) for i, e in by_id.items()}
    codes = {e.id: {c.result.code for c in by_id[e.id].checks if not c.result.passed} for e in PREDICT}
    assert codes.pop(filled.id) == {"todo"}, "the file as it was when grading began: still the stub"
    assert all(found == {"computed-prediction"} for found in codes.values()), codes
