"""One student's submission: finding it in the class folder, unpacking it, grading it, and what
came of it. The local batch (grader.course.batch) and the Dask workers (grader.course.cluster) grade
each submission with the same `grade_one`.
"""

from __future__ import annotations

import functools
import hashlib
import io
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grader import REPO_ROOT
from grader.core.files import resolve_target
from grader.core.limits import Limits
from grader.core.manifest import Exercise
from grader.course.classreport import UNTOUCHED
from grader.course.messages import shown
from grader.course.reports import to_json
from grader.course.soundness import staged_stub
from grader.engine.grading import grade
from grader.engine.sandbox import Isolation
from grader.engine.warm import ready

MAX_ZIP_BYTES = 50 * 1024 * 1024  # unpacked; a class's exercise files are far smaller
MAX_ZIP_FILES = 5000


class Ungradable(Exception):
    """The submission cannot be graded at all; the message says why."""


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path


def find_submissions(folder: Path) -> list[Submission]:
    """One per entry, named after it (`alice`, `alice.zip`, `alice.git` -> alice); entries whose
    names would collide keep their full names, so no student's result overwrites another's."""
    entries = [e for e in sorted(folder.iterdir()) if not e.name.startswith(".")]
    short = {e: e.name.removesuffix(".zip").removesuffix(".git") for e in entries}
    taken = [short[e] for e in entries]
    return [Submission(short[e] if taken.count(short[e]) == 1 else e.name, e) for e in entries]


def is_bare_repo(path: Path) -> bool:
    return path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir()


def unpack(submission: Submission, scratch: Path) -> Path:
    """A folder holding the submission's files: the folder itself, or an unpacked copy."""
    path = submission.path
    if path.is_dir() and not is_bare_repo(path):
        return path
    dest = scratch / "unpacked"
    dest.mkdir()
    if is_bare_repo(path):
        archive = subprocess.run(["git", "--git-dir", str(path), "archive", "--format=zip", "HEAD"],
                                 capture_output=True, timeout=120)
        if archive.returncode != 0:
            raise Ungradable(f"cannot read the git repository: {archive.stderr.decode(errors='replace').strip()}")
        _extract(zipfile.ZipFile(io.BytesIO(archive.stdout)), dest)
    elif path.suffix == ".zip":
        try:
            with zipfile.ZipFile(path) as archive:
                _extract(archive, dest)
        except (zipfile.BadZipFile, OSError) as error:
            raise Ungradable(f"unreadable zip file: {error}") from None
    else:
        raise Ungradable("neither a folder, a .zip nor a git repository")
    if (dest / "exercises").is_dir() or any(dest.glob("[0-9][0-9]_*")):
        return dest
    entries = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest  # zips often wrap one folder


def _extract(archive: zipfile.ZipFile, dest: Path) -> None:
    members = archive.infolist()
    if len(members) > MAX_ZIP_FILES or sum(m.file_size for m in members) > MAX_ZIP_BYTES:
        raise Ungradable("the zip file is too large to be a submission")
    for member in members:
        target = (dest / member.filename).resolve()
        if not target.is_relative_to(dest.resolve()) or (member.external_attr >> 16) & 0o170000 == 0o120000:
            raise Ungradable(f"the zip file holds an unsafe entry: {member.filename}")
    archive.extractall(dest)


def submission_hash(submission: Submission, exercises: tuple[Exercise, ...], fingerprint: str,
                    limits: Limits) -> str:
    """Changes when the submission, the checks or the limits change; computed before unpacking,
    so even a submission that cannot be graded is not tried again while it stays the same."""
    digest = hashlib.sha256(f"{fingerprint}{limits}{[e.id for e in exercises]}".encode())
    path = submission.path
    if is_bare_repo(path):
        head = subprocess.run(["git", "--git-dir", str(path), "rev-parse", "HEAD"], capture_output=True)
        digest.update(head.stdout + head.stderr)
    elif path.is_file():
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    else:
        files = resolve_target(str(path), REPO_ROOT)
        for entry in exercises:
            file = files / entry.path
            digest.update(entry.path.encode())
            digest.update(file.read_bytes() if file.is_file() and not file.is_symlink() else b"<missing>")
    return digest.hexdigest()


