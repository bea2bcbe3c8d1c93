"""Assignments: `[[assignment]]` tables of the manifest, and `--assignment NAME` wherever a course
hands out or grades a part of the exercises."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from grader import REPO_ROOT
from grader.core.manifest import ManifestError, load_course, parse_course, select
from grader.core.solutions import PACK_NAME
from grader.course.classroom import release_files
from support import ALL_EXERCISES

COURSE = load_course(REPO_ROOT / "exercises")
WEEK = {a.name: a for a in COURSE.assignments}
# The tests follow the manifest's assignments, however a course renames or regroups them: the first
# one, the one holding purity-1 (the topic the grading tests grade) and another one.
FIRST = COURSE.assignments[0]
PURITY_WEEK = next(a for a in COURSE.assignments if "purity-1" in [e.id for e in a.exercises])
OTHER = next(a for a in reversed(COURSE.assignments) if a != PURITY_WEEK)


def _grader(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_the_course_is_split_into_assignments_each_exercise_once():
    assert len(COURSE.assignments) >= 2, "the course hands its exercises out in [[assignment]] tables"
    held = [e.id for a in COURSE.assignments for e in a.exercises]
    assert len(held) == len(set(held))
    left_out = [e.id for e in ALL_EXERCISES if e.id not in held]
    assert not left_out, f"{', '.join(left_out)}: in no assignment, so no assignment's release hands it out; add " \
                         f"it to one in exercises/manifest.toml"
    assert sum(a.points for a in COURSE.assignments) == sum(e.points for e in ALL_EXERCISES)


def test_id_prefixes_select_like_topics():
    assert [e.id for e in select(ALL_EXERCISES, "at")] == [f"at-{n}" for n in range(1, 6)]
    assert select(ALL_EXERCISES, "at") == select(ALL_EXERCISES, "at_updates")


@pytest.mark.parametrize("tables, says", [
    ('[[assignment]]\nname = "a"\nexercises = ["purity-1"]\n\n[[assignment]]\nname = "b"\nexercises = ["purity"]\n',
     "purity-1 is in assignment 'a'"),
    ('[[assignment]]\nname = "a"\nexercises = ["purty-1"]\n', "no exercise 'purty-1'; did you mean 'purity-1'?"),
    ('[[assignment]]\nname = "A b"\nexercises = ["purity"]\n', "a name reads like 'week-1'"),
    ('[[assignment]]\nname = "a"\nexercises = ["purity"]\npoints = 3\n', "should hold exactly `name` and `exercises`"),
    ('[[assignment]]\nname = "a"\nexercises = ["purity"]\n\n[[assignment]]\nname = "a"\nexercises = ["at"]\n',
     "two assignments are named 'a'"),
    ('[[assigment]]\nname = "a"\n', "unknown table or key 'assigment'"),
])
def test_a_bad_assignment_table_names_its_line(tables, says):
    text = (REPO_ROOT / "exercises" / "manifest.toml").read_text().split("# --- assignments")[0] + tables
    with pytest.raises(ManifestError) as raised:
        parse_course(text.encode(), Path("exercises/manifest.toml"))
    assert says in str(raised.value)
    line = int(str(raised.value).split(":")[1])
    assert line > text.count("\n") - tables.count("\n"), "the line is in the assignment tables"


def test_release_of_one_assignment_holds_only_its_exercises(tmp_path):
    out = tmp_path / "week1"
    done = _grader("release", str(out), "--assignment", FIRST.name)
    assert done.returncode == 0, done.stderr
    week = FIRST
    released = parse_course((out / "exercises" / "manifest.toml").read_bytes())
    assert [e.id for e in released.exercises] == [e.id for e in week.exercises]
    assert [a.name for a in released.assignments] == [FIRST.name]
    files = {p.relative_to(out / "exercises").as_posix() for p in (out / "exercises").rglob("*.py")}
    assert files == {e.path for e in week.exercises} | {e.check_path for e in week.exercises}
    workflow = yaml.safe_load((out / ".github/workflows/classroom.yml").read_text())
    assert workflow["env"]["KATAS_MAX_SCORE"] == str(week.points)
    assert f"{len(week.exercises)} exercises, {week.points} points" in done.stdout


def test_workflow_and_bundle_of_one_assignment_grade_only_it(tmp_path):
    week = OTHER
    ids = ",".join(e.id for e in week.exercises)
    done = _grader("classroom-workflow", "--assignment", week.name, "--out", str(tmp_path / "week2.yml"))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "week2.yml").read_text()
    assert f"--only {ids}" in text and f'KATAS_MAX_SCORE: "{week.points}"' in text
    done = _grader("gradescope-bundle", str(tmp_path / "week2.zip"), "--assignment", week.name)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "week2.zip") as bundle:
        assert f"--only {ids}" in bundle.read("run_autograder").decode()
    assert f"{len(week.exercises)} exercises, {week.points} points" in done.stdout
    done = _grader("classroom-workflow", "--assignment", f"{week.name}x")
    assert done.returncode == 2 and f"no assignment '{week.name}x'; did you mean" in done.stderr


def test_batch_of_one_assignment_and_a_gradebook_column_per_assignment(tmp_path):
    submissions = tmp_path / "submissions"
    for name, source in (("alice", REPO_ROOT / "solutions"), ("bob", REPO_ROOT / "exercises")):
        shutil.copytree(source / "01_purity", submissions / name / "01_purity")
    out = tmp_path / "grades"
    done = _grader("batch", str(submissions), "--out", str(out), "--assignment", PURITY_WEEK.name, "--only",
                   "purity-1,purity-2", "--by-assignment", "--no-warm", "--workers", "2")
    assert done.returncode == 0, done.stderr
    with open(out / "gradebook.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["student", *WEEK, "total", "max", "needs_review", "error"]
    alice, bob = rows
    assert (alice[PURITY_WEEK.name], alice[OTHER.name], alice["total"], alice["max"]) == ("2", "", "2", "2")
    assert bob[PURITY_WEEK.name] == "0"
    record = json.loads((out / "students" / "alice.json").read_text())
    assert [e["id"] for e in record["exercises"]] == ["purity-1", "purity-2"]
    report = _grader("report", str(out), "--assignment", PURITY_WEEK.name)
    assert report.returncode == 0, report.stderr
    refused = _grader("batch", str(submissions), "--out", str(out), "--assignment", PURITY_WEEK.name, "--only",
                      "vmap")
    assert refused.returncode == 2 and "no exercise 'vmap'" in refused.stderr


def test_learner_commands_narrow_to_an_assignment():
    done = _grader("progress", "--assignment", OTHER.name)
    assert done.returncode == 0, done.stderr
    assert f" of {len(OTHER.exercises)} exercises done" in done.stdout
    assert OTHER.exercises[0].id in done.stdout and "purity-1" not in done.stdout, done.stdout
    done = _grader("hint", "--assignment", "nope")
    assert done.returncode == 2 and "no assignment 'nope'" in done.stderr


@pytest.mark.parametrize("with_solutions", [False, True])
def test_a_releases_readme_describes_that_release(with_solutions):
    last = COURSE.assignments[-1]  # not the course's first topic: the README must not start there
    files = release_files(REPO_ROOT, with_solutions=with_solutions, assignment=last.name)
    readme = files["README.md"].decode()
    first = last.exercises[0]
    assert f"pytest exercises/{first.path.split('/')[0]}    # the first topic" in readme, readme
    named = re.findall(r"pytest (exercises/\S+)", readme)
    assert named and all(any(p == n or p.startswith(n + "/") for p in files) for n in named), \
        f"the README names {named}, not all in the release"
    prose = " ".join(readme.split())  # as read, whatever the line breaks
    assert f"{len(last.exercises)} exercises, {last.points} points" in prose
    packed = f"exercises/{PACK_NAME}"
    assert (packed in files) == with_solutions == (packed in readme) == ("grader solution" in readme), readme
    if not with_solutions:
        assert "hands out no reference solutions" in prose
