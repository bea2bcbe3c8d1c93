"""How Canvas and Moodle read a gradebook CSV, written out from their importers, for the tests.

Canvas: instructure/canvas-lms, app/models/gradebook_importer.rb (GradebookImporter: `header?`,
`update_column_count`, `strip_non_assignment_columns`, `check_for_non_student_row`,
`process_pp`, `process_student`). Moodle: grade/import/csv (csvlib's `load_csv_content`
strips a UTF-8 byte-order mark) and the import mapping form (the identifier preselected is the
first of the user fields, in the order User ID, Username, ID number, Email address, whose label
is a header; a column `<item> (Real)` is preselected for the grade item named `<item>`; any
other column is ignored). Each function returns what the LMS would import, or fails an
assertion where the LMS would refuse the file or need a person to map it.
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


def moodle_import(data: bytes, grade_items: dict[str, float]) -> dict:
    """What Moodle's CSV grade import reads with the mapping it preselects, given the course's
    grade items (name -> maximum): {"identifier": user field, "grades": {identifier: {item: grade}}}."""
    rows = _rows(data, strip_bom=True)
    header = [h.strip() for h in rows[0]]
    field, column = next(((field, header.index(label)) for field, label in MOODLE_USER_FIELDS if label in header),
                         (None, None))
    assert field is not None, f"no identifier column Moodle would preselect in {header}"
    mapped = {}
    for i, name in enumerate(header):
        if "(Real)" in name:
            item = name.split("(Real)")[0].strip()
            assert item in grade_items, f"column {name!r} matches no grade item: Moodle would ignore it"
            mapped[i] = item
    assert mapped, "no grade column Moodle would map"
    grades = {}
    for row in rows[1:]:
        assert len(row) == len(header), f"a row of {len(row)} fields under a header of {len(header)}: {row}"
        who = row[column].strip()
        assert who, f"a row without its {field}: Moodle stops the import there"
        assert who not in grades, f"{who} twice"
        grades[who] = {}
        for i, item in mapped.items():
            value = row[i].strip()
            if value in ("", "-"):
                continue
            grade = float(value)  # a non-numeric grade stops Moodle's import
            assert 0 <= grade <= grade_items[item], f"{who}: {grade} is outside 0..{grade_items[item]} for {item}"
            grades[who][item] = grade
    return {"identifier": field, "grades": grades}
