"""Every exercise is sound: its solution passes, its stub fails for the right
reason, its mutants are rejected and its alternates accepted."""

from __future__ import annotations

import pytest

from support import EXERCISES, checks_by_exercise, pristine_exercises, variant_results, variants

# A stub must fail because the exercise is unfinished or buggy, never because
# the harness could not load it.
HARNESS_TROUBLE = ("could not import", "has a syntax error", "is missing", "has no `",
                   "did not report", "no checks ran", "ModuleNotFoundError", "ImportError")

IDS = [e.id for e in EXERCISES]


# Codes that say a values-right answer was rejected for its values after all.
VALUE_CODES = ("wrong-values", "wrong-shape", "todo", "error", "missing", "syntax-error", "import-error")


def _is_fill_in(runs, entry) -> bool:
    return 'NotImplementedError("TODO' in (pristine_exercises(runs.scratch) / entry.path).read_text()


# A predict kata's answer is data (what JAX will do), not code: a right prediction found by running the
# program first looks just like one worked out, so no values-right mimic applies to it. Its soundness rests
# on its mutants (wrong predictions) and alternates (other spellings of the right one).
PREDICT = [e for e in EXERCISES if e.kind == "predict"]
CODE = [e for e in EXERCISES if e.kind != "predict"]


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_solution_passes_every_check(runs, entry):
    checks = checks_by_exercise(runs.get("solutions")["json"])[entry.id]
    assert checks, f"{entry.id} has no checks"
    failed = [f"{c['name']}: {c['message']}" for c in checks if c["status"] != "passed"]
    assert not failed, "reference solution fails:\n" + "\n".join(failed)


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_stub_fails_every_check_for_the_right_reason(runs, entry):
    checks = checks_by_exercise(runs.get("stubs")["json"])[entry.id]
    assert checks, f"{entry.id} has no checks"
    passing = [c["name"] for c in checks if c["status"] == "passed"]
    assert not passing, f"these checks pass on the untouched stub of {entry.id}, so they prove nothing yet: {passing}"
    trouble = [c for c in checks if any(t in c["message"] for t in HARNESS_TROUBLE)]
    assert not trouble, f"the stub fails because of the harness, not the exercise: {trouble[0]}"
    if _is_fill_in(runs, entry) or entry.kind == "predict":  # nothing written yet: every check says so
        assert all("TODO" in c["message"] for c in checks), [c["message"] for c in checks]


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_every_check_rejects_some_mutant(runs, entry):
    mutants = [v for v in variants("mutant") if v.exercise == entry]
    assert mutants, f"{entry.id} has no mutant in tests/variants/{entry.path.removesuffix('.py')}/"
    results = variant_results(runs, "mutant")
    checks = [c["name"] for c in checks_by_exercise(runs.get("solutions")["json"])[entry.id]]
    caught = {c.nodeid for m in mutants for c in results[m.label] if not c.result.passed}
    uncaught = [name for name in checks if name not in caught]
    assert not uncaught, f"these checks reject none of {entry.id}'s mutants: {uncaught}"


@pytest.mark.parametrize("mutant", variants("mutant"), ids=lambda v: v.label)
def test_mutant_is_rejected(runs, mutant):
    results = variant_results(runs, "mutant")[mutant.label]
    assert results, f"no checks ran for {mutant.label}"
    assert any(not c.result.passed for c in results), f"{mutant.label} passes every check"
    trouble = [c for c in results if any(t in c.result.reason for t in HARNESS_TROUBLE)]
    assert not trouble, f"{mutant.label} fails to load, so it tests nothing: {trouble[0].result.reason}"


@pytest.mark.parametrize("alternate", variants("alternate"), ids=lambda v: v.label)
def test_alternate_passes(runs, alternate):
    results = variant_results(runs, "alternate")[alternate.label]
    assert results, f"no checks ran for {alternate.label}"
    failed = [f"{c.nodeid}: {c.result.reason}" for c in results if not c.result.passed]
    assert not failed, "an unusual but correct answer is rejected:\n" + "\n".join(failed)


@pytest.mark.parametrize("mimic", variants("mimic"), ids=lambda v: v.label)
def test_mimic_is_rejected_for_its_jax_property(runs, mimic):
    """A values-right answer that skips the exercise's idea fails, and not because of its values."""
    results = variant_results(runs, "mimic")[mimic.label]
    failed = [c for c in results if not c.result.passed]
    assert failed, f"{mimic.label} returns the right values without the JAX idea, and passes every check"
    trouble = [c for c in results if any(t in c.result.reason for t in HARNESS_TROUBLE)]
    assert not trouble, f"{mimic.label} fails to load, so it tests nothing: {trouble[0].result.reason}"
    by_value = [f"{c.nodeid}: {c.result.reason}" for c in failed if c.result.code in VALUE_CODES]
    assert not by_value, (f"{mimic.label} is meant to return the right values, yet these checks reject "
                          f"it for its values (fix the mimic, or the check):\n" + "\n".join(by_value))


@pytest.mark.parametrize("entry", PREDICT, ids=[e.id for e in PREDICT])
def test_every_predict_kata_accepts_another_spelling_of_the_answer(runs, entry):
    alternates = [v for v in variants("alternate") if v.exercise == entry]
    assert alternates, (f"{entry.id} has no alternate: add tests/variants/{entry.path.removesuffix('.py')}/"
                        f"alternate_<spelling>.py, the right predictions written another way")
    mimics = [v for v in variants("mimic") if v.exercise == entry]
    assert not mimics, f"{entry.id}: a predict kata's checks read predictions only; a mimic tests nothing here"


@pytest.mark.parametrize("entry", CODE, ids=[e.id for e in CODE])
def test_every_exercise_rejects_a_values_right_mimic(runs, entry, mimic_tally):
    mimics = [v for v in variants("mimic") if v.exercise == entry]
    results = variant_results(runs, "mimic") if mimics else {}
    rejected = [m for m in mimics if any(not c.result.passed for c in results[m.label])]
    mimic_tally[entry.id] = (len(rejected), len(mimics))
    assert rejected, (f"{entry.id} has no values-right/property-wrong mimic that its checks reject: add "
                      f"tests/variants/{entry.path.removesuffix('.py')}/mimic_<what_it_skips>.py")
