"""The `grader` command end to end: whole-suite runs, broken submissions, output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from grader import REPO_ROOT
from grader.course import reports
from support import ALL_EXERCISES, EXERCISES, ONLY, PURITY, PURITY_IDS

MAX = sum(e.points for e in EXERCISES)


def _grader(*args: str, cwd=REPO_ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_untouched_exercises_score_zero(runs):
    graded = runs.get("stubs")
    assert not graded.error, graded.error
    assert f"total: 0 / {MAX} points" in reports.table(graded)
    assert graded.score == 0 and graded.max_score == MAX


def test_reference_solutions_score_full_marks(runs):
    graded = runs.get("solutions")
    assert not graded.error, graded.error
    assert f"total: {MAX} / {MAX} points" in reports.table(graded), reports.table(graded)[-2000:]


def test_json_results_follow_the_schema(runs):
    graded = reports.to_json(runs.get("solutions"))
    assert set(graded) == {"schema_version", "target", "score", "max_score", "seconds", "error",
                           "needs_review", "review", "isolation", "exercises"}
    assert graded["schema_version"] == 4
    assert graded["isolation"]["mode"] in ("namespaces", "process")
    assert graded["isolation"]["round_trips"] > len(EXERCISES), "every exercise is loaded in the subject"
    assert [e["id"] for e in graded["exercises"]] == [e.id for e in EXERCISES]
    for entry in graded["exercises"]:
        assert set(entry) == {"id", "path", "score", "max_score", "status", "reason", "code", "flags", "checks"}
        assert entry["status"] in ("passed", "failed")
        for check in entry["checks"]:
            assert set(check) == {"name", "status", "message", "code", "duration", "hidden"}
            assert check["status"] in ("passed", "failed", "skipped")
            assert check["duration"] >= 0


def test_the_report_lists_each_exercises_checks_in_file_order(runs):
    """Checks run in a drawn order when graded (see test_plugin); the report keeps the files' order, visible
    checks first, so two gradings of one submission read alike."""
    import ast

    graded = reports.to_json(runs.get("stubs"))
    for entry, exercise in zip(graded["exercises"], EXERCISES):
        names = [check["name"] for check in entry["checks"]]
        visible = [name for name in names if not name.split("::")[0].split("/")[-1].startswith("hidden_")]
        assert names[:len(visible)] == visible, f"{exercise.id}: hidden checks listed among visible ones"
        tree = ast.parse((REPO_ROOT / "exercises" / exercise.check_path).read_text())
        defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
        listed = list(dict.fromkeys(name.split("::")[1].split("[")[0] for name in visible))
        assert listed == [name for name in defined if name in listed], f"{exercise.id}: {listed} vs {defined}"


def test_every_failure_carries_a_known_code(runs):
    """The class report groups failures by code: every failed check of the stubs has one."""
    from grader.checks import FAILURE_CODES

    graded = reports.to_json(runs.get("stubs"))
    codes = {check["code"] for entry in graded["exercises"] for check in entry["checks"]
             if check["status"] == "failed"}
    assert codes and codes <= set(FAILURE_CODES), codes - set(FAILURE_CODES)


@pytest.fixture(scope="module")
def broken_submission(tmp_path_factory):
    """A repo-shaped submission: one good exercise, then one broken in each way a file can be."""
    root = tmp_path_factory.mktemp("alice")
    folder = root / "exercises" / "01_purity"
    folder.mkdir(parents=True)
    shutil.copy(REPO_ROOT / "solutions/01_purity/global_config.py", folder / "global_config.py")
    (folder / "no_mutation.py").write_text("def sgd_update(params, grads, lr)\n    return params\n")
    (folder / "debug_print.py").write_text("def step(x, velocity):\n    return x\n")
    # loop_iterator.py is missing altogether.
    out = root / "results.json"
    proc = _grader("grade", str(root), "--only", PURITY_IDS, "--json", str(out))
    return proc, json.loads(out.read_text())


def test_broken_files_score_zero_with_a_reason_and_the_rest_is_graded(broken_submission):
    proc, graded = broken_submission
    assert proc.returncode == 0, proc.stderr
    by_id = {e["id"]: e for e in graded["exercises"]}
    assert by_id["purity-1"]["score"] == 1
    assert by_id["purity-2"]["score"] == 0 and "syntax error on line 1" in by_id["purity-2"]["reason"]
    assert by_id["purity-3"]["score"] == 0 and "has no `damped_step`" in by_id["purity-3"]["reason"]
    assert by_id["purity-4"]["score"] == 0 and "is missing" in by_id["purity-4"]["reason"]
    assert graded["max_score"] == sum(e.points for e in PURITY)
    assert "total: 1 / 4 points" in proc.stdout


def test_a_crash_or_endless_loop_at_import_costs_only_that_exercise(tmp_path):
    folder = tmp_path / "01_purity"
    folder.mkdir()
    (folder / "global_config.py").write_text("while True:\n    pass\n")
    (folder / "no_mutation.py").write_text("import os\nos._exit(3)\n")
    shutil.copy(REPO_ROOT / "solutions/01_purity/debug_print.py", folder / "debug_print.py")
    out = tmp_path / "results.json"
    proc = _grader("grade", str(tmp_path), "--only", "purity-1,purity-2,purity-3", "--timeout", "3",
                   "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    by_id = {e["id"]: e for e in json.loads(out.read_text())["exercises"]}
    assert "timed out after 3 s in purity-1" in by_id["purity-1"]["reason"]
    assert "ended the submission's process early (exit code 3)" in by_id["purity-2"]["reason"]
    assert by_id["purity-3"]["score"] == 1


def test_unknown_exercise_or_missing_folder_cannot_be_graded(tmp_path):
    proc = _grader("grade", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "is not a folder" in proc.stderr
    proc = _grader("grade", "--only", "purty-1")
    assert proc.returncode == 2 and "did you mean 'purity-1'?" in proc.stderr


def test_every_manifest_exercise_is_graded(runs):
    graded = runs.get("stubs")
    assert [e.exercise.id for e in graded.exercises] == [e.id for e in EXERCISES]
    assert ONLY or len(EXERCISES) == len(ALL_EXERCISES)


def test_bad_limits_or_a_check_process_that_cannot_start_exit_2(tmp_path):
    proc = _grader("grade", "solutions", "--only", "purity-1", "--timeout", "0")
    assert proc.returncode == 2 and "--timeout must be positive" in proc.stderr
    # 64 MiB of address space is too little for JAX to start: nothing can be graded.
    out = tmp_path / "r.json"
    proc = _grader("grade", "solutions", "--only", "purity-1", "--memory", "64", "--json", str(out))
    assert proc.returncode == 2 and "could not grade" in proc.stdout
    assert json.loads(out.read_text())["error"].startswith("the checks could not be collected")
