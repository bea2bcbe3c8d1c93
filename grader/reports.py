"""A `Grade` written out for people and for the platforms classes use.

- `table`: the terminal table (exercise, points, status, reason) and total;
- `to_json`: the project's own versioned schema;
- `to_gradescope`: Gradescope's `results.json`;
- `to_classroom`: a GitHub Classroom autograding runner result (and its
  base64 form for the `result` step output);
- `to_junit`: JUnit XML for any CI.

Every format carries the **needs review** notes, and marks hidden checks.
"""

from __future__ import annotations

import base64
import json
import xml.etree.ElementTree as ET

from grader.engine.grading import ExerciseGrade, Grade

SCHEMA_VERSION = 4  # 3: failure codes per check and exercise, the isolation mode; 4: examiner round trips
HIDDEN_FAILED = "a hidden check failed: the visible checks are not the whole story, try other inputs"


def to_json(report: Grade) -> dict:
    """The project's results schema; bump SCHEMA_VERSION on any change."""
    return {
        "schema_version": SCHEMA_VERSION,
        "target": report.target,
        "score": report.score,
        "max_score": report.max_score,
        "seconds": round(report.seconds, 2),
        "error": report.error,
        "needs_review": report.needs_review,
        "review": report.review_notes(),
        "isolation": {"mode": report.isolation.mode, "guarantee": report.isolation.guarantee,
                      "note": report.isolation.why, "round_trips": report.round_trips},
        "exercises": [
            {
                "id": e.exercise.id,
                "path": e.exercise.path,
                "score": e.score,
                "max_score": e.exercise.points,
                "status": e.status,
                "reason": e.reason,
                "code": e.code,
                "flags": [{"line": f.line, "code": f.code, "reason": f.reason} for f in e.flags],
                "checks": [
                    {"name": c.nodeid, "status": c.result.outcome, "message": c.result.reason,
                     "code": "" if c.result.passed else (c.result.code or "error"),
                     "duration": round(c.result.duration, 3), "hidden": c.hidden}
                    for c in e.checks
                ],
            }
            for e in report.exercises
        ],
    }


def _student_reason(e: ExerciseGrade) -> str:
    """The reason a student may see: hidden checks' messages stay hidden."""
    first = next((c for c in e.checks if not c.result.passed), None)
    return HIDDEN_FAILED if first is not None and first.hidden else e.reason


