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
student; Canvas finds no one by email, so a row with only an email is left
out of canvas.csv, and named.

A grade column is written only when some submission holds its exercises'
files, and a student's cell is blank when theirs holds none of them (they
handed in another assignment): not 0, which would overwrite the grade the LMS
has. A file handed in scores what it earns, 0 for a syntax error or a stub.

What each LMS reads, from its importer:

- **Canvas** (Grades, Import): a header `Student, ID, SIS User ID, SIS Login
  ID, Section`, then one column per assignment, then a `Points Possible` row;
  a student is found by Canvas ID (left empty: we do not know it), else SIS
  User ID, else SIS Login ID, else name. A column whose title is an existing
  assignment's fills it; any other becomes a new assignment worth its
  `Points Possible`. A blank cell is no grade: Canvas keeps the one it has.
- **Moodle** (Grades, Import, CSV file): a header row, then a form a person
  fills in: "Map from" starts at the first column, "Map to" at User ID, each
  grade column at Ignore (a recent Moodle may preselect a column named like a
  user field, and `<item> (Real)` for the grade item `<item>`). So the file
  starts with one identifier column, the one every student in it has, named
  like the Moodle field it matches (`Username`, `ID number`, `Email
  address`), and `import_steps` says what to select. A blank cell clears a
  Moodle grade, so a student who handed in only some of the columns is left
  out of moodle.csv, and named.

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
# Moodle's user fields a file may identify students by, most preferred first, by their label in its import form.
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


def handed_in_points(record: dict, exercise_ids) -> int | None:
    """The points a result holds for some exercises (a grade column's); None when the submission holds
    none of their files (it is another assignment's): no grade, which an LMS must not be sent as 0."""
    scores = {e["id"]: e["score"] for e in record.get("exercises", []) if e.get("handed_in", True)}
    found = [scores[exercise_id] for exercise_id in exercise_ids if exercise_id in scores]
    return sum(found) if found else None


def _cell(points: int | None):
    return "" if points is None else points


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


def canvas_rows(students: list[tuple[Student, dict]], written: list[Column]) -> tuple[list[list], list[str]]:
    """Canvas's gradebook import: student columns, one column per assignment (blank where the student
    handed none of it in: Canvas then keeps the grade it has), the Points Possible row; and a warning
    for the students Canvas could match by name alone, left out."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(c.title for c in written)],
            ["    Points Possible", "", "", "", "", *(c.points_possible for c in written)]]
    rows += [[s.name or s.folder, "", s.student_id, s.login, s.section,
              *(_cell(handed_in_points(record, c.exercise_ids)) for c in written)]
             for s, record in students if s.student_id or s.login]
    by_name = [s.folder for s, _ in students if not (s.student_id or s.login)]
    return rows, [f"no student_id or login in the roster, so not in {CANVAS_FILE} (Canvas would match them by "
                  f"name alone, or not at all): {', '.join(by_name)}"] if by_name else []


def moodle_rows(students: list[tuple[Student, dict]], written: list[Column]) -> tuple[list[list], str, list[str]]:
    """Moodle's CSV grade import: one identifier column every exported student has, a name for people,
    one `<item> (Real)` column per grade item; the identifier's header; warnings for students left out.
    A blank cell clears a grade in Moodle, so a student who handed in only some of the columns is left out."""
    field, header = max(MOODLE_IDENTIFIERS, key=lambda pair: sum(bool(getattr(s, pair[0])) for s, _ in students))
    warnings = []
    missing = [s.folder for s, _ in students if not getattr(s, field)]
    if missing:
        warnings.append(f"no {field} in the roster, so not in {MOODLE_FILE} (it identifies students by "
                        f"{header}): {', '.join(missing)}")
    rows = [[header, "Full name", *(f"{c.title} (Real)" for c in written)]]
    partial = []
    for s, record in students:
        points = [handed_in_points(record, c.exercise_ids) for c in written]
        if not getattr(s, field):
            continue
        if None in points:
            partial.append(s.folder)
        else:
            rows.append([getattr(s, field), s.name, *points])
    if partial:
        warnings.append(f"handed in only some of {', '.join(c.title for c in written)}, so not in {MOODLE_FILE} "
                        f"(a blank cell would clear their grade; grader batch --assignment NAME writes one "
                        f"assignment's file): {', '.join(partial)}")
    return rows, header, warnings


def _bom_csv(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return BOM + out.getvalue()


@dataclass
class Gradebooks:
    """What write_gradebooks wrote."""

    written: list[Column]  # the grade columns some exported student handed in
    left_out: list[Column]  # those no exported submission holds: the LMS keeps its grades
    moodle_identifier: str  # the header of moodle.csv's identifier column, which Moodle's field of that name matches
    warnings: list[str]  # students left out of a file, and why


def write_gradebooks(out: Path, records: list[dict], exercises: tuple[Exercise, ...],
                     roster: dict[str, Student], assignments: tuple[Assignment, ...] = ()) -> Gradebooks:
    """Write canvas.csv and moodle.csv into `out`: a grade column per assignment that some submission
    holds (a column no submission holds would only overwrite grades with 0 or blank)."""
    students, warnings = _exported(records, roster)
    grade_columns = columns(exercises, assignments)
    written = [c for c in grade_columns
               if any(handed_in_points(record, c.exercise_ids) is not None for _, record in students)]
    left_out = [c for c in grade_columns if c not in written]
    if not written:
        return Gradebooks([], left_out, "", [*warnings, f"no graded student to write: no {CANVAS_FILE} or "
                                                       f"{MOODLE_FILE}"])
    canvas, canvas_warnings = canvas_rows(students, written)
    write_atomically(out / CANVAS_FILE, _bom_csv(canvas))
    moodle, identifier, moodle_warnings = moodle_rows(students, written)
    write_atomically(out / MOODLE_FILE, _bom_csv(moodle))
    return Gradebooks(written, left_out, identifier, warnings + canvas_warnings + moodle_warnings)


def import_steps(books: Gradebooks, out: Path) -> list[str]:
    """What the instructor does with each file, naming its columns: printed by the batch."""
    if not books.written:
        return []
    titles = ", ".join(f"{c.title} ({c.points_possible} points)" for c in books.written)
    lines = [f"gradebook columns written: {titles}"]
    if books.left_out:
        lines.append(f"  left out, no submission holds them (the LMS keeps its grades): "
                     f"{', '.join(c.title for c in books.left_out)}")
    lines.append(f"Canvas: Grades > Import, {out / CANVAS_FILE}: a column named like an assignment fills it, "
                 f"any other becomes a new assignment worth its points; a blank cell leaves the grade as it is.")
    items = "; ".join(f"'{c.title} (Real)' to the grade item {c.title}" for c in books.written)
    makes = ", ".join(f"{c.title} (maximum grade {c.points_possible})" for c in books.written)
    lines.append(f"Moodle: once, in Gradebook setup, Add grade item for each column: {makes}. Then Grades > "
                 f"Import > CSV file, {out / MOODLE_FILE}, Upload grades; in the form that follows, under "
                 f"Identify user set Map from '{books.moodle_identifier}' and Map to '{books.moodle_identifier}'; "
                 f"under Grade item mappings set {items}; then Upload grades. (Moodle starts Map to at User ID "
                 f"and every column at Ignore; a recent Moodle may preselect these: check each.)")
    return lines
