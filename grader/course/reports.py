"""A `Grade` written out for people and for the platforms classes use.

- `table`: the terminal table (exercise, points, status, reason) and total;
- `to_json`: the project's own versioned schema;
- `to_gradescope`: Gradescope's `results.json`;
- `to_classroom`: GitHub Classroom autograding runner results, one runner per
  exercise (and their base64 forms for the step outputs the reporter reads);
- `to_junit`: JUnit XML for any CI.

Every format carries the **needs review** notes, and marks hidden checks.
Every message passes through `grader.course.messages.shown`: no grader scratch
paths, and at most `MESSAGE_LIMIT` characters, whatever a submission raised.
"""

from __future__ import annotations

import base64
import json
import re
import xml.etree.ElementTree as ET

from grader.engine.grading import ExerciseGrade, Grade
from grader.core.manifest import Exercise
from grader.course.messages import shown

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
        "error": shown(report.error),
        "needs_review": report.needs_review,
        "review": [shown(note) for note in report.review_notes()],
        "isolation": {"mode": report.isolation.mode, "guarantee": report.isolation.guarantee,
                      "note": report.isolation.why, "round_trips": report.round_trips},
        "exercises": [
            {
                "id": e.exercise.id,
                "path": e.exercise.path,
                "score": e.score,
                "max_score": e.exercise.points,
                "status": e.status,
                "reason": shown(e.reason),
                "code": e.code,
                "flags": [{"line": f.line, "code": f.code, "reason": f.reason} for f in e.flags],
                "checks": [
                    {"name": c.nodeid, "status": c.result.outcome, "message": shown(c.result.reason),
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
    return HIDDEN_FAILED if first is not None and first.hidden else shown(e.reason)


def table(report: Grade, width: int = 100) -> str:
    rows = [("exercise", "points", "status", "reason")]
    for e in report.exercises:
        rows.append((e.exercise.id, f"{e.score}/{e.exercise.points}",
                     "ok" if e.status == "passed" else "FAIL", shown(e.reason)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    room = max(20, width - sum(widths) - 6)
    lines = []
    for row in rows:
        reason = row[3] if len(row[3]) <= room else row[3][: room - 3] + "..."
        lines.append(("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + reason).rstrip())
    lines.insert(1, "-" * min(width, max(len(line) for line in lines)))
    lines.append("")
    if report.error:
        lines.append(f"could not grade: {shown(report.error)}")
    passed = sum(e.status == "passed" for e in report.exercises)
    lines.append(f"total: {report.score} / {report.max_score} points ({passed} of "
                 f"{len(report.exercises)} exercises) in {report.seconds:.1f} s")
    lines.append(f"isolation: {report.isolation.mode}: {report.isolation.describe()}")
    if report.needs_review:
        lines.append("NEEDS REVIEW: this submission contains code that reaches into the grader:")
        lines += [f"  {shown(note)}" for note in report.review_notes()]
    return "\n".join(lines)


def to_gradescope(report: Grade) -> dict:
    """Gradescope's results.json: one scored test per exercise, hidden checks hidden."""
    tests = []
    for e in report.exercises:
        visible = [c for c in e.checks if not c.hidden]
        lines = [f"{e.exercise.concept}"]
        lines += [f"{'PASS' if c.result.passed else 'FAIL'} {c.name}"
                  + ("" if c.result.passed else f": {shown(c.result.reason)}") for c in visible]
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
                              "output": shown(c.result.reason), "visibility": "hidden"})
    if report.needs_review:
        tests.append({"name": "NEEDS REVIEW", "score": 0, "max_score": 0, "status": "failed",
                      "output": "\n".join(shown(note) for note in report.review_notes()), "visibility": "hidden"})
    output = f"{report.score} / {report.max_score} points\nGraded with {isolation_line(report)}"
    if report.error:
        output += f"\nThe submission could not be graded: {shown(report.error)}"
    return {"score": report.score, "execution_time": round(report.seconds, 1), "output": output,
            "stdout_visibility": "hidden", "tests": tests}


def isolation_line(report: Grade) -> str:
    """How the submission was walled in, for every human-readable output."""
    return f"isolation {report.isolation.mode}: {report.isolation.describe()}"


# --- GitHub Classroom -----------------------------------------------------------------------
#
# GitHub's autograding-grading-reporter (classroom-resources/autograding-grading-reporter, v1:
# src/helpers/test-helpers.js and src/console-results.js) reads one result per *runner* and shows
# each runner's points as (tests with status "pass" / all its tests) x the runner's max_score; only
# Classroom's own total adds up the tests' `score` fields. So each exercise is a runner of its own
# holding one test: its table row is its points or 0, and the table's total is the true score.
# The reporter prints a failed test's name and not its message, so the reason rides in the name.
# Runners without points (the needs-review notes) would change nothing in the table but a row
# of zeros, and the isolation note is for instructors: it is no runner at all.

REVIEW_RUNNER = "review"
CLASSROOM_NAME_LIMIT = 300  # a failed exercise's name carries its reason, on one line


def classroom_runner(exercise: Exercise) -> str:
    """The runner name of an exercise: its id in letters and digits (`static-2` -> `static2`).

    The reporter reads a runner's result from the environment variable `<NAME>_RESULTS`, and
    accepts runner names made of letters and digits only.
    """
    return re.sub(r"[^a-z0-9]", "", exercise.id.lower())


def classroom_runners(exercises: tuple[Exercise, ...] | list[Exercise]) -> list[str]:
    """The runner names of `exercises`, in order; a ValueError if two would be the same."""
    names = [classroom_runner(e) for e in exercises]
    taken = [*names, REVIEW_RUNNER]
    clashes = sorted({name for name in names if taken.count(name) > 1})
    if clashes:
        raise ValueError(f"exercise ids that read the same as GitHub Classroom runner names: {', '.join(clashes)} "
                         f"(runner names keep only letters and digits; '{REVIEW_RUNNER}' is taken)")
    return names


def _defused(text: str) -> str:
    """No `::` that the Actions runner would read as a workflow command: the reporter prints with
    commands enabled."""
    return text.replace("::", ": :")


def _runner_result(e: ExerciseGrade, error: bool) -> dict:
    passed = e.status == "passed"
    reason = "" if passed else _student_reason(e)
    name = e.exercise.id if passed else shown(" ".join(f"{e.exercise.id}: {reason}".split()), CLASSROOM_NAME_LIMIT)
    test = {"name": _defused(name), "status": "pass" if passed else "fail", "message": _defused(reason),
            "test_code": "" if passed else f"pytest exercises/{e.exercise.check_path}",
            "filename": f"exercises/{e.exercise.path}", "line_no": 0,
            "execution_time": f"{sum(c.result.duration for c in e.checks):.2f}s",
            "score": e.score, "max_score": e.exercise.points}
    return {"version": 3, "status": "error" if error else "pass" if passed else "fail",
            "max_score": e.exercise.points, "tests": [test]}


def _review_result(report: Grade) -> dict:
    """The needs-review notes as a runner worth no points. It never fails the run by itself: a
    person, not the flag, decides what the flagged code is worth."""
    tests = [{"name": _defused(shown(" ".join(f"needs review: {note}".split()), CLASSROOM_NAME_LIMIT)),
              "status": "fail", "message": _defused(shown(note)), "test_code": "", "filename": "", "line_no": 0,
              "execution_time": "0s", "score": 0, "max_score": 0} for note in report.review_notes()]
    return {"version": 3, "status": "pass", "max_score": 0, "tests": tests}


def to_classroom(report: Grade) -> dict:
    """The runner results the reporter reads, by runner name, with the total and, for instructors,
    how the submission was walled in."""
    names = classroom_runners([e.exercise for e in report.exercises])
    runners = {name: _runner_result(e, bool(report.error)) for name, e in zip(names, report.exercises)}
    if report.needs_review:
        runners[REVIEW_RUNNER] = _review_result(report)
    return {"score": report.score, "max_score": report.max_score, "isolation": isolation_line(report),
            "error": shown(report.error), "runners": runners}


def classroom_outputs(result: dict) -> dict[str, str]:
    """The step outputs the reporter step reads: `runners` (its input) and each runner's result,
    base64-encoded JSON, under the runner's name."""
    encoded = {name: base64.b64encode(json.dumps(runner).encode()).decode()
               for name, runner in result["runners"].items()}
    return {"runners": ",".join(result["runners"]), **encoded}


# --- JUnit -------------------------------------------------------------------------------------


def _counted(suite: ET.Element) -> dict[str, int]:
    """A suite's counts, from the test cases it holds."""
    cases = suite.findall("testcase")
    return {"tests": len(cases), "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases),
            "skipped": sum(c.find("skipped") is not None for c in cases)}


def to_junit(report: Grade) -> str:
    suites = ET.Element("testsuites", name="jax-katas")
    for e in report.exercises:
        suite = ET.SubElement(suites, "testsuite", name=e.exercise.id,
                              time=f"{sum(c.result.duration for c in e.checks):.3f}")
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="points", value=f"{e.score}/{e.exercise.points}")
        ET.SubElement(properties, "property", name="isolation", value=isolation_line(report))
        if not e.checks:
            case = ET.SubElement(suite, "testcase", classname=e.exercise.id, name="checks", time="0.000")
            ET.SubElement(case, "error", message=shown(e.reason) or "no checks ran")
        for c in e.checks:
            case = ET.SubElement(suite, "testcase", classname=e.exercise.id,
                                 name=c.name + (" (hidden)" if c.hidden else ""),
                                 time=f"{c.result.duration:.3f}")
            if c.result.outcome == "skipped":
                ET.SubElement(case, "skipped", message=shown(c.result.reason))
            elif not c.result.passed:
                ET.SubElement(case, "failure", message=shown(c.result.reason), type=c.result.error or "Failure")
    if report.needs_review:
        suite = ET.SubElement(suites, "testsuite", name="review", time="0.000")
        case = ET.SubElement(suite, "testcase", classname="review", name="needs review", time="0.000")
        error = ET.SubElement(case, "error", message="code that reaches into the grader")
        error.text = "\n".join(shown(note) for note in report.review_notes())
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for suite in suites.findall("testsuite"):
        counts = _counted(suite)
        suite.attrib.update({key: str(value) for key, value in counts.items()})
        totals = {key: totals[key] + counts[key] for key in totals}
    suites.attrib.update({key: str(value) for key, value in totals.items()}, time=f"{report.seconds:.2f}")
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)
