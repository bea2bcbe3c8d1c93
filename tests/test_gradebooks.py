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
from grader.course.batch import _csv, gradebook_rows
from grader.course.gradebooks import RosterProblem, import_steps, load_roster, write_gradebooks
from grader.core.manifest import Assignment
from lms import canvas_import, moodle_import, moodle_selections
from support import ALL_EXERCISES

ROSTER = Path(__file__).parent / "fixtures" / "roster.csv"
EXERCISES = ALL_EXERCISES[:5]  # 1 + 1 + 1 + 1 + 2 points
TOTAL = 6


def _record(student: str, scores: list[int | None] | None) -> dict:
    """A result as grader batch stores it (None: a submission that could not be graded; a score None:
    an exercise whose file the submission does not hold, which grades as 0)."""
    if scores is None:
        return {"student": student, "score": None, "max_score": TOTAL, "error": "unreadable zip file", "exercises": []}
    return {"student": student, "score": sum(s or 0 for s in scores), "max_score": TOTAL, "error": "",
            "exercises": [{"id": e.id, "score": s or 0, "status": "passed" if s == e.points else "failed",
                           "handed_in": s is not None} for e, s in zip(EXERCISES, scores)]}


CLASS = [_record("ada-gh", [1, 1, 1, 1, 2]), _record("ben", [1, 0, 0, 0, 0]), _record("cy-gh", [0, 0, 0, 0, 0]),
         _record("dee-gh", [1, 1, 0, 0, 2]), _record("eve-gh", [0, 1, 1, 1, 0]), _record("stranger", [1, 1, 1, 1, 2]),
         _record("fay-gh", None)]


@pytest.fixture
def written(tmp_path) -> tuple[Path, list[str]]:
    books = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(ROSTER))
    return tmp_path, books.warnings


def _moodle_steps(books, out: Path) -> str:
    (line,) = [line for line in import_steps(books, out) if line.startswith("Moodle:")]
    return line


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


def test_moodle_imports_the_file_with_the_steps_the_batch_prints(tmp_path):
    books = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(ROSTER))
    data = (tmp_path / "moodle.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    with pytest.raises(AssertionError, match="Map to User ID"):
        moodle_import(data, {"JAX Katas": TOTAL})  # Moodle's own defaults map nothing: a person must select
    steps = _moodle_steps(books, tmp_path)
    assert "Add grade item for each column: JAX Katas (maximum grade 6)" in steps and "moodle.csv" in steps
    imported = moodle_import(data, {"JAX Katas": TOTAL}, **moodle_selections(steps))
    assert imported == {"identifier": "username", "grades": {
        "alovelace": {"JAX Katas": 6}, "boneil": {"JAX Katas": 1}, "cbronte": {"JAX Katas": 0},
        "dngo": {"JAX Katas": 4}, "emuller": {"JAX Katas": 3}}}


def test_moodle_identifies_students_by_what_every_one_of_them_has(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,name,student_id,email\nada-gh,Ada,17,ada@uni.example\nben,Ben,,ben@uni.example\n"
                      "cy-gh,Cy,19,cy@uni.example\n", encoding="utf-8")
    books = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(roster))
    imported = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"JAX Katas": TOTAL},
                             **moodle_selections(_moodle_steps(books, tmp_path)))
    assert imported["identifier"] == "useremail" and set(imported["grades"]) == {
        "ada@uni.example", "ben@uni.example", "cy@uni.example"}
    assert not any("moodle.csv (it identifies" in w for w in books.warnings)


