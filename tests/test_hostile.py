"""Submissions that try to game the grader score exactly what they earned.

Each fixture in `tests/fixtures/submissions/` overlays hostile files on a
copy of the 01_purity reference solutions, so every case also proves that
the *other* exercises are still graded. Only the purity topic is graded, to
keep each case to one short child process.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from grader import REPO_ROOT
from support import PRISTINE, PURITY
from grader.engine.grading import grade
from grader.core.limits import Limits
from grader.core.manifest import load_manifest, select

FIXTURES = Path(__file__).parent / "fixtures" / "submissions"
# Generous limits, so a slow or busy machine never fails an honest check; the cases about endless
# loops get a short one, to be quick (and still roomy for the exercises that do not loop).
ROOMY = Limits(check_seconds=60, submission_seconds=900)
SHORT = Limits(check_seconds=6, hang_grace=2, submission_seconds=300)


def _submission(tmp_path: Path, fixture: str | None, *, stubs: tuple[str, ...] = (),
                repo_shaped: bool = False) -> Path:
    """The purity solutions, with some files reset to their stubs and the fixture's files laid over."""
    root = tmp_path / (fixture or "honest")
    topic = (root / "exercises" if repo_shaped else root) / "01_purity"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", topic)
    for name in stubs:
        shutil.copy(PRISTINE / "exercises" / "01_purity" / name, topic / name)
    if fixture:
        shutil.copytree(FIXTURES / fixture, root, dirs_exist_ok=True)
    return root


CASES = {  # name -> (fixture laid over the solutions, stubs kept, repo-shaped, limits)
    "good": (None, (), False, ROOMY),
    "partial": (None, ("debug_print.py", "loop_iterator.py"), True, ROOMY),
    "exit_at_import": ("exit_at_import", (), False, ROOMY),
    "exit_in_check": ("exit_in_check", (), False, ROOMY),
    "pytest_exit": ("pytest_exit", (), False, ROOMY),
    "planted_files": ("planted_files", ("global_config.py",), False, ROOMY),
    "fake_output": ("fake_output", (), False, ROOMY),
    "forged_channel": ("forged_channel", (), False, ROOMY),
    "endless_loops": ("endless_loops", (), False, SHORT),
    "hard_coded": ("hard_coded", (), False, ROOMY),
    "big_allocation": ("big_allocation", (), False, Limits(check_seconds=20, memory_bytes=3 << 30)),
    "module_tamper": ("module_tamper", (), False, ROOMY),
    "rewrite_checks": ("rewrite_checks", ("no_mutation.py", "debug_print.py", "loop_iterator.py"), False, ROOMY),
}


@pytest.fixture(scope="module")
def graded(runs, tmp_path_factory):
    """Grade every case on the shared workers, all queued at once."""
    from grader.core.files import resolve_target

    scratch = tmp_path_factory.mktemp("hostile")

    def run(name: str):
        fixture, stubs, repo_shaped, limits = CASES[name]
        folder = _submission(scratch / name, fixture, stubs=stubs, repo_shaped=repo_shaped)
        return grade(resolve_target(str(folder), REPO_ROOT), only=PURITY, limits=limits)

    for name in CASES:
        runs.submit(f"hostile-{name}", run, name)
    return lambda name: runs.get(f"hostile-{name}")


def _grade(graded, fixture: str):
    report = graded(fixture)
    return report, {e.exercise.id: e for e in report.exercises}


def _scores(by_id) -> dict[str, int]:
    return {k: e.score for k, e in by_id.items()}


def test_good_submission_scores_full_marks(graded):
    report, by_id = _grade(graded, "good")
    assert (report.score, report.max_score) == (4, 4)
    assert not report.needs_review


def test_partial_repo_shaped_submission_scores_what_it_solved(graded):
    report, by_id = _grade(graded, "partial")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 1, "purity-3": 0, "purity-4": 0}
    assert not report.needs_review


def test_empty_submission_scores_zero_with_reasons():
    report = grade(FIXTURES / "empty", only=PURITY, limits=ROOMY)
    assert report.score == 0
    assert all("is missing" in e.reason for e in report.exercises)


def test_exiting_at_import_costs_only_that_exercise(graded):
    report, by_id = _grade(graded, "exit_at_import")
    assert _scores(by_id) == {"purity-1": 0, "purity-2": 1, "purity-3": 1, "purity-4": 1}
    assert "ended the submission's process early" in by_id["purity-1"].reason
    assert report.needs_review and any("exits the process" in n for n in report.review_notes())


def test_exiting_inside_a_check_fails_that_check(graded):
    report, by_id = _grade(graded, "exit_in_check")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}
    assert report.needs_review


