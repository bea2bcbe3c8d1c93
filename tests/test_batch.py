"""`grader batch` over a generated class: mixed submissions, a kill midway, a resume."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader import REPO_ROOT
from support import PRISTINE

FIXTURES = Path(__file__).parent / "fixtures" / "submissions"
ONLY = "purity-1,purity-2"  # two exercises keep each student to one short child process
SOLUTIONS = REPO_ROOT / "solutions" / "01_purity"
STUBS = PRISTINE / "exercises" / "01_purity"  # the untouched stubs, whatever a learner did


def _folder(root: Path, name: str, sources: dict[str, Path], repo_shaped: bool = False) -> Path:
    folder = root / name / ("exercises" if repo_shaped else "") / "01_purity"
    folder.mkdir(parents=True)
    for file, source in sources.items():
        shutil.copy(source / file, folder / file)
    return root / name


def _zip(root: Path, name: str, folder: Path) -> None:
    with zipfile.ZipFile(root / f"{name}.zip", "w") as archive:
        for path in folder.rglob("*"):
            archive.write(path, Path(name) / path.relative_to(folder))
    shutil.rmtree(folder)


def make_class(root: Path) -> dict[str, tuple]:
    """20 submissions; returns student -> (expected score or None for an error row, needs review)."""
    solved = {"global_config.py": SOLUTIONS, "no_mutation.py": SOLUTIONS}
    half = {"global_config.py": SOLUTIONS, "no_mutation.py": STUBS}
    stubs = {"global_config.py": STUBS, "no_mutation.py": STUBS}
    expected = {}
    for i in range(6):
        _folder(root, f"good{i}", solved, repo_shaped=i % 2 == 1)
        expected[f"good{i}"] = (2, False)
    for i in range(4):
        _folder(root, f"half{i}", half)
        expected[f"half{i}"] = (1, False)
    for i in range(3):
        _folder(root, f"untouched{i}", stubs)
        expected[f"untouched{i}"] = (0, False)
    for i in range(2):
        _zip(root, f"zipped{i}", _folder(root, f"zipped{i}", solved, repo_shaped=i == 1))
        expected[f"zipped{i}"] = (2, False)
    hostile = _folder(root, "exits", {"no_mutation.py": SOLUTIONS})
    shutil.copy(FIXTURES / "exit_at_import/01_purity/global_config.py", hostile / "01_purity/global_config.py")
    expected["exits"] = (1, True)
    planted = _folder(root, "planted", half)
    shutil.copy(FIXTURES / "planted_files/01_purity/conftest.py", planted / "01_purity/conftest.py")
    expected["planted"] = (1, True)
    bare = _folder(root, "bare_src", solved)
    subprocess.run(["git", "init", "-q", str(bare)], check=True)
    subprocess.run(["git", "-C", str(bare), "add", "."], check=True)
    subprocess.run(["git", "-C", str(bare), "-c", "user.name=s", "-c", "user.email=s@example.com",
                    "commit", "-qm", "work"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(bare), str(root / "bare.git")], check=True)
    shutil.rmtree(bare)
    expected["bare"] = (2, False)
    (root / "empty").mkdir()
    expected["empty"] = (None, False)
    (root / "broken.zip").write_bytes(b"this is not a zip file")
    expected["broken"] = (None, False)
    return expected


def _batch(submissions: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "grader.cli", "batch", str(submissions), "--out", str(out),
                             "--only", ONLY, "--workers", "2", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _graded_at(out: Path) -> dict[str, str]:
    return {p.stem: json.loads(p.read_text())["graded_at"] for p in (out / "students").glob("*.json")}


@pytest.fixture(scope="module")
def batch_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    expected = make_class(submissions)
    assert len(expected) == 20
    first = _batch(submissions, out)
    deadline = time.monotonic() + 600
    while len(list((out / "students").glob("*.json"))) < 6 and first.poll() is None:
        assert time.monotonic() < deadline, "the batch made no progress"
        time.sleep(0.2)
    first.send_signal(signal.SIGKILL)
    first.wait()
    before_resume = _graded_at(out)
    resumed = _batch(submissions, out)
    stdout, stderr = resumed.communicate(timeout=900)
    return {"expected": expected, "submissions": submissions, "out": out, "before": before_resume,
            "stdout": stdout, "stderr": stderr, "returncode": resumed.returncode}


def _gradebook(out: Path) -> list[dict]:
    with open(out / "gradebook.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_killed_batch_resumes_without_losing_or_duplicating_a_row(batch_run):
    assert batch_run["returncode"] == 0, batch_run["stderr"]
    rows = _gradebook(batch_run["out"])
    names = [row["student"] for row in rows]
    assert sorted(names) == sorted(batch_run["expected"]) and len(names) == len(set(names)) == 20
    assert 6 <= len(batch_run["before"]) < 20, "the kill should land midway"
    after = _graded_at(batch_run["out"])
    regraded = sorted(name for name, stamp in batch_run["before"].items() if after[name] != stamp)
    assert not regraded, f"students finished before the kill were graded again: {regraded}"
    assert "unchanged" in batch_run["stderr"] and "ETA" in batch_run["stderr"]


def test_every_student_scores_what_they_should(batch_run):
    rows = {row["student"]: row for row in _gradebook(batch_run["out"])}
    for name, (score, review) in batch_run["expected"].items():
        row = rows[name]
        if score is None:
            assert row["error"] and row["total"] == "", f"{name} should be an explicit error row: {row}"
        else:
            assert (row["total"], row["error"]) == (str(score), ""), f"{name}: {row}"
            assert (row["needs_review"] == "yes") == review, f"{name}: {row}"
        assert row["max"] == "2"
    assert "unreadable zip" in rows["broken"]["error"] and "no exercise files" in rows["empty"]["error"]


def test_summary_gives_pass_rates_per_exercise(batch_run):
    with open(batch_run["out"] / "summary.csv", newline="") as handle:
        summary = {row["exercise"]: row for row in csv.DictReader(handle)}
    graded = sum(1 for score, _ in batch_run["expected"].values() if score is not None)
    assert summary["purity-1"]["graded"] == str(graded)
    # purity-1: good, half, zipped, planted, bare; purity-2: good, zipped, exits, bare
    passed = {"purity-1": 6 + 4 + 2 + 1 + 1, "purity-2": 6 + 2 + 1 + 1}
    assert {k: int(v["passed"]) for k, v in summary.items()} == passed
    assert "pass rate" in batch_run["stdout"]


def test_only_changed_submissions_are_regraded(batch_run):
    submissions, out = batch_run["submissions"], batch_run["out"]
    before = _graded_at(out)
    shutil.copy(SOLUTIONS / "no_mutation.py", submissions / "half0/01_purity/no_mutation.py")
    proc = _batch(submissions, out)
    proc.communicate(timeout=600)
    after = _graded_at(out)
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {"half0"}
    assert {row["student"]: row["total"] for row in _gradebook(out)}["half0"] == "2"


def test_colliding_names_keep_their_full_names(tmp_path):
    from grader.batch import find_submissions

    (tmp_path / "alice").mkdir()
    (tmp_path / "alice.zip").write_bytes(b"")
    (tmp_path / "bob.zip").write_bytes(b"")
    assert [s.name for s in find_submissions(tmp_path)] == ["alice", "alice.zip", "bob"]


def test_an_unreadable_submission_becomes_an_error_row_not_a_crash(tmp_path):
    from grader.batch import Submission, grade_one
    from grader.limits import Limits
    from grader.manifest import load_manifest, select

    loop = tmp_path / "loop"
    loop.symlink_to(loop)  # resolving it raises RuntimeError (a symlink loop)
    exercises = select(load_manifest(REPO_ROOT / "exercises"), "purity-1")
    record, reused = grade_one(Submission("loop", loop), exercises, Limits(), "fp", None, False, None)
    assert not reused and record["error"] and record["score"] is None
