"""`grader report`: failures grouped by what they reveal, on a page a browser renders offline.

The class here is written, not graded (grading is tests/test_batch.py's job): twelve
results made with the grader's own `to_json`, one from an older grader (schema v2),
one submission that could not be graded, and the tables `grader batch` writes from them.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from grader.course import classreport, reports
from grader.course.batch import _csv, gradebook_rows, summary_rows
from grader.engine.grading import Check, ExerciseGrade, Grade
from grader.core.manifest import select
from grader.engine.runner import CheckResult
from grader.engine.sandbox import Isolation
from grader.engine.scan import Flag
from support import ALL_EXERCISES

SCHEMAS = Path(__file__).parent / "schemas"
EXERCISES = select(ALL_EXERCISES, "purity-1,static-2,pmap-2,prng-3")  # teaching order: not this one
HOSTILE = "o'neil & <i>co"  # a folder name is a student name: the page must escape it

# student -> exercise -> [(check, code or "" when passed, hidden)]; exercises not named pass.
PASS = [("test_values", "", False), ("test_mechanism", "", False)]
CLASS = {
    "ada": {"static-2": [("test_values", "", False), ("test_compiles_once", "recompiles", False)]},
    "ben": {"static-2": [("test_values", "wrong-values", False), ("test_compiles_once", "recompiles", False)]},
    "cy": {"static-2": [("test_values", "", False), ("test_compiles_once", "recompiles", False)],
           "prng-3": [("test_fresh_keys", "key-reuse", False), ("test_values", "", False)]},
    "dee": {"static-2": [("test_values", "", False), ("test_compiles_once", "recompiles", False)],
            "pmap-2": [("test_values", "timeout", False), ("test_mechanism", "not-run", False)]},
    "eve": {"prng-3": [("test_fresh_keys", "key-reuse", False), ("test_values", "", False)],
            "pmap-2": [("test_values", "", False), ("test_mechanism", "not-distributed", False)]},
    "fay": {"prng-3": [("test_fresh_keys", "todo", False), ("test_values", "todo", False)]},
    "gus": {"static-2": [("test_values", "", False), ("test_hidden_inputs", "wrong-values", True)]},
    "hal": {"purity-1": "missing"},  # the file was refused before any check saw it
    "ivy": {},
    "jon": {"static-2": [("test_values", "", False), ("test_compiles_once", "recompiles", False)]},
    HOSTILE: {"pmap-2": [("test_values", "<script>alert(1)</script>", False)]},
}
PROCESS_MODE = {"ivy"}
REVIEW = {"jon"}
OLD = "kim"  # graded by an older grader: schema v2, no codes, no isolation


def _exercise(entry, spec) -> ExerciseGrade:
    if spec == "missing":
        return ExerciseGrade(entry, [], 0, f"{entry.path} is a symbolic link: not graded", [], "missing")
    checks = []
    for name, code, hidden in spec:
        message = "" if not code else f"{name} found: {code} <em>here</em>"
        if code.startswith("<"):  # a message carrying markup, as a learner's exception text might
            code, message = "error", code
        checks.append(Check(f"{entry.path}::{name}", hidden,
                            CheckResult(f"{entry.path}::{name}", "failed" if code else "passed", message, "", 0.1,
                                        code)))
    failed = [c for c in checks if not c.result.passed]
    if not failed:
        return ExerciseGrade(entry, checks, entry.points, "")
    return ExerciseGrade(entry, checks, 0, f"{failed[0].name}: {failed[0].result.reason}", [],
                         failed[0].result.code)


def _record(student: str, plan: dict) -> dict:
    grade = Grade(target=student, seconds=1.0, isolation=Isolation("process", "asked for")
                  if student in PROCESS_MODE else Isolation("namespaces", bwrap="/usr/bin/bwrap"))
    grade.exercises = [_exercise(e, plan.get(e.id, PASS)) for e in EXERCISES]
    if student in REVIEW:
        grade.exercises[0].flags.append(Flag(EXERCISES[0].path, 3, "import os; os._exit(0)", "exits the process"))
    data = reports.to_json(grade)
    jsonschema.validate(data, json.loads((SCHEMAS / "results.schema.json").read_text()))
    return {"student": student, "submission_hash": "x", **data, "graded_at": "2026-01-01T00:00:00+0000"}


def _old_record() -> dict:
    record = _record(OLD, {"static-2": [("test_values", "", False), ("test_compiles_once", "recompiles", False)]})
    record["schema_version"] = 2
    del record["isolation"]
    for exercise in record["exercises"]:
        del exercise["code"]
        for check in exercise["checks"]:
            del check["code"]
    return record


def write_class(out: Path) -> list[dict]:
    """The class's results and tables, as `grader batch` leaves them."""
    records = [_record(name, plan) for name, plan in CLASS.items()] + [_old_record()]
    records.append({"student": "zed", "submission_hash": "y", "error": "unreadable zip file: File is not a zip "
                    "file", "score": None, "max_score": sum(e.points for e in EXERCISES), "exercises": []})
    (out / "students").mkdir(parents=True)
    for record in records:
        (out / "students" / f"{record['student']}.json").write_text(json.dumps(record, indent=2))
    (out / "gradebook.csv").write_text(_csv(gradebook_rows(records, EXERCISES)))
    (out / "summary.csv").write_text(_csv(summary_rows(records, EXERCISES)))
    (out / "failures.csv").write_text(_csv(classreport.failure_rows(records)))
    return records


