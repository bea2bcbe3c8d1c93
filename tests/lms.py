"""How Canvas and Moodle read a gradebook CSV, written out from their importers, for the tests.

Canvas: instructure/canvas-lms, app/models/gradebook_importer.rb (GradebookImporter: `header?`,
`update_column_count`, `strip_non_assignment_columns`, `check_for_non_student_row`,
`process_pp`, `process_student`). Moodle: grade/import/csv (csvlib's `load_csv_content`
strips a UTF-8 byte-order mark), the mapping form (grade_import_mapping_form: "Map from" a
column, "Map to" a user field, each column to a grade item or Ignore; its defaults are the first
column, User ID and Ignore) and load_data.php (`update_grade_item`: a blank or "-" cell is no
grade, which the import then writes over the grade there). Each function returns what the LMS
would import, or fails an assertion where the LMS would refuse the file or import the wrong thing.
"""

from __future__ import annotations

import csv
import io
import re

CANVAS_READ_ONLY = ("Current Score", "Current Points", "Current Grade", "Final Score", "Final Points",
                    "Final Grade", "Override Score", "Override Grade", "Override Status")
MOODLE_USER_FIELDS = (("userid", "User ID"), ("username", "Username"), ("useridnumber", "ID number"),
                      ("useremail", "Email address"))


def _rows(data: bytes, strip_bom: bool) -> list[list[str]]:
    text = data.decode("utf-8")
    if strip_bom:
        text = text.removeprefix("\ufeff")
    return [row for row in csv.reader(io.StringIO(text)) if row and not re.fullmatch(r"[;, ]*", ",".join(row))]


def canvas_import(data: bytes) -> dict:
    """What Canvas's gradebook import reads: {"assignments": {title: points possible},
    "students": [(name, sis_user_id, sis_login_id, section, {title: score})]}."""
    rows = _rows(data, strip_bom=False)  # Ruby's CSV keeps a BOM in the first cell; the checks use `include?`
    header = rows[0]
    assert len(header) > 3 and "Student" in header[0] and "ID" in header[1], f"invalid header row: {header}"
    assert re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID", header[3]), \
        "SIS User ID and SIS Login ID must follow Student and ID"
    student_columns = 5
    assert "Section" in header[student_columns - 1], "the last student column must be Section"
    titles = header[student_columns:]
    assert not [t for t in titles if re.search("|".join(CANVAS_READ_ONLY), t)], "a grade column would be read-only"
    assert titles, "no assignment column"
    points, students = {}, []
    for row in rows[1:]:
        assert len(row) == len(header), f"a row of {len(row)} fields under a header of {len(header)}: {row}"
        if "Points Possible" in row[0]:
            points = {title: float(value) for title, value in zip(titles, row[student_columns:]) if value}
            continue
        assert row[1] or row[2] or row[3] or row[0], f"a row Canvas cannot match to a student: {row}"
        scores = {title: float(value) for title, value in zip(titles, row[student_columns:]) if value.strip()}
        students.append((row[0], row[2], row[3], row[4], scores))
    assert set(points) == set(titles), "a new assignment needs its Points Possible"
    return {"assignments": points, "students": students}


def moodle_selections(steps: str) -> dict:
    """The selections printed instructions tell a person to make in Moodle's mapping form."""
    return {"map_from": re.search(r"Map from '([^']+)'", steps).group(1),
            "map_to": re.search(r"Map to '([^']+)'", steps).group(1),
            "items": dict(re.findall(r"'([^']+)' to the grade item ([^;,]+?)(?=[;,]|$)", steps))}


def moodle_import(data: bytes, grade_items: dict[str, float], map_from: str | None = None,
                  map_to: str = "User ID", items: dict[str, str] | None = None) -> dict:
    """What Moodle's CSV grade import reads with the selections made in its form (by default, Moodle's
    own: Map from the first column, Map to User ID, every column Ignore), given the course's grade
    items (name -> maximum): {"identifier": user field, "grades": {identifier: {item: grade, or None
    where a blank cell clears it}}}."""
    rows = _rows(data, strip_bom=True)
    header = [h.strip() for h in rows[0]]
    column = header.index(map_from) if map_from is not None else 0
    field = dict((label, field) for field, label in MOODLE_USER_FIELDS)[map_to]
    assert field != "userid", "Map to User ID: Moodle would look each student up by its internal user id"
    mapped = {header.index(name): item for name, item in (items or {}).items()}
    assert mapped, "no grade column mapped: every column stays at Ignore and Moodle imports nothing"
    for item in mapped.values():
        assert item in grade_items, f"no grade item {item!r} in the course"
    grades = {}
    for row in rows[1:]:
        assert len(row) == len(header), f"a row of {len(row)} fields under a header of {len(header)}: {row}"
        who = row[column].strip()
        assert who, f"a row without its {field}: Moodle stops the import there"
        assert who not in grades, f"{who} twice"
        grades[who] = {}
        for i, item in mapped.items():
            value = row[i].strip()
            grade = None if value in ("", "-") else float(value)  # a non-numeric grade stops Moodle's import
            assert grade is None or 0 <= grade <= grade_items[item], \
                f"{who}: {grade} is outside 0..{grade_items[item]} for {item}"
            grades[who][item] = grade
    return {"identifier": field, "grades": grades}