def test_forcing_pytest_to_exit_early_is_caught(graded):
    report, by_id = _grade(graded, "pytest_exit")
    assert _scores(by_id) == {"purity-1": 0, "purity-2": 1, "purity-3": 1, "purity-4": 1}
    assert any("imports the test framework" in n for n in report.review_notes())


def test_planted_config_and_test_files_are_never_loaded(graded):
    report, by_id = _grade(graded, "planted_files")
    # purity-1 is the untouched stub; conftest.py, pytest.ini, sitecustomize.py,
    # a .pyc and an extra test file would all have made it pass.
    assert _scores(by_id) == {"purity-1": 0, "purity-2": 1, "purity-3": 1, "purity-4": 1}
    assert not any("test_extra" in c.nodeid for e in report.exercises for c in e.checks)
    notes = "\n".join(report.review_notes())
    for planted in ("conftest.py", "pytest.ini", "sitecustomize.py", "test_extra.py"):
        assert planted in notes


def test_fake_output_and_result_files_count_for_nothing(graded):
    report, by_id = _grade(graded, "fake_output")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 1, "purity-3": 0, "purity-4": 1}
    notes = "\n".join(report.review_notes())
    assert "prints a CI workflow command" in notes and "opens files" in notes


def test_forged_results_on_descriptors_never_reach_the_grader(graded):
    # The submission runs in the subject, which holds no descriptor of the examiner's result channel:
    # the forged lines land in the subject's own pipes, where they are garbage, and cost its exercise.
    report, by_id = _grade(graded, "forged_channel")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 1, "purity-3": 1, "purity-4": 0}
    assert report.forged_results == 0 and report.needs_review  # (the scan saw the raw writes)


def test_endless_loops_time_out_in_python_and_in_native_code(graded):
    report, by_id = _grade(graded, "endless_loops")
    assert _scores(by_id) == {"purity-1": 0, "purity-2": 1, "purity-3": 1, "purity-4": 0}
    assert by_id["purity-1"].reason.endswith("timed out after 6 s in purity-1")
    # Stuck inside XLA, where Python cannot interrupt it. A check that calls the function directly has
    # the examiner waiting for the subject's answer, not stuck: the limit ends the check on time and
    # the subject is killed. The hidden check runs the traced program in the examiner itself, which is
    # then stuck: the runner kills the check process a grace period later. The order is drawn, so
    # either may come first.
    assert by_id["purity-4"].code == "timeout", by_id["purity-4"].reason
    assert re.search(r"timed out after 6 s (\(stuck; the check process was killed\) )?in purity-4$",
                     by_id["purity-4"].reason), by_id["purity-4"].reason


def test_a_huge_allocation_hits_the_memory_limit(graded):
    report, by_id = _grade(graded, "big_allocation")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}
    assert "MemoryError" in by_id["purity-2"].reason


def test_hard_coded_visible_answers_fail_the_hidden_checks(graded):
    report, by_id = _grade(graded, "hard_coded")
    assert _scores(by_id) == {"purity-1": 1, "purity-2": 1, "purity-3": 1, "purity-4": 0}
    failed = [c for c in by_id["purity-4"].checks if not c.result.passed]
    assert failed and all(c.hidden for c in failed), "only the hidden check should catch it"
    assert by_id["purity-4"].reason.startswith("a hidden check:")


def test_rewriting_the_checks_before_a_crash_changes_nothing(graded):
    # The submission runs in the subject, which is never shown the checks (in the sandbox they are not
    # there; without it the examiner has already loaded them): the rewrite finds nothing to rewrite, or
    # rewrites files nobody reads again, and the crash costs the exercise.
    report, by_id = _grade(graded, "rewrite_checks")
    assert _scores(by_id) == {"purity-1": 0, "purity-2": 0, "purity-3": 0, "purity-4": 0}
    assert by_id["purity-1"].code == "crash", by_id["purity-1"].reason
    assert "writes files" in "\n".join(report.review_notes())


def test_tampering_with_the_grader_in_memory_is_flagged(graded):
    # Code inside the check process can reach the plugin's objects; it cannot hide that it does.
    report, _ = _grade(graded, "module_tamper")
    assert report.needs_review
    assert "can reach the grader's modules (sys.modules)" in "\n".join(report.review_notes())