def _rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def groups_from_failures_csv(path: Path) -> dict[tuple[str, str], set[str]]:
    """(exercise, code) -> students, recounted from failures.csv by the documented rule."""
    codes: dict[tuple[str, str], set[str]] = {}
    for row in _rows(path):
        codes.setdefault((row["student"], row["exercise"]), set()).add(row["code"])
    groups: dict[tuple[str, str], set[str]] = {}
    for (student, exercise), found in codes.items():
        for code in (found - {"not-run"}) or found:
            groups.setdefault((exercise, code), set()).add(student)
    return groups


@pytest.fixture(scope="module")
def grades(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grades")
    write_class(out)
    return out


@pytest.fixture(scope="module")
def page(grades, tmp_path_factory) -> tuple[Path, str]:
    """`grader report --html` run as an instructor runs it."""
    html = tmp_path_factory.mktemp("page") / "class.html"
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "report", str(grades), "--html", str(html)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return html, proc.stdout


def test_failures_csv_has_a_row_per_failed_check_with_its_code(grades):
    rows = _rows(grades / "failures.csv")
    assert list(rows[0]) == classreport.FAILURE_HEADER
    by_student = Counter(row["student"] for row in rows)
    assert by_student["ada"] == 1 and by_student["ben"] == 2 and by_student["dee"] == 3
    assert "zed" not in by_student and "ivy" not in by_student  # could not be graded; passed everything
    assert {row["code"] for row in rows if row["student"] == OLD} == {classreport.UNKNOWN}
    refused = [row for row in rows if row["student"] == "hal"]
    assert refused == [{"student": "hal", "exercise": "purity-1", "check": "", "hidden": "", "code": "missing",
                        "message": "01_purity/global_config.py is a symbolic link: not graded"}]
    hidden = [row for row in rows if row["student"] == "gus"]
    assert hidden[0]["hidden"] == "yes" and hidden[0]["code"] == "wrong-values"


def test_groups_count_each_student_once_per_mistake(grades):
    data = classreport.load_class(grades)
    assert [e.id for e in data.exercises] == ["purity-1", "static-2", "pmap-2", "prng-3"]  # manifest order
    static = {g.code: [m.student for m in g.members] for g in data.exercises[1].groups}
    assert static["recompiles"] == ["ada", "ben", "cy", "dee", "jon"]  # kim is v2: unknown
    assert static["wrong-values"] == ["ben", "gus"] and static[classreport.UNKNOWN] == [OLD]
    pmap = {g.code: [m.student for m in g.members] for g in data.exercises[2].groups}
    assert pmap["timeout"] == ["dee"] and "not-run" not in pmap  # a consequence, not a mistake
    top = data.top_groups()
    assert (top[0].exercise, top[0].code, len(top[0].members)) == ("static-2", "recompiles", 5)
    assert all(g.code not in classreport.NOT_ATTEMPTED for g in top)
    assert groups_from_failures_csv(grades / "failures.csv") == {
        (g.exercise, g.code): {m.student for m in g.members} for e in data.exercises for g in e.groups}
    summary = {row["exercise"]: row for row in _rows(grades / "summary.csv")}
    assert (summary["static-2"]["top_failure"], summary["static-2"]["top_failure_students"]) == ("recompiles", "5")
    assert summary["purity-1"]["top_failure"] == "missing"


def test_the_terminal_summary_names_the_misunderstandings(page):
    _, stdout = page
    graded = len(CLASS) + 1
    assert f"recompiles when it should not: {5 / graded:.0%} of the class in static-2 (5 of {graded})" in stdout
    assert f"reuses a PRNG key: {2 / graded:.0%} of the class in prng-3" in stdout
    assert "is not attempted yet" not in stdout  # a TODO is not a misunderstanding
    assert "schema v2" in stdout and "needs review: jon" in stdout
    assert "isolation: namespaces for 10 of 12 graded students" in stdout
    assert "isolation: process for 1 of 12 graded students (ivy): NOT sandboxed" in stdout
    assert f"isolation: {classreport.UNKNOWN} for 1 of 12 graded students ({OLD})" in stdout


def test_a_schema_v2_class_reads_as_unknown_failures(tmp_path):
    record = _old_record()
    (tmp_path / "students").mkdir()
    (tmp_path / "students" / f"{OLD}.json").write_text(json.dumps(record))
    data = classreport.load_class(tmp_path)
    assert [(g.exercise, g.code) for e in data.exercises for g in e.groups] == [("static-2", "unknown")]
    text = classreport.render_html(data)
    assert "graded before failures had codes" in text and "schema v2" in text


def test_the_page_is_self_contained_and_escapes_what_students_wrote(page):
    html, _ = page
    text = html.read_text(encoding="utf-8")
    assert "default-src 'none'" in text  # the browser itself refuses any load
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!#)""", text), "only same-page links"
    assert "url(" not in text and "@import" not in text and "<script" not in text
    assert html.stat().st_mode & 0o044 == 0o044, "a page to share: readable by others like any new file"
    assert "o&#x27;neil &amp; &lt;i&gt;co" in text and "&lt;script&gt;alert(1)" in text


def test_page_renders_in_a_headless_browser_and_its_numbers_match_the_tables(page, grades, tmp_path_factory,
                                                                            capsys):
    from headless import BrowserError, find_browser, open_page

    browser = find_browser()
    if browser is None:
        pytest.skip("no headless Chromium on this machine (apt-get install chromium; .ci/run installs it): "
                    "the page was checked as text only")
    html, _ = page
    shot = tmp_path_factory.getbasetemp() / "class-report.png"
    try:
        with open_page(html, browser) as view:
            seen = view.evaluate("""(() => {
                const text = el => el.textContent.trim();
                const q = (sel, f) => Array.from(document.querySelectorAll(sel)).map(f);
                return {
                  rates: q('#pass-rate-table tr[data-exercise]', r => [r.dataset.exercise,
                         text(r.querySelector('.passed')), text(r.querySelector('.rate'))]),
                  bars: q('#pass-rates svg g[data-exercise]', g => [g.dataset.exercise, text(g.querySelector('.value'))]),
                  groups: q('#failures tr[data-group]', r => [r.dataset.exercise, r.dataset.code,
                          text(r.cells[2]), text(r.cells[3])]),
                  members: q('#groups h4', h => [h.id, document.querySelectorAll('#' + h.id + ' + ul li').length]),
                  bins: q('#scores svg g[data-bin]', g => [text(g.querySelector('.label')), text(g.querySelector('.count'))]),
                  scores: q('#students tr[data-student]', r => [r.dataset.student, text(r.querySelector('.score'))]),
                  modes: q('#students tr[data-student]', r => [r.dataset.student, text(r.querySelector('.isolation'))]),
                  review: q('#review tr[data-review]', r => r.dataset.review),
                  links: q('a[href]', a => a.getAttribute('href')),
                  ids: q('[id]', e => e.id),
                  graded: text(document.querySelector('#headline [data-graded]')),
                  width: document.documentElement.scrollWidth,
                };
            })()""")
            view.screenshot(shot)
            view.pdf(shot.with_suffix(".pdf"))
            problems = view.problems
    except BrowserError as error:
        pytest.fail(f"the browser could not show the page: {error}")
    with capsys.disabled():
        print(f"\nclass report screenshot: {shot}")
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-", "the page prints"
    assert problems == [], f"console errors or loads: {problems}"

    summary = _rows(grades / "summary.csv")
    assert seen["rates"] == [[r["exercise"], f"{r['passed']}/{r['graded']}", r["pass_rate"]] for r in summary]
    assert seen["bars"] == [[r["exercise"], f"{r['pass_rate']} ({r['passed']}/{r['graded']})"] for r in summary]
    graded = int(summary[0]["graded"])
    assert seen["graded"] == str(graded)
    recount = groups_from_failures_csv(grades / "failures.csv")
    assert {(e, c): int(n) for e, c, n, _ in seen["groups"]} == {k: len(v) for k, v in recount.items()}
    assert all(share == f"{int(n) / graded:.0%}" for _, _, n, share in seen["groups"])
    assert dict(seen["members"]) == {f"group-{e}-{c}": len(v) for (e, c), v in recount.items()}

    gradebook = _rows(grades / "gradebook.csv")
    totals = Counter(int(row["total"]) for row in gradebook if row["total"])
    maximum = int(gradebook[0]["max"])
    assert seen["bins"] == [[str(score), str(totals.get(score, 0))] for score in range(maximum + 1)]
    assert dict(seen["scores"]) == {row["student"]: f"{row['total']}/{row['max']}" if row["total"] else ""
                                    for row in gradebook}
    assert seen["review"] == [row["student"] for row in gradebook if row["needs_review"] == "yes"]
    modes = dict(seen["modes"])
    assert modes["ivy"] == "process (not sandboxed)" and modes["ada"] == "namespaces"
    assert modes[OLD] == classreport.UNKNOWN and modes["zed"] == ""
    missing = sorted({link[1:] for link in seen["links"]} - set(seen["ids"]))
    assert not missing, f"links to nowhere on the page: {missing}"
    assert seen["width"] <= 1100, "the page fits a screen's width"


def test_report_refuses_a_folder_without_results(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "report", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no results" in proc.stderr
