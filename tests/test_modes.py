"""A learner's run and the grader give every check the same verdict.

The grader judges from the examiner, with the submission imported only in a
sandboxed subject process (grader.engine.remote); a learner's `pytest exercises/`
imports it into the check's own process, as before. The wall must change
nothing a check decides: for the untouched stubs, the reference solutions,
and every mimic and alternate in tests/variants (with the solution graded
again in the same rounds), each check passes or fails alike in both. The
grader's side is the soundness proof's own grading (no second run); the
learner's side is `pytest --target` on the same files, run beside it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.course.soundness import Repeat

KINDS_COMPARED = ("mimic", "alternate")


def _same_place(nodeid: str) -> str:
    """A check's id without its top folder: the grader keeps hidden checks in hidden/."""
    return nodeid.split("/", 1)[1]


def _in_process(folder: Path, exercises: list, out: Path, *flags: str) -> dict[str, str]:
    """Each check's outcome when pytest runs it in one process on `folder` (`--examiner`: with the
    exercise imported in a subject process, as the grader does)."""
    files = [f"exercises/{e.check_path}" for e in exercises]
    files += [f"exercises/{e.hidden_check_path}" for e in exercises if (REPO_ROOT / "exercises" / e.hidden_check_path).is_file()]
    subprocess.run([sys.executable, "-m", "pytest", *files, *flags, "--target", str(folder), "--kata-results", str(out),
                    "-q", "-p", "no:randomly", "-o", "python_files=test_*.py hidden_test_*.py"],
                   cwd=REPO_ROOT, capture_output=True, text=True, timeout=1800)
    if not out.is_file():
        return {}  # the process died before it wrote a result: every check reads "not run"
    return {_same_place(k): v[0] for k, v in json.loads(out.read_text()).items()}


def _compared(item) -> bool:
    return isinstance(item, Repeat) or getattr(item, "kind", "") in KINDS_COMPARED


@pytest.fixture(scope="module")
def learner_runs(runs, tmp_path_factory):
    """The learner's verdicts: solutions, stubs and each round's mimics, alternates and repeats."""
    scratch = tmp_path_factory.mktemp("learner")

    def run_target(name: str, folder: Path, exercises: list) -> dict[str, str]:
        return _in_process(folder, exercises, scratch / f"{name}.json")

    def run_round(i: int) -> dict[str, str]:
        items = [item for item in runs.rounds[i] if _compared(item)]
        folder = scratch / f"round-{i}"
        for item in items:
            dest = folder / item.exercise.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(item.source())
        return _in_process(folder, [item.exercise for item in items], scratch / f"round-{i}.json") if items else {}

    runs.start()  # the grader's side first: the learner's runs queue behind it
    runs.submit("learner-solutions", run_target, "solutions", REPO_ROOT / "solutions", list(runs.exercises))
    runs.submit("learner-stubs", run_target, "stubs", runs.stubs, list(runs.exercises))
    for i in range(len(runs.rounds)):
        runs.submit(f"learner-round-{i}", run_round, i)
    return lambda name: runs.futures[f"learner-{name}"].result()


def _differences(learner: dict[str, str], graded_checks: list, item=None) -> list[str]:
    found = []
    for check in graded_checks:
        place = _same_place(check.nodeid)
        graded = "passed" if check.result.passed else "failed"
        mine = learner.get(place, "not run")
        if mine != graded and not (_crashed(mine, check.result) and item is not None and _agree_again(item, place)):
            found.append(f"{place}: {mine} in one process, {graded} by the grader ({check.result.reason[:160]})")
    return found


def _crashed(mine: str, graded) -> bool:
    """A process died on one side (a segfault inside XLA: JAX's CPU host callbacks under shard_map
    crash now and then in any process, so one crash says nothing about the wall), or the grader left
    the check for one that died before it (the grader draws the order, so which is drawn)."""
    return mine == "not run" or graded.code in ("crash", "not-run")


def _agree_again(item, place: str, tries: int = 3) -> bool:
    """Run the item's check file again on both sides (`--examiner` for the grader's); whether both
    sides give the check the same verdict in any try."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="katas-modes-") as scratch:
        folder = Path(scratch)
        (folder / item.exercise.path).parent.mkdir(parents=True, exist_ok=True)
        (folder / item.exercise.path).write_bytes(item.source())
        for attempt in range(tries):
            verdicts = [_in_process(folder, [item.exercise], folder / f"{attempt}-{mode}.json", *flags).get(place)
                        for mode, flags in (("learner", ()), ("examiner", ("--examiner",)))]
            if verdicts[0] is not None and verdicts[0] == verdicts[1]:
                return True
    return False


@pytest.mark.parametrize("target", ["solutions", "stubs"])
def test_whole_course_verdicts_agree(runs, learner_runs, target):
    learner = learner_runs(target)
    graded = [check for e in runs.get(target).exercises for check in e.checks]
    differences = _differences(learner, graded)
    assert not differences, "\n".join(differences)


def test_mimics_alternates_and_repeats_agree(runs, learner_runs):
    differences = []
    for i, group in enumerate(runs.rounds):
        learner = learner_runs(f"round-{i}")
        for item in group:
            if _compared(item):
                differences += [f"{getattr(item, 'label', item.exercise.id)}: {d}"
                                for d in _differences(learner, runs.results(item), item)]
    assert not differences, "\n".join(differences)
