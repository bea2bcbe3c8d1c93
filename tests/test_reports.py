"""Every output format, validated against its schema (tests/schemas/)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from grader import REPO_ROOT, reports
from grader.engine.grading import Check, ExerciseGrade, Grade
from grader.engine.runner import CheckResult
from grader.engine.scan import Flag
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


def test_classroom_result_matches_the_schema_and_sums_to_the_manifest(mixed_grade):
    data = reports.to_classroom(mixed_grade)
    jsonschema.validate(data, _schema("classroom"))
    assert sum(t["max_score"] for t in data["tests"]) == data["max_score"] == mixed_grade.max_score
    assert data["status"] == "fail"
    assert json.loads(base64.b64decode(reports.classroom_output(mixed_grade))) == data
    assert "secret x" not in json.dumps(data)


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
    assert classroom["status"] == "pass" and classroom["max_score"] == 2
    ET.parse(paths["junit.xml"])
    step_output = github_output.read_text().strip()
    assert step_output.startswith("result=")
    assert json.loads(base64.b64decode(step_output.removeprefix("result="))) == classroom