def table(report: Grade, width: int = 100) -> str:
    rows = [("exercise", "points", "status", "reason")]
    for e in report.exercises:
        rows.append((e.exercise.id, f"{e.score}/{e.exercise.points}",
                     "ok" if e.status == "passed" else "FAIL", e.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    room = max(20, width - sum(widths) - 6)
    lines = []
    for row in rows:
        reason = row[3] if len(row[3]) <= room else row[3][: room - 3] + "..."
        lines.append(("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + reason).rstrip())
    lines.insert(1, "-" * min(width, max(len(line) for line in lines)))
    lines.append("")
    if report.error:
        lines.append(f"could not grade: {report.error}")
    passed = sum(e.status == "passed" for e in report.exercises)
    lines.append(f"total: {report.score} / {report.max_score} points ({passed} of "
                 f"{len(report.exercises)} exercises) in {report.seconds:.1f} s")
    lines.append(f"isolation: {report.isolation.mode}: {report.isolation.describe()}")
    if report.needs_review:
        lines.append("NEEDS REVIEW: this submission contains code that reaches into the grader:")
        lines += [f"  {note}" for note in report.review_notes()]
    return "\n".join(lines)


def to_gradescope(report: Grade) -> dict:
    """Gradescope's results.json: one scored test per exercise, hidden checks hidden."""
    tests = []
    for e in report.exercises:
        visible = [c for c in e.checks if not c.hidden]
        lines = [f"{e.exercise.concept}"]
        lines += [f"{'PASS' if c.result.passed else 'FAIL'} {c.name}"
                  + ("" if c.result.passed else f": {c.result.reason}") for c in visible]
        if any(c.hidden for c in e.checks):
            hidden_ok = all(c.result.passed for c in e.checks if c.hidden)
            lines.append(f"{'PASS' if hidden_ok else 'FAIL'} hidden checks")
        if e.status == "failed" and not any(not c.result.passed for c in visible):
            lines.insert(1, _student_reason(e))  # the FAIL lines above do not say why
        tests.append({"name": e.exercise.id, "number": str(e.exercise.index + 1), "score": e.score,
                      "max_score": e.exercise.points, "status": e.status, "output": "\n".join(lines),
                      "visibility": "visible"})
        for c in e.checks:
            if c.hidden:
                tests.append({"name": f"{e.exercise.id} (hidden) {c.name}", "score": 0, "max_score": 0,
                              "status": "passed" if c.result.passed else "failed",
                              "output": c.result.reason, "visibility": "hidden"})
    if report.needs_review:
        tests.append({"name": "NEEDS REVIEW", "score": 0, "max_score": 0, "status": "failed",
                      "output": "\n".join(report.review_notes()), "visibility": "hidden"})
    output = f"{report.score} / {report.max_score} points\nGraded with {isolation_line(report)}"
    if report.error:
        output += f"\nThe submission could not be graded: {report.error}"
    return {"score": report.score, "execution_time": round(report.seconds, 1), "output": output,
            "stdout_visibility": "hidden", "tests": tests}


def isolation_line(report: Grade) -> str:
    """How the submission was walled in, for every human-readable output."""
    return f"isolation {report.isolation.mode}: {report.isolation.describe()}"


def to_classroom(report: Grade) -> dict:
    """A GitHub Classroom autograding runner result: one test per exercise with its points."""
    tests = [{"name": e.exercise.id, "status": "pass" if e.status == "passed" else "fail",
              "message": "" if e.status == "passed" else _student_reason(e),
              "test_code": f"grader grade --only {e.exercise.id}", "filename": e.exercise.path,
              "line_no": 0, "execution_time": f"{sum(c.result.duration for c in e.checks):.2f}s",
              "score": e.score, "max_score": e.exercise.points}
             for e in report.exercises]
    if report.needs_review:
        tests.append({"name": "needs review", "status": "error", "message": "; ".join(report.review_notes()),
                      "test_code": "", "filename": "", "line_no": 0, "execution_time": "0s",
                      "score": 0, "max_score": 0})
    tests.append({"name": "isolation", "status": "pass" if report.isolation.mode == "namespaces" else "error",
                  "message": isolation_line(report), "test_code": "", "filename": "", "line_no": 0,
                  "execution_time": "0s", "score": 0, "max_score": 0})
    status = "error" if report.error else "pass" if report.score == report.max_score else "fail"
    return {"version": 3, "status": status, "max_score": report.max_score, "tests": tests}


def classroom_output(report: Grade) -> str:
    """The base64 JSON the reporter action reads from the `result` step output."""
    return base64.b64encode(json.dumps(to_classroom(report)).encode()).decode()


def to_junit(report: Grade) -> str:
    suites = ET.Element("testsuites", name="jax-katas", tests=str(sum(len(e.checks) for e in report.exercises)),
                        time=f"{report.seconds:.2f}")
    for e in report.exercises:
        failures = sum(not c.result.passed for c in e.checks)
        suite = ET.SubElement(suites, "testsuite", name=e.exercise.id, tests=str(len(e.checks)),
                              failures=str(failures), errors="0",
                              time=f"{sum(c.result.duration for c in e.checks):.3f}")
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="points", value=f"{e.score}/{e.exercise.points}")
        ET.SubElement(properties, "property", name="isolation", value=isolation_line(report))
        if not e.checks:
            case = ET.SubElement(suite, "testcase", classname=e.exercise.id, name="checks")
            ET.SubElement(case, "error", message=e.reason or "no checks ran")
        for c in e.checks:
            case = ET.SubElement(suite, "testcase", classname=e.exercise.id,
                                 name=c.name + (" (hidden)" if c.hidden else ""),
                                 time=f"{c.result.duration:.3f}")
            if c.result.outcome == "skipped":
                ET.SubElement(case, "skipped", message=c.result.reason)
            elif not c.result.passed:
                ET.SubElement(case, "failure", message=c.result.reason, type=c.result.error or "Failure")
    if report.needs_review:
        suite = ET.SubElement(suites, "testsuite", name="review", tests="1", failures="0", errors="1")
        case = ET.SubElement(suite, "testcase", classname="review", name="needs review")
        error = ET.SubElement(case, "error", message="code that reaches into the grader")
        error.text = "\n".join(report.review_notes())
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)
