"""Grade a whole class, unattended and resumable.

`SUBMISSIONS/` holds one entry per student: a folder (a copy of `exercises/`
or a repository holding one, git checkouts included), a `.zip` of either, or
a bare git repository. Each student's result is written atomically to
`OUT/students/<name>.json` as soon as it is known; `gradebook.csv`,
`summary.csv` and `failures.csv` (one row per failed check, with its code, or
one per exercise whose failed checks all say the same: a syntax error, a missing file),
and with a roster `canvas.csv` and `moodle.csv` (grader.course.gradebooks), are
rebuilt from those files after every student. Killing the batch loses
nothing, and running it again skips students whose submission and checks have
not changed (content hash) unless `--regrade`.

Submissions are graded by threads on this machine (`--workers`), or on a Dask
cluster (`--scheduler`, `--cluster local:N`; see grader.course.cluster) whose workers
run the same `grade_one` (grader.course.submissions: one student's submission,
unpacked and graded); either way the results are written here as they arrive.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from grader import REPO_ROOT
from grader.core.files import write_atomically
from grader.core.limits import Limits
from grader.core.manifest import Assignment, Exercise, load_course
from grader.course.classreport import failure_rows, groups_by_exercise, isolation_summary, top_failure
from grader.course.cluster import Cluster, ClusterSpec
from grader.course.gradebooks import Student, handed_in_points, import_steps, write_gradebooks
from grader.course.messages import spreadsheet_cell
from grader.course.submissions import Outcome, Submission, find_submissions, grade_one
from grader.engine.sandbox import Isolation
from grader.engine.warm import checks_fingerprint


def gradebook_rows(records: list[dict], exercises: tuple[Exercise, ...],
                   columns: tuple[Assignment, ...] | None = None) -> list[list]:
    """One row per student: a column per exercise, or with `columns` one per assignment (the points
    of its exercises that were graded), then the total. A cell is blank where the submission holds
    none of its exercises' files (it is another assignment's), 0 where they are there and fail."""
    groups = [(a.name, a.exercises) for a in columns] if columns else [(e.id, (e,)) for e in exercises]
    header = ["student", *(name for name, _ in groups), "total", "max", "needs_review", "error"]
    rows = [header]
    for record in sorted(records, key=lambda r: r["student"]):
        graded = not record.get("error")

        def cell(members: tuple[Exercise, ...]):
            points = handed_in_points(record, [e.id for e in members]) if graded else None
            return "" if points is None else points

        rows.append([record["student"], *(cell(members) for _, members in groups),
                     record["score"] if graded else "", record["max_score"],
                     "yes" if record.get("needs_review") else "", record.get("error", "")])
    return rows


def summary_rows(records: list[dict], exercises: tuple[Exercise, ...]) -> list[list]:
    """Per exercise: how many passed, the pass rate, and the failure code most students share."""
    graded = [r for r in records if not r.get("error")]
    groups = groups_by_exercise(graded)
    rows = [["exercise", "passed", "graded", "pass_rate", "top_failure", "top_failure_students"]]
    for entry in exercises:
        passed = sum(1 for r in graded for e in r["exercises"] if e["id"] == entry.id and e["status"] == "passed")
        rate = f"{passed / len(graded):.0%}" if graded else ""
        code, students = top_failure(groups.get(entry.id, {}))
        rows.append([entry.id, passed, len(graded), rate, code, students or ""])
    return rows


def _csv(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([[spreadsheet_cell(cell) for cell in row] for row in rows])
    return out.getvalue()


class ProgressLine:
    """One status line on stderr: a bar, counts and an ETA (plain lines when not a terminal)."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.reused = total, 0, 0
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.tty = sys.stderr.isatty()

    def step(self, name: str, record: dict, reused: bool) -> None:
        with self.lock:
            self.done += 1
            self.reused += reused
            fresh = self.done - self.reused
            elapsed = time.monotonic() - self.start
            left = self.total - self.done
            eta = f"{elapsed / fresh * left:.0f} s" if fresh and left else "-"
            width = 24
            filled = width * self.done // max(1, self.total)
            score = "error" if record.get("error") else f"{record['score']}/{record['max_score']}"
            line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                    f"({self.reused} unchanged) ETA {eta}  {name}: {score}{' (reused)' if reused else ''}")
            print(("\r" + line.ljust(110)) if self.tty else line, end="" if self.tty else "\n",
                  file=sys.stderr, flush=True)

    def finish(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def _grade_locally(submissions: list[Submission], exercises: tuple[Exercise, ...], limits: Limits,
                   fingerprint: str, previous: dict[str, dict], regrade: bool, user: str | None,
                   isolation: Isolation | None, workers: int) -> Iterator[Outcome]:
    """Each submission's outcome as it finishes, graded by `workers` threads on this machine."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(grade_one, s, exercises, limits, fingerprint, previous.get(s.name), regrade, user,
                               isolation): s
                   for s in submissions}
        for future in as_completed(futures):
            record, reused = future.result()
            yield Outcome(futures[future], record, reused)


def run_batch(folder: Path, out: Path, exercises: tuple[Exercise, ...], limits: Limits, *,
              workers: int, regrade: bool, user: str | None, isolation: Isolation | None = None,
              cluster: ClusterSpec | None = None, columns: tuple[Assignment, ...] | None = None,
              roster: dict[str, Student] | None = None) -> int:
    """Grade every submission in `folder` into `out`: 0 when each has a result, 2 when some could not
    be graded this time (a cluster whose workers kept dying on it; the next run tries again). With a
    `roster`, the Canvas and Moodle gradebooks are written too (grader.course.gradebooks)."""
    submissions = find_submissions(folder)
    assignments = load_course(REPO_ROOT / "exercises").assignments if roster is not None else ()
    students = out / "students"
    students.mkdir(parents=True, exist_ok=True)
    fingerprint = checks_fingerprint()
    records: dict[str, dict] = {}
    for submission in submissions:
        saved = students / f"{submission.name}.json"
        if saved.is_file():
            try:
                records[submission.name] = json.loads(saved.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                pass  # a file from an older, interrupted writer: grade again
    progress = ProgressLine(len(submissions))
    lock = threading.Lock()

    def write_tables() -> list[dict]:
        """Rebuild the tables from every result so far (only students still in the folder)."""
        current = [records[s.name] for s in submissions if s.name in records]
        write_atomically(out / "gradebook.csv", _csv(gradebook_rows(current, exercises, columns)))
        write_atomically(out / "summary.csv", _csv(summary_rows(current, exercises)))
        write_atomically(out / "failures.csv", _csv(failure_rows(current)))
        if roster is not None:
            write_gradebooks(out, current, exercises, roster, assignments)
        return current

    def save(name: str, record: dict) -> None:
        with lock:
            records[name] = record
            write_atomically(students / f"{name}.json", json.dumps(record, indent=2) + "\n")
            write_tables()

    ungraded: list[str] = []

    def collect(outcomes: Iterator[Outcome]) -> None:
        for outcome in outcomes:
            name = outcome.submission.name
            if outcome.record is None:  # the cluster lost it: nothing is written, the next run grades it
                ungraded.append(name)
                print(f"\ngrader: {name} was not graded: {outcome.problem}", file=sys.stderr)
                continue
            if not outcome.reused:
                save(name, outcome.record)
            progress.step(name, outcome.record, outcome.reused)

    if cluster is None:
        collect(_grade_locally(submissions, exercises, limits, fingerprint, records, regrade, user, isolation,
                               workers))
    else:
        def say(line: str) -> None:
            print(("\n" if progress.tty else "") + line, file=sys.stderr, flush=True)

        with Cluster(cluster) as dask:
            here = dask.prepare(user, say=say)
            collect(dask.grade(submissions, exercises, limits, fingerprint, records, regrade, user, here, say))
    progress.finish()
    if not submissions:
        print(f"grader: no submissions in {folder}", file=sys.stderr)
    current = write_tables()
    summary = summary_rows(current, exercises)
    width = max(len(row[0]) for row in summary)
    print("\n".join(f"{row[0]:<{width}}  {row[3]:>9}  ({row[1]}/{row[2]})" if i else
                    f"{'exercise':<{width}}  pass rate" for i, row in enumerate(summary)))
    errors = [r["student"] for r in current if r.get("error")]
    review = [r["student"] for r in current if r.get("needs_review")]
    print(f"\n{len(current)} students graded into {out}/gradebook.csv"
          + (f"; could not grade: {', '.join(errors)}" if errors else "")
          + (f"; needs review: {', '.join(review)}" if review else ""))
    for line in isolation_summary(current):
        print(line)
    if roster is not None:
        books = write_gradebooks(out, current, exercises, roster, assignments)
        for warning in books.warnings:
            print(f"warning: {warning}")
        print("\n".join(import_steps(books, out)))
    if ungraded:
        print(f"not graded this time, run the batch again: {', '.join(ungraded)}")
        return 2
    return 0