def grade_one(submission: Submission, exercises: tuple[Exercise, ...], limits: Limits, fingerprint: str,
              previous: dict | None, regrade: bool, user: str | None,
              isolation: Isolation | None = None) -> tuple[dict, bool]:
    """The student's result record, and whether it was reused from the last run."""
    try:
        digest = submission_hash(submission, exercises, fingerprint, limits)
    except (OSError, RuntimeError, subprocess.SubprocessError) as error:  # unreadable, a link loop...
        digest = f"unreadable: {error}"
    if previous and not regrade and previous.get("submission_hash") == digest:
        return previous, True
    with tempfile.TemporaryDirectory(prefix="katas-batch-") as scratch:
        try:
            files = resolve_target(str(unpack(submission, Path(scratch))), REPO_ROOT)
            if not any((files / e.path).is_file() for e in exercises):
                raise Ungradable("no exercise files found (expected e.g. "
                                 f"{exercises[0].path}, in a copy of exercises/ or a repo holding one)")
            report = grade(files, label=submission.name, only=exercises, limits=limits, user=user,
                           isolation=isolation, warm_cache=ready())
            record = mark_untouched({"student": submission.name, "submission_hash": digest, **to_json(report)},
                                    untouched_exercises(files, exercises))
            record = mark_handed_in(record, absent_exercises(files, exercises))
        except Exception as problem:  # noqa: BLE001 - one student's oddity must not stop the class
            why = str(problem) if isinstance(problem, Ungradable) else f"{type(problem).__name__}: {problem}"
            record = {"student": submission.name, "submission_hash": digest, "error": shown(why),
                      "score": None, "max_score": sum(e.points for e in exercises), "exercises": []}
    record["graded_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    return record, False


def untouched_exercises(files: Path, exercises: tuple[Exercise, ...], repo: Path = REPO_ROOT) -> set[str]:
    """Ids of the exercises whose file in `files` is byte for byte its stub as released: as staged in
    this grader's git checkout (whose working copy may hold solutions), else its exercises/ file."""
    same = set()
    for entry in exercises:
        submitted = files / entry.path
        if not submitted.is_file() or submitted.is_symlink():
            continue
        stub = released_stub(repo, entry)
        if stub is not None and submitted.stat().st_size == len(stub) and submitted.read_bytes() == stub:
            same.add(entry.id)
    return same


@functools.lru_cache(maxsize=None)
def released_stub(repo: Path, entry: Exercise) -> bytes | None:
    """The exercise's stub as staged in git, else as the working copy has it (None: neither)."""
    staged = staged_stub(repo, entry)
    if staged is not None:
        return staged
    try:
        return (repo / "exercises" / entry.path).read_bytes()
    except OSError:
        return None


def mark_untouched(record: dict, untouched: set[str]) -> dict:
    """The record with each failed exercise in `untouched` coded as not attempted. A fix-it's stub runs
    and fails for the bug it was written with; counted as that mistake, it would say the class
    misunderstands what it never tried. Its checks' own results stay in the record."""
    for exercise in record.get("exercises", []):
        if exercise["id"] in untouched and exercise["status"] == "failed":
            exercise["code"] = UNTOUCHED
            exercise["reason"] = f"not attempted: {exercise['path']} is still the original stub"
    return record


def absent_exercises(files: Path, exercises: tuple[Exercise, ...]) -> set[str]:
    """Ids of the exercises whose file is not in the submission at all (a broken link is there)."""
    return {e.id for e in exercises if not ((files / e.path).is_file() or (files / e.path).is_symlink())}


def mark_handed_in(record: dict, absent: set[str]) -> dict:
    """The record with each exercise's `handed_in`: False for a file the submission does not hold.
    Such an exercise scores 0 here, but a gradebook leaves an assignment none of whose files were
    handed in blank (the student handed in another assignment): a 0 there would overwrite the grade
    the LMS has. A file handed in, however wrong (a syntax error, the untouched stub), scores 0."""
    for exercise in record.get("exercises", []):
        exercise["handed_in"] = exercise["id"] not in absent
    return record


@dataclass
class Outcome:
    """One submission's end: a record to save, one reused from the last run, or none (why)."""

    submission: Submission
    record: dict | None
    reused: bool = False
    problem: str = ""  # set when the cluster could not grade it (it stays ungraded for the next run)
