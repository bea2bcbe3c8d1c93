"""Every exercise is sound: its solution passes (the same way twice), its stub fails for the right
reason, its mutants are rejected, its mimics rejected for their JAX property, its alternates
accepted, its hidden checks reject their hard-coded answers.

The verdicts are grader.course.soundness's, the ones `grader check` prints: these tests run them on this
repository, one test per exercise and per variant, so a failure names exactly what is unsound.
"""

from __future__ import annotations

import pytest

from grader.course import soundness
from support import EXERCISES, variants

IDS = [e.id for e in EXERCISES]


def assert_sound(problems: list[soundness.Problem]) -> None:
    __tracebackhide__ = True
    if problems:
        pytest.fail("\n".join(f"{p.exercise}: {p.text}\n  fix: {p.fix}" for p in problems), pytrace=False)


# A predict kata's mimics are right predictions the checks must refuse: computed at import (running the
# program instead of predicting it), or written in a form or vocabulary the task rules out.
PREDICT = [e for e in EXERCISES if e.kind == "predict"]
CODE = [e for e in EXERCISES if e.kind != "predict"]


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_solution_passes_every_check(runs, entry):
    assert_sound(soundness.solution_problems(runs, entry))


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_solution_passes_the_same_way_twice(runs, entry):
    assert_sound(soundness.agreement_problems(runs, entry))


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_stub_fails_every_check_for_the_right_reason(runs, entry):
    assert_sound(soundness.stub_problems(runs, entry))


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_every_check_rejects_some_mutant(runs, entry):
    assert_sound(soundness.coverage_problems(runs, entry))


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_every_hidden_check_rejects_a_hard_coded_answer(runs, entry):
    assert_sound(soundness.hidden_problems(runs, entry))


@pytest.mark.parametrize("mutant", variants("mutant"), ids=lambda v: v.label)
def test_mutant_is_rejected(runs, mutant):
    assert_sound(soundness.variant_problems(runs, mutant))


@pytest.mark.parametrize("alternate", variants("alternate"), ids=lambda v: v.label)
def test_alternate_passes(runs, alternate):
    assert_sound(soundness.variant_problems(runs, alternate))


@pytest.mark.parametrize("mimic", variants("mimic"), ids=lambda v: v.label)
def test_mimic_is_rejected_for_its_jax_property(runs, mimic):
    """A values-right answer that skips the exercise's idea fails, and not because of its values."""
    assert_sound(soundness.variant_problems(runs, mimic))


@pytest.mark.parametrize("entry", PREDICT, ids=[e.id for e in PREDICT])
def test_every_predict_kata_refuses_a_computed_prediction_and_accepts_another_form(runs, entry):
    mimics = [v for v in variants("mimic") if v.exercise == entry]
    computed = [m for m in mimics if m.path.name == "mimic_computed_at_import.py"]
    assert computed, (f"{entry.id}: add tests/variants/{entry.path.removesuffix('.py')}/mimic_computed_at_import.py, "
                      f"the right predictions computed by running JAX at import")
    refused = [c for c in runs.results(computed[0]) if not c.result.passed]
    assert refused and all(c.result.code == "computed-prediction" for c in refused), \
        f"{entry.id}: a prediction computed at import is refused with code computed-prediction"
    assert_sound(soundness.mimic_presence_problems(runs, entry))


@pytest.mark.parametrize("entry", CODE, ids=[e.id for e in CODE])
def test_every_exercise_rejects_a_values_right_mimic(runs, entry, mimic_tally):
    mimics = [v for v in variants("mimic") if v.exercise == entry]
    rejected = [m for m in mimics if any(not c.result.passed for c in runs.results(m))]
    if entry.kind != "predict":  # a predict kata has no mimic (grader.course.soundness says why)
        mimic_tally[entry.id] = (len(rejected), len(mimics))
    assert_sound(soundness.mimic_presence_problems(runs, entry))
