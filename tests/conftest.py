"""Fixtures for the project's own tests (helpers live in support.py)."""

from __future__ import annotations

import pytest

from grader.course.soundness import Proof
from support import new_proof


_RUNS: list[Proof] = []


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Proof:
    """The soundness proof of this repository (grader.course.soundness), its targets graded once."""
    runs = new_proof(tmp_path_factory.mktemp("runs"))
    _RUNS.append(runs)
    yield runs
    runs.close()




@pytest.fixture(scope="session", autouse=True)
def _grade_targets_from_the_start(request: pytest.FixtureRequest) -> None:
    """When the soundness tests are in this run, start grading their targets before the first
    test, so that the two workers overlap every other test instead of waiting for the first ask."""
    if any(item.path.name == "test_suite_soundness.py" for item in request.session.items):
        request.getfixturevalue("runs").start()


@pytest.fixture(scope="session")
def mimic_tally() -> dict[str, tuple[int, int]]:
    """exercise id -> (mimics rejected, mimics kept), filled by the soundness test, printed at the end."""
    return _TALLY


_TALLY: dict[str, tuple[int, int]] = {}


def pytest_terminal_summary(terminalreporter) -> None:
    for runs in _RUNS:
        if runs.seconds:
            slowest = sorted(runs.seconds.items(), key=lambda item: -item[1])[:8]
            terminalreporter.section("graded targets (two at a time)")
            terminalreporter.write_line(f"{len(runs.seconds)} targets, {sum(runs.seconds.values()):.0f} s in all; "
                                        "slowest: " + ", ".join(f"{name} {s:.0f} s" for name, s in slowest))
    if not _TALLY:
        return
    terminalreporter.section("values-right mimics rejected per exercise")
    by_topic: dict[str, list[str]] = {}
    for exercise_id, (rejected, kept) in _TALLY.items():
        by_topic.setdefault(exercise_id.rsplit("-", 1)[0], []).append(f"{exercise_id} {rejected}/{kept}")
    for topic, cells in by_topic.items():
        terminalreporter.write_line(f"{topic:>10}: " + ", ".join(cells))
    missing = sorted(k for k, (rejected, _) in _TALLY.items() if not rejected)
    terminalreporter.write_line(f"exercises with none rejected: {', '.join(missing) or 'none'}")