def test_a_row_with_only_an_email_is_left_out_of_canvas_and_named(tmp_path):
    """Canvas finds students by SIS User ID or SIS Login ID, else by exact name: never by email."""
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,name,student_id,login,email\nada-gh,Ada,17,,ada@uni.example\n"
                      "ben,Ben,,,ben@uni.example\ncy-gh,Cy,,cbronte,cy@uni.example\n", encoding="utf-8")
    books = write_gradebooks(tmp_path, CLASS, EXERCISES, load_roster(roster))
    canvas = canvas_import((tmp_path / "canvas.csv").read_bytes())
    assert [(name, sis_id, login) for name, sis_id, login, _, _ in canvas["students"]] == \
        [("Ada", "17", ""), ("Cy", "", "cbronte")]
    assert "no student_id or login in the roster, so not in canvas.csv (Canvas would match them by name " \
           "alone, or not at all): ben" in books.warnings
    moodle = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"JAX Katas": TOTAL},
                           **moodle_selections(_moodle_steps(books, tmp_path)))
    assert moodle["grades"]["ben@uni.example"] == {"JAX Katas": 1}, "Moodle finds Ben by email"


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
    moodle = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"week-1": 3, "week-2": 3},
                           map_from="Username", map_to="Username",
                           items={"week-1 (Real)": "week-1", "week-2 (Real)": "week-2"})
    assert moodle["grades"]["emuller"] == {"week-1": 2, "week-2": 1}


WEEKS = (Assignment("week-1", EXERCISES[:3]), Assignment("week-2", EXERCISES[3:]))
# ada handed in week-1 only (week-2's files are not in her submission); ben both, week-2's files failing
# (a syntax error, say: handed in, so 0); cy week-1 only, all of it wrong.
PARTIAL = [_record("ada-gh", [1, 1, 1, None, None]), _record("ben", [1, 0, 1, 0, 0]),
           _record("cy-gh", [0, 0, 0, None, None])]


def test_an_assignment_not_handed_in_is_blank_never_0(tmp_path):
    books = write_gradebooks(tmp_path, PARTIAL, EXERCISES, load_roster(ROSTER), WEEKS)
    canvas = canvas_import((tmp_path / "canvas.csv").read_bytes())
    assert {login: scores for _, _, login, _, scores in canvas["students"]} == {
        "alovelace": {"week-1": 3}, "boneil": {"week-1": 2, "week-2": 0}, "cbronte": {"week-1": 0}}, \
        "a blank cell leaves Canvas's grade as it is; a file handed in and failing is 0"
    steps = _moodle_steps(books, tmp_path)
    moodle = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"week-1": 3, "week-2": 3},
                           **moodle_selections(steps))
    assert moodle["grades"] == {"boneil": {"week-1": 2, "week-2": 0}}, "a blank cell would clear a Moodle grade"
    assert any("handed in only some of week-1, week-2, so not in moodle.csv" in w and "ada-gh, cy-gh" in w
               for w in books.warnings)
    by_assignment = _csv(gradebook_rows(PARTIAL, EXERCISES, WEEKS)).splitlines()
    assert by_assignment[1:] == ["ada-gh,3,,3,6,,", "ben,2,0,2,6,,", "cy-gh,0,,0,6,,"]
    per_exercise = _csv(gradebook_rows(PARTIAL, EXERCISES)).splitlines()
    assert per_exercise[1].startswith("ada-gh,1,1,1,,,") and per_exercise[3].startswith("cy-gh,0,0,0,,,")


def test_only_the_columns_some_submission_holds_are_written_and_named(tmp_path):
    week_1_only = [r for r in PARTIAL if r["student"] != "ben"]
    books = write_gradebooks(tmp_path, week_1_only, EXERCISES, load_roster(ROSTER), WEEKS)
    assert [c.title for c in books.written] == ["week-1"] and [c.title for c in books.left_out] == ["week-2"]
    canvas = canvas_import((tmp_path / "canvas.csv").read_bytes())
    assert canvas["assignments"] == {"week-1": 3}, "no week-2 column to overwrite week-2's grades"
    steps = import_steps(books, tmp_path)
    assert steps[0] == "gradebook columns written: week-1 (3 points)"
    assert steps[1] == "  left out, no submission holds them (the LMS keeps its grades): week-2"
    moodle = moodle_import((tmp_path / "moodle.csv").read_bytes(), {"week-1": 3},
                           **moodle_selections(_moodle_steps(books, tmp_path)))
    assert moodle["grades"] == {"alovelace": {"week-1": 3}, "cbronte": {"week-1": 0}}


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
    data = _csv(gradebook_rows(CLASS, EXERCISES)).encode()
    with pytest.raises(AssertionError, match="invalid header row"):
        canvas_import(data)
    with pytest.raises(AssertionError, match="Map to User ID"):
        moodle_import(data, {"JAX Katas": TOTAL})
