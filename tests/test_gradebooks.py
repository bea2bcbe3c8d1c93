"""Canvas and Moodle gradebooks from a roster: `grader batch --roster`, and the files each LMS imports.

The files are read back the way each LMS's importer reads them (tests/lms.py): the columns it
needs in the order it needs them, the student it finds for each row, the grade column it maps.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.course import gradebooks
from grader.course.gradebooks import RosterProblem, load_roster, write_gradebooks
from grader.core.manifest import Assignment
from lms import canvas_import, moodle_import
from support import ALL_EXERCISES

ROSTER = Path(__file__).parent / "fixtures" / "roster.csv"
EXERCISES = ALL_EXERCISES[:5]  # 1 + 1 + 1 + 1 + 2 points
TOTAL = 6


def _record(student: str, scores: list[int] | None) -> dict:
    """A result as grader batch stores it (None: a submission that could not be graded)."""
    if scores is None:
        return {"student": student, "score": None, "max_score": TOTAL, "error": "unreadable zip file", "exercises": []}
    return {"student": student, "score": sum(scores), "max_score": TOTAL, "error": "",
            "exercises": [{"id": e.id, "score": s, "status": "passed" if s == e.points else "failed"}
                          for e, s in zip(EXERCISES, scores)]}


CLASS = [_record("ada-gh", [1, 1, 1, 1, 2]), _record("ben", [1, 0, 0, 0, 0]), _record("cy-gh", [0, 0, 0, 0, 0]),
         _record("dee-gh", [1, 1, 0, 0, 2]), _record("eve-gh", [0, 1, 1, 1, 0]), _record("stranger", [1, 1, 1, 1, 2]),
         _record("fay-gh", None)]


@pytest.fixture
def written(tmp_path) -> tuple[Path, list[str]]:
    warnings = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(ROSTER))
    return tmp_path, warnings


def test_the_roster_maps_each_submission_to_a_student():
    roster = load_roster(ROSTER)
    assert list(roster) == ["ada-gh", "ben", "cy-gh", "dee-gh", "eve-gh", "fay-gh"], "ben.zip is graded as ben"
    assert roster["ada-gh"].name == "Lovelace, Ada" and roster["cy-gh"].name == 'Chloë "Cy" Brontë'
    assert (roster["dee-gh"].student_id, roster["dee-gh"].login, roster["eve-gh"].email) == ("", "dngo", "")


def test_canvas_imports_the_file_as_it_is(written):
    out, _ = written
    data = (out / "canvas.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf"), "spreadsheet programs read UTF-8 names right only after a BOM"
    assert data.count(b"\r\n") == data.count(b"\n"), "CSV lines end in CRLF"
    imported = canvas_import(data)
    assert imported["assignments"] == {"JAX Katas": TOTAL}, "one column for the course, with its points"
    assert imported["students"] == [
        ("Lovelace, Ada", "20230017", "alovelace", "Section 01", {"JAX Katas": 6}),
        ("Ben O'Neil", "20230018", "boneil", "Section 01", {"JAX Katas": 1}),
        ('Chloë "Cy" Brontë', "20230019", "cbronte", "Section 02", {"JAX Katas": 0}),
        ("Dee Ngô", "", "dngo", "Section 02", {"JAX Katas": 4}),
        ("Eve Müller", "20230021", "emuller", "Section 02", {"JAX Katas": 3}),
    ]


def test_moodle_imports_the_file_as_it_is(written):
    out, _ = written
    data = (out / "moodle.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    imported = moodle_import(data, {"JAX Katas": TOTAL})
    assert imported == {"identifier": "username", "grades": {
        "alovelace": {"JAX Katas": 6}, "boneil": {"JAX Katas": 1}, "cbronte": {"JAX Katas": 0},
        "dngo": {"JAX Katas": 4}, "emuller": {"JAX Katas": 3}}}


def test_moodle_identifies_students_by_what_every_one_of_them_has(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,name,student_id,email\nada-gh,Ada,17,ada@uni.example\nben,Ben,,ben@uni.example\n"
                      "cy-gh,Cy,19,cy@uni.example\n", encoding="utf-8")
    warnings = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(roster))
    imported = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"JAX Katas": TOTAL})
    assert imported["identifier"] == "useremail" and set(imported["grades"]) == {
        "ada@uni.example", "ben@uni.example", "cy@uni.example"}
    assert not any("moodle.csv (it identifies" in w for w in warnings)


def test_students_the_lms_cannot_take_are_named(written):
    _, warnings = written
    assert any("not in the roster" in w and "stranger" in w for w in warnings)
    assert any("without a graded submission" in w and "fay-gh" in w for w in warnings)


def test_one_grade_column_per_assignment():
    (course,) = gradebooks.columns(EXERCISES)  # a manifest without assignments: the course in one column
    assert (course.title, course.exercise_ids, course.points_possible) == \
        ("JAX Katas", tuple(e.id for e in EXERCISES), TOTAL)
    first, second = ALL_EXERCISES[0], ALL_EXERCISES[-1]
    week_1 = Assignment("week-1", (first, ALL_EXERCISES[1]))
    week_9 = Assignment("week-9", (second,))
    graded = (first, ALL_EXERCISES[2], second)  # one of week-1's, one in no assignment, week-9's
    assert [(c.title, c.exercise_ids, c.points_possible) for c in gradebooks.columns(graded, (week_1, week_9))] == [
        ("week-1", (first.id,), first.points), ("week-9", (second.id,), second.points),
        ("JAX Katas", (ALL_EXERCISES[2].id,), ALL_EXERCISES[2].points)]


def test_each_assignment_is_a_column_canvas_and_moodle_fill(tmp_path):
    week_1 = Assignment("week-1", EXERCISES[:3])
    week_2 = Assignment("week-2", EXERCISES[3:])
    write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(ROSTER), (week_1, week_2))
    canvas = canvas_import((tmp_path / "canvas.csv").read_bytes())
    assert canvas["assignments"] == {"week-1": 3, "week-2": 3}
    assert canvas["students"][0][-1] == {"week-1": 3, "week-2": 3} and canvas["students"][1][-1] == \
        {"week-1": 1, "week-2": 0}
    moodle = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"week-1": 3, "week-2": 3})
    assert moodle["grades"]["emuller"] == {"week-1": 2, "week-2": 1}


@pytest.mark.parametrize("text, problem", [
    ("name,login\nAda,ada\n", "at least 'folder'"),
    ("folder,login,grade\nada,ada,3\n", "unknown column(s) 'grade'"),
    ("folder,login\nada,ada\nada.zip,ada2\n", "line 3: folder 'ada' is on line 2 too"),
    ("folder,student_id\nada,17\nben,17\n", "line 3: student_id '17' is on line 2 too"),
    ("folder,name,login\nada,Ada,\n", "line 2: ada has no student_id, login or email"),
    ("folder,login\n,ada\n", "line 2: no folder"),
    ("folder,login\nada,ada,extra\n", "line 2: more fields than the header names"),
    ("folder,login\n", "no students"),
])
def test_a_roster_that_cannot_be_used_is_refused_with_the_line(tmp_path, text, problem):
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RosterProblem, match=None) as caught:
        load_roster(path)
    assert problem in str(caught.value)


def test_batch_refuses_a_bad_roster_before_grading(tmp_path):
    (tmp_path / "subs").mkdir()
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,grade\nada,3\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "batch", str(tmp_path / "subs"), "--out",
                           str(tmp_path / "out"), "--roster", str(roster), "--no-warm"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "unknown column(s) 'grade'" in proc.stderr
    assert not (tmp_path / "out").exists(), "nothing was graded or written"


def test_todays_gradebook_csv_is_no_lms_import():
    """What these checks catch: the per-exercise gradebook.csv (kept as it is) would need a person
    to map it in Moodle and is refused by Canvas."""
    from grader.course.batch import _csv, gradebook_rows

    data = _csv(gradebook_rows(CLASS, EXERCISES)).encode()
    with pytest.raises(AssertionError, match="invalid header row"):
        canvas_import(data)
    with pytest.raises(AssertionError, match="no identifier column"):
        moodle_import(data, {"JAX Katas": TOTAL})
