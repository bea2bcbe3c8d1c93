"""Gradebooks a learning management system imports as they are: Canvas and Moodle.

`grader batch SUBMISSIONS --out GRADES --roster roster.csv` writes, next to
`gradebook.csv`, `canvas.csv` and `moodle.csv`: one row per student the roster
names and the batch graded, one grade column per assignment of the manifest
(`[[assignment]]`), worth the points of its graded exercises, and one,
`JAX Katas`, for graded exercises no assignment holds: the whole course when
there are no assignments (`columns`).

The roster is a CSV file with a header row and a row per student:

    folder,name,student_id,login,section,email
    alice-gh,"Lovelace, Ada",20230017,alovelace,Section 01,ada@uni.example

`folder` is the student's entry in SUBMISSIONS/ (`alice-gh`, `alice-gh.zip`
or `alice-gh.git`), the only column every row needs. `student_id` is the
institution's id (Canvas: SIS User ID; Moodle: ID number), `login` the login
in the LMS (Canvas: SIS Login ID; Moodle: username), `name` and `section` as
the LMS shows them, `email` for a Moodle that identifies students by email.
Each row needs `student_id`, `login` or `email`, so that the LMS can find the
student.

What each LMS reads, from its importer:

- **Canvas** (Grades, Import): a header `Student, ID, SIS User ID, SIS Login
  ID, Section`, then one column per assignment, then a `Points Possible` row;
  a student is found by Canvas ID (left empty: we do not know it), else SIS
  User ID, else SIS Login ID, else name. A column whose title is an existing
  assignment's fills it; any other becomes a new assignment worth its
  `Points Possible`.
- **Moodle** (Grades, Import, CSV file): a header row; the identifier column
  preselected is the first header that reads as one of the user fields
  (`Username`, `ID number`, `Email address`), and a column `<item> (Real)`
  is preselected for the grade item named `<item>`. So the file carries one
  identifier column, the one every student in it has, and the instructor
  creates a grade item named after each column (maximum: its points) once.

Both files start with a UTF-8 byte-order mark, which both importers accept and
which spreadsheet programs need to read names in UTF-8 right.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from grader.core.files import write_atomically
from grader.core.manifest import Assignment, Exercise

ROSTER_COLUMNS = ("folder", "name", "student_id", "login", "section", "email")
IDENTITIES = ("student_id", "login", "email")  # each row needs one: what an LMS finds a student by
COURSE_COLUMN = "JAX Katas"  # the one grade column while the course has no assignments
BOM = "\ufeff"
CANVAS_FILE, MOODLE_FILE = "canvas.csv", "moodle.csv"
# Moodle's identifier fields, in the order its import form tries them, by the header that selects each.
MOODLE_IDENTIFIERS = (("login", "Username"), ("student_id", "ID number"), ("email", "Email address"))


class RosterProblem(ValueError):
    """The roster cannot be used; the message names the line and what is wrong."""


@dataclass(frozen=True)
class Student:
    folder: str
    name: str = ""
    student_id: str = ""
    login: str = ""
    section: str = ""
    email: str = ""


@dataclass(frozen=True)
class Column:
    """One grade column: an assignment's points, the sum of its exercises' scores."""

    title: str
    exercise_ids: tuple[str, ...]
    points_possible: int


def columns(exercises: tuple[Exercise, ...], assignments: tuple[Assignment, ...] = ()) -> list[Column]:
    """The grade columns for the graded `exercises`: one per assignment of the manifest that holds
    any of them (worth the points of those), then one, `JAX Katas`, for the graded exercises no
    assignment holds (the whole course when the manifest defines no assignments)."""
    graded = {e.id for e in exercises}
    found = []
    for assignment in assignments:
        held = [e for e in assignment.exercises if e.id in graded]
        if held:
            found.append(Column(assignment.name, tuple(e.id for e in held), sum(e.points for e in held)))
    placed = {exercise_id for column in found for exercise_id in column.exercise_ids}
    rest = [e for e in exercises if e.id not in placed]
    if rest:
        found.append(Column(COURSE_COLUMN, tuple(e.id for e in rest), sum(e.points for e in rest)))
    return found


def _entry_name(folder: str) -> str:
    """A roster's folder as grader batch names the student (`alice.zip`, `alice.git` -> alice)."""
    return folder.removesuffix(".zip").removesuffix(".git")