@pytest.mark.parametrize("source, reason", [
    ("import sys as s\nm = s.modules\n", "can reach the grader's modules (sys.modules)"),
    ("import os as o\nm = o.sys.modules\n", "can reach the grader's modules (sys.modules)"),
    ("import warnings\nwarnings.sys.modules\n", "can reach the grader's modules (sys.modules)"),
    ("import os\nos.abort()\n", "exits the process (os.abort)"),
    ("from os import _exit as leave\nleave(0)\n", "exits the process (os._exit)"),
    ("import os\nos.posix_spawn('/bin/true', ['true'], {})\n", "starts processes (os.posix_spawn)"),
    ("import os\ngetattr(os, 'system')('true')\n", "reaches os's attributes by name (getattr)"),
    ("from pathlib import Path\nPath('x').write_text('y')\n", "writes files"),
    ("from jax import config\nconfig.update('jax_enable_x64', True)\n", "changes JAX's configuration"),
    ("import numpy as np\nnp.allclose = lambda *a, **k: True\n", "monkeypatches np.allclose"),
    ("import jax.monitoring\n", "can fake JAX's compile events"),
    ("print('::error::all good')\n", "prints a CI workflow command"),
])
def test_static_scan_sees_through_aliases_and_indirection(source, reason):
    from grader.engine.scan import scan_source

    found = [flag.reason for flag in scan_source(source, "x.py")]
    assert any(f.startswith(reason) for f in found), found


def test_reference_solutions_and_alternates_need_no_review():
    """The static scan must not cry wolf: honest answers, however unusual, are never flagged."""
    from grader.engine.scan import scan_source
    from support import ALL_EXERCISES, variants

    flagged = []
    for entry in ALL_EXERCISES:
        path = REPO_ROOT / "solutions" / entry.path
        flagged += scan_source(path.read_text(), f"solutions/{entry.path}")
    for alternate in variants("alternate"):
        flagged += scan_source(alternate.path.read_text(), alternate.label)
    assert not flagged, "\n".join(flag.text() for flag in flagged)


def test_sandbox_user_runs_checks_unprivileged_or_refuses_clearly(tmp_path):
    """As root, --sandbox-user drops the check processes to `nobody`, who cannot write the repo."""
    import os
    import subprocess
    import sys

    marker = REPO_ROOT / "sandbox-escape-marker"
    root = tmp_path / "sub"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity")
    solution = (root / "01_purity" / "global_config.py").read_text()
    (root / "01_purity" / "global_config.py").write_text(
        f"try:\n    open({str(marker)!r}, 'w').write('escaped')\nexcept OSError:\n    pass\n" + solution)
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(root), "--only", "purity-1",
                           "--sandbox-user", "nobody"], capture_output=True, text=True, timeout=300)
    try:
        if os.geteuid() != 0:
            assert proc.returncode == 2 and "needs the grader to run as root" in proc.stderr
        elif proc.returncode == 2:  # this interpreter lives where `nobody` cannot read it
            assert "cannot run this Python and the grader" in proc.stderr
        else:
            assert proc.returncode == 0, proc.stderr
            assert "total: 1 / 1 points" in proc.stdout
            assert not marker.exists(), "the sandboxed check process wrote into the repository"
            assert "opens files" in proc.stdout  # and the attempt is up for review
    finally:
        marker.unlink(missing_ok=True)


def test_a_symlinked_folder_cannot_pull_in_files_from_outside(tmp_path):
    from grader.engine.workspace import build_workspace

    outside = tmp_path / "outside" / "01_purity"
    outside.mkdir(parents=True)
    shutil.copy(REPO_ROOT / "solutions/01_purity/global_config.py", outside / "global_config.py")
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "01_purity").symlink_to(outside)
    _, copied = build_workspace(tmp_path / "ws", REPO_ROOT, PURITY, submission)
    assert "global_config.py" not in " ".join(copied.files)
    assert "outside the submission" in copied.refused["01_purity/global_config.py"]


def test_a_launched_process_that_raises_fails_with_its_own_error(tmp_path):
    """A check's own failure met where the exercise runs (a multi-process launch's) crosses the wall as
    that failure, with its message and code, not as an error without a cause."""
    entry = select(load_manifest(REPO_ROOT / "exercises"), "multiproc-1")[0]
    answer = (REPO_ROOT / "solutions" / entry.path).read_text()
    header = "def describe_process(coordinator: str, num_processes: int, process_id: int) -> dict:\n"
    assert header in answer
    dest = tmp_path / entry.path
    dest.parent.mkdir(parents=True)
    dest.write_text(answer.replace(header, header + '    raise ValueError("bad coordinator address")\n'))
    report = grade(tmp_path, only=[entry], limits=ROOMY)
    (graded,) = report.exercises
    assert graded.score == 0
    reasons = {c.result.reason for c in graded.checks}
    assert any("raised ValueError" in r and "bad coordinator address" in r for r in reasons), reasons
    assert {c.result.code for c in graded.checks} == {"multi-process"}, [c.result.code for c in graded.checks]
