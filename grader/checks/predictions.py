"""Predict katas: the learner writes down what JAX will do; the check runs the program and compares.

A predict kata's stub shows a small program and leaves each prediction as
`NAME = ...`. Its checks build the same program themselves, observe what JAX
actually does (a type, a dtype, a collective in the compiled HLO, a count of
compiles or of stored residuals), and judge the prediction against that, never
against a written-down answer that could drift from JAX. A wrong prediction is
answered with the real outcome and why.

Predictions are read from the exercise file's text (`Predictions.read`), never
imported or run: each must be a literal written on its own line (a number, a
string, True/False, None, or a tuple, list, set or dict of literals), the last
`NAME = literal` of the file. Anything that computes a value at import (a call,
a comprehension, an f-string, arithmetic, another name, a function that sets
it with `global`) is refused with the lesson: predict, then check. Names of
other constants are refused too, so every prediction reads at a glance.

A check judges all of its predictions before failing (`judging`): every wrong
one is reported at once, each in the form the task asks for
(grader.checks.forms).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from grader.checks.core import fail
from grader.checks.forms import Form, written

LESSON = ("Predict, then check: write the value you expect as a literal (a number, a string, True/False, None, "
          "or a tuple, list, set or dict of them); the check runs the program for you.")


@dataclass(frozen=True)
class Written:
    """One prediction as the file writes it: its value, or why it is not a literal."""

    text: str  # the expression, as written
    value: Any = None
    refused: str = ""  # why this is not a literal prediction ("" when it is)


def _why_not_literal(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        return "calls code at import"
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return "is a comprehension, run at import"
    if isinstance(node, ast.JoinedStr):
        return "is an f-string, formatted at import"
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
        return "is arithmetic, worked out at import: work it out yourself and write the result"
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return "reads another value: write the value itself (a dtype or primitive by its name, in quotes)"
    return "is an expression, evaluated at import"


def _literal(node: ast.expr) -> Written:
    text = ast.unparse(node)
    try:
        return Written(text, ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return Written(text, refused=f"`{text}` {_why_not_literal(node)}")


def _bound_elsewhere(tree: ast.Module) -> dict[str, str]:
    """Names bound by anything but a top-level `NAME = value`: -> how ("a function declares it global")."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                found.setdefault(name, f"a function sets it (`global {name}`) when it runs")
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                found.setdefault(alias.asname or alias.name.split(".")[0], "an import binds it")
            continue
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                found.setdefault(node.id, f"`{ast.unparse(statement).splitlines()[0]}` binds it while the file runs")
    return found


@dataclass
class Predictions:
    """A predict kata's answers, read from its file's text: never imported, never run."""

    label: str  # the exercise file, as the learner knows it
    lines: dict[str, Written] = field(default_factory=dict)
    problem: str = ""  # the file is missing or does not parse
    code: str = ""

    @classmethod
    def read(cls, label: str, text: str | None) -> Predictions:
        if text is None:
            return cls(label, problem=f"{label} is missing.", code="missing")
        try:
            tree = ast.parse(text, filename=label)
        except SyntaxError as error:
            return cls(label, problem=f"{label} has a syntax error on line {error.lineno}: {error.msg}.",
                       code="syntax-error")
        lines: dict[str, Written] = {}
        for statement in tree.body:
            value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
            targets = (statement.targets if isinstance(statement, ast.Assign) else
                       [statement.target] if isinstance(statement, ast.AnnAssign) else [])
            for target in targets:
                if isinstance(target, ast.Name) and value is not None:
                    lines[target.id] = _literal(value)
                else:
                    for node in ast.walk(target):
                        if isinstance(node, ast.Name):
                            lines[node.id] = Written(ast.unparse(statement),
                                                     refused=f"`{ast.unparse(statement)}` unpacks a value")
        for name, how in _bound_elsewhere(tree).items():
            lines[name] = Written(lines[name].text if name in lines else "", refused=how)
        return cls(label, lines)


_REFUSED = object()  # a prediction refused for how it is written: judged once, as refused


class Judge:
    """The predictions of one check, judged together: `guess` reads one, `compare` judges it."""

    def __init__(self, predictions: Predictions) -> None:
        self.predictions = predictions
        self.refused: list[str] = []
        self.wrong: list[str] = []

    def guess(self, name: str, *, what: str) -> Any:
        """The prediction NAME. One still `...` is a TODO, and fails at once; one not written as a literal
        is refused (judged at the end, with the lesson); otherwise its value."""
        __tracebackhide__ = True
        found = self.predictions
        if found.problem:
            fail(found.problem, found.code)
        line = found.lines.get(name)
        if line is None:
            fail(f"{found.label} has no `{name} = ...` line: the checks read each prediction by its name. Keep the "
                 f"stub's prediction lines (restore the stub with git if needed).", "missing")
        if line.refused:
            self.refused.append(f"{name}: {line.refused}.")
            return _REFUSED
        if line.value is Ellipsis:
            fail(f"TODO: predict {what}: {name} still holds the stub's `...`; fill in the `...` with your "
                 f"prediction, written as a literal.", "todo")
        return line.value

    def compare(self, guess: Any, actual: Any, *, name: str, form: Form, what: str, why: str) -> None:
        """Judge `guess` against JAX's outcome `actual`, in the form the task asks for."""
        if guess is _REFUSED:
            return
        problem = form.problem(guess)
        if not problem and form.key(guess) == form.key(actual):
            return
        said, real = form.show(guess), form.show(actual)
        if said == real:  # the same text, another type: say which
            said, real = written(guess), written(actual)
        formed = f" ({problem}; the task asks for {form.described})" if problem else ""
        self.wrong.append(f"{name}: you predicted {said} for {what}{formed}; JAX gives {real}. {why}")

    def verdict(self) -> None:
        """Fail with every refused and every wrong prediction of this check, refused ones first."""
        __tracebackhide__ = True
        if self.refused:
            fail("\n".join([*self.refused, LESSON, *self.wrong]), "computed-prediction")
        if self.wrong:
            fail("\n".join(self.wrong), "wrong-prediction")


@contextmanager
def judging(predictions: Predictions) -> Iterator[Judge]:
    """`with checks.judging(predictions) as judge:` read with judge.guess, judge with judge.compare; the
    check fails at the end of the block with every wrong prediction at once."""
    __tracebackhide__ = True
    judge = Judge(predictions)
    yield judge
    judge.verdict()