def load_roster(path: Path) -> dict[str, Student]:
    """The roster, by student name as grader batch names submissions; RosterProblem if it is not usable."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a spreadsheet's export may start with a BOM
    except (OSError, UnicodeDecodeError) as error:
        raise RosterProblem(f"cannot read the roster {path}: {error}") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip() for name in reader.fieldnames or []]
    if "folder" not in header:
        raise RosterProblem(f"{path}: the first line must be a header naming the columns, with at least "
                            f"'folder' (known columns: {', '.join(ROSTER_COLUMNS)})")
    unknown = [name for name in header if name not in ROSTER_COLUMNS]
    if unknown:
        raise RosterProblem(f"{path}: unknown column(s) {', '.join(map(repr, unknown))}; "
                            f"known columns: {', '.join(ROSTER_COLUMNS)}")
    reader.fieldnames = header
    roster: dict[str, Student] = {}
    seen: dict[tuple[str, str], int] = {}
    for row in reader:
        line = reader.line_num
        if None in row:
            raise RosterProblem(f"{path}, line {line}: more fields than the header names")
        values = {key: (value or "").strip() for key, value in row.items()}
        if not any(values.values()):
            continue  # a blank line
        student = Student(**values)
        if not student.folder:
            raise RosterProblem(f"{path}, line {line}: no folder (the student's entry in the submissions folder)")
        if not any(getattr(student, key) for key in IDENTITIES):
            raise RosterProblem(f"{path}, line {line}: {student.folder} has no student_id, login or email: "
                                f"an LMS could not find the student")
        for key in ("folder", *IDENTITIES):
            value = _entry_name(student.folder) if key == "folder" else getattr(student, key)
            if value and (key, value) in seen:
                raise RosterProblem(f"{path}, line {line}: {key} {value!r} is on line {seen[key, value]} too")
            if value:
                seen[key, value] = line
        roster[_entry_name(student.folder)] = student
    if not roster:
        raise RosterProblem(f"{path}: no students in the roster")
    return roster


def _points(record: dict, column: Column) -> int:
    scores = {e["id"]: e["score"] for e in record.get("exercises", [])}
    return sum(scores.get(exercise_id, 0) for exercise_id in column.exercise_ids)


def _exported(records: list[dict], roster: dict[str, Student]) -> tuple[list[tuple[Student, dict]], list[str]]:
    """(student, record) for each graded student the roster names, in roster order; and the warnings."""
    graded = {r["student"]: r for r in records if not r.get("error") and r.get("score") is not None}
    rows = [(student, graded[name]) for name, student in roster.items() if name in graded]
    warnings = []
    strangers = sorted(set(graded) - set(roster))
    if strangers:
        warnings.append(f"not in the roster, so not in {CANVAS_FILE} or {MOODLE_FILE}: {', '.join(strangers)}")
    ungraded = [name for name in roster if name not in graded]
    if ungraded:
        warnings.append(f"in the roster without a graded submission, so not in {CANVAS_FILE} or {MOODLE_FILE}: "
                        f"{', '.join(ungraded)}")
    return rows, warnings


def canvas_rows(records: list[dict], roster: dict[str, Student], grade_columns: list[Column]) -> list[list]:
    """Canvas's gradebook import: student columns, one column per assignment, the Points Possible row."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(c.title for c in grade_columns)],
            ["    Points Possible", "", "", "", "", *(c.points_possible for c in grade_columns)]]
    students, _ = _exported(records, roster)
    for student, record in students:
        rows.append([student.name or student.folder, "", student.student_id, student.login, student.section,
                     *(_points(record, c) for c in grade_columns)])
    return rows


def moodle_rows(records: list[dict], roster: dict[str, Student],
                grade_columns: list[Column]) -> tuple[list[list], list[str]]:
    """Moodle's CSV grade import: one identifier column every exported student has, a name for people,
    one `<item> (Real)` column per grade item; and warnings for students left out."""
    students, _ = _exported(records, roster)
    field, header = max(MOODLE_IDENTIFIERS, key=lambda pair: sum(bool(getattr(s, pair[0])) for s, _ in students))
    warnings = []
    missing = [s.folder for s, _ in students if not getattr(s, field)]
    if missing:
        warnings.append(f"no {field} in the roster, so not in {MOODLE_FILE} (it identifies students by "
                        f"{header}): {', '.join(missing)}")
    rows = [[header, "Full name", *(f"{c.title} (Real)" for c in grade_columns)]]
    rows += [[getattr(s, field), s.name, *(_points(record, c) for c in grade_columns)]
             for s, record in students if getattr(s, field)]
    return rows, warnings


def _bom_csv(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return BOM + out.getvalue()


def write_gradebooks(out: Path, records: list[dict], exercises: tuple[Exercise, ...],
                     roster: dict[str, Student], assignments: tuple[Assignment, ...] = ()) -> list[str]:
    """Write canvas.csv and moodle.csv into `out`, a grade column per assignment; the warnings about
    students left out."""
    grade_columns = columns(exercises, assignments)
    write_atomically(out / CANVAS_FILE, _bom_csv(canvas_rows(records, roster, grade_columns)))
    moodle, warnings = moodle_rows(records, roster, grade_columns)
    write_atomically(out / MOODLE_FILE, _bom_csv(moodle))
    return _exported(records, roster)[1] + warnings
