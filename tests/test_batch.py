"""`grader batch` over a generated class: mixed submissions, a kill midway, a resume."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.course.classreport import FAILURE_HEADER
from support import PRISTINE

FIXTURES = Path(__file__).parent / "fixtures" / "submissions"
ONLY = "purity-1,purity-2"  # two exercises keep each student to one short child process
SOLUTIONS = REPO_ROOT / "solutions" / "01_purity"
STUBS = PRISTINE / "exercises" / "01_purity"  # the untouched stubs, whatever a learner did
MUTATES = Path(__file__).parent / "variants" / "01_purity" / "no_mutation"


def _folder(root: Path, name: str, sources: dict[str, Path], repo_shaped: bool = False) -> Path:
    folder = root / name / ("exercises" if repo_shaped else "") / "01_purity"
    folder.mkdir(parents=True)
    for file, source in sources.items():
        shutil.copy(source / file, folder / file)
    return root / name


def _zip(root: Path, name: str, folder: Path) -> None:
    with zipfile.ZipFile(root / f"{name}.zip", "w") as archive:
        for path in folder.rglob("*"):
            archive.write(path, Path(name) / path.relative_to(folder))
    shutil.rmtree(folder)


def make_class(root: Path) -> dict[str, tuple]:
    """20 submissions; returns student -> (expected score or None for an error row, needs review)."""
    solved = {"global_config.py": SOLUTIONS, "no_mutation.py": SOLUTIONS}
    half = {"global_config.py": SOLUTIONS, "no_mutation.py": STUBS}
    stubs = {"global_config.py": STUBS, "no_mutation.py": STUBS}
    expected = {}
    for i in range(6):
        _folder(root, f"good{i}", solved, repo_shaped=i % 2 == 1)
        expected[f"good{i}"] = (2, False)
    for i in range(2):
        _folder(root, f"half{i}", half)
        expected[f"half{i}"] = (1, False)
    for i in range(2):  # purity-2 attempted, and wrong: it still changes the caller's dict
        tried = _folder(root, f"tried{i}", half)
        shutil.copy(MUTATES / "mutant_alias.py", tried / "01_purity/no_mutation.py")
        expected[f"tried{i}"] = (1, False)
    for i in range(3):
        _folder(root, f"untouched{i}", stubs)
        expected[f"untouched{i}"] = (0, False)
    for i in range(2):
        _zip(root, f"zipped{i}", _folder(root, f"zipped{i}", solved, repo_shaped=i == 1))
        expected[f"zipped{i}"] = (2, False)
    hostile = _folder(root, "exits", {"no_mutation.py": SOLUTIONS})
    shutil.copy(FIXTURES / "exit_at_import/01_purity/global_config.py", hostile / "01_purity/global_config.py")
    expected["exits"] = (1, True)
    planted = _folder(root, "planted", half)
    shutil.copy(FIXTURES / "planted_files/01_purity/conftest.py", planted / "01_purity/conftest.py")
    expected["planted"] = (1, True)
    bare = _folder(root, "bare_src", solved)
    subprocess.run(["git", "init", "-q", str(bare)], check=True)
    subprocess.run(["git", "-C", str(bare), "add", "."], check=True)
    subprocess.run(["git", "-C", str(bare), "-c", "user.name=s", "-c", "user.email=s@example.com",
                    "commit", "-qm", "work"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(bare), str(root / "bare.git")], check=True)
    shutil.rmtree(bare)
    expected["bare"] = (2, False)
    (root / "empty").mkdir()
    expected["empty"] = (None, False)
    (root / "broken.zip").write_bytes(b"this is not a zip file")
    expected["broken"] = (None, False)
    return expected


def _roster(submissions: Path) -> Path:
    """Who each submission is: every student but good5, and one who handed nothing in."""
    names = sorted(_entry_name(e) for e in submissions.iterdir() if _entry_name(e) != "good5")
    lines = ["folder,name,student_id,login,section"]
    lines += [f"{name},Student {name},{1000 + i},{name}-login,Section {i % 2 + 1}" for i, name in enumerate(names)]
    lines.append("absent,Not Here,999,absent-login,Section 1")
    roster = submissions.parent / "roster.csv"
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return roster


def _batch(submissions: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "grader.cli", "batch", str(submissions), "--out", str(out),
                             "--only", ONLY, "--workers", "2", "--roster", str(_roster(submissions)), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _graded_at(out: Path) -> dict[str, str]:
    return {p.stem: json.loads(p.read_text())["graded_at"] for p in (out / "students").glob("*.json")}


@pytest.fixture(scope="module")
def batch_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    expected = make_class(submissions)
    assert len(expected) == 20
    first = _batch(submissions, out)
    deadline = time.monotonic() + 600
    while len(list((out / "students").glob("*.json"))) < 6 and first.poll() is None:
        assert time.monotonic() < deadline, "the batch made no progress"
        time.sleep(0.2)
    first.send_signal(signal.SIGKILL)
    first.wait()
    before_resume = _graded_at(out)
    resumed = _batch(submissions, out)
    stdout, stderr = resumed.communicate(timeout=900)
    return {"expected": expected, "submissions": submissions, "out": out, "before": before_resume,
            "stdout": stdout, "stderr": stderr, "returncode": resumed.returncode}


def _gradebook(out: Path) -> list[dict]:
    with open(out / "gradebook.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_killed_batch_resumes_without_losing_or_duplicating_a_row(batch_run):
    assert batch_run["returncode"] == 0, batch_run["stderr"]
    rows = _gradebook(batch_run["out"])
    names = [row["student"] for row in rows]
    assert sorted(names) == sorted(batch_run["expected"]) and len(names) == len(set(names)) == 20
    assert 6 <= len(batch_run["before"]) < 20, "the kill should land midway"
    after = _graded_at(batch_run["out"])
    regraded = sorted(name for name, stamp in batch_run["before"].items() if after[name] != stamp)
    assert not regraded, f"students finished before the kill were graded again: {regraded}"
    assert "unchanged" in batch_run["stderr"] and "ETA" in batch_run["stderr"]


def test_every_student_scores_what_they_should(batch_run):
    rows = {row["student"]: row for row in _gradebook(batch_run["out"])}
    for name, (score, review) in batch_run["expected"].items():
        row = rows[name]
        if score is None:
            assert row["error"] and row["total"] == "", f"{name} should be an explicit error row: {row}"
        else:
            assert (row["total"], row["error"]) == (str(score), ""), f"{name}: {row}"
            assert (row["needs_review"] == "yes") == review, f"{name}: {row}"
        assert row["max"] == "2"
    assert "unreadable zip" in rows["broken"]["error"] and "no exercise files" in rows["empty"]["error"]


def test_summary_gives_pass_rates_per_exercise(batch_run):
    with open(batch_run["out"] / "summary.csv", newline="") as handle:
        summary = {row["exercise"]: row for row in csv.DictReader(handle)}
    graded = sum(1 for score, _ in batch_run["expected"].values() if score is not None)
    assert summary["purity-1"]["graded"] == str(graded)
    # purity-1: good, half, tried, zipped, planted, bare; purity-2: good, zipped, exits, bare
    passed = {"purity-1": 6 + 2 + 2 + 2 + 1 + 1, "purity-2": 6 + 2 + 1 + 1}
    assert {k: int(v["passed"]) for k, v in summary.items()} == passed
    assert "pass rate" in batch_run["stdout"]


def test_only_changed_submissions_are_regraded(batch_run):
    submissions, out = batch_run["submissions"], batch_run["out"]
    before = _graded_at(out)
    shutil.copy(SOLUTIONS / "no_mutation.py", submissions / "half0/01_purity/no_mutation.py")
    proc = _batch(submissions, out)
    proc.communicate(timeout=600)
    after = _graded_at(out)
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {"half0"}
    assert {row["student"]: row["total"] for row in _gradebook(out)}["half0"] == "2"


def test_colliding_names_keep_their_full_names(tmp_path):
    from grader.course.submissions import find_submissions

    (tmp_path / "alice").mkdir()
    (tmp_path / "alice.zip").write_bytes(b"")
    (tmp_path / "bob.zip").write_bytes(b"")
    assert [s.name for s in find_submissions(tmp_path)] == ["alice", "alice.zip", "bob"]


def test_an_unreadable_submission_becomes_an_error_row_not_a_crash(tmp_path):
    from grader.course.submissions import Submission, grade_one
    from grader.core.limits import Limits
    from grader.core.manifest import load_manifest, select

    loop = tmp_path / "loop"
    loop.symlink_to(loop)  # resolving it raises RuntimeError (a symlink loop)
    exercises = select(load_manifest(REPO_ROOT / "exercises"), "purity-1")
    record, reused = grade_one(Submission("loop", loop), exercises, Limits(), "fp", None, False, None)
    assert not reused and record["error"] and record["score"] is None


def test_a_file_not_handed_in_is_blank_and_a_broken_one_is_0_in_one_failure_row(tmp_path):
    """purity-1 solved, purity-2 a syntax error (handed in: 0), static-1 (week-2's) not handed in at all:
    week-2 is blank, not 0, and each broken exercise is one row of failures.csv, with its cause."""
    from grader.course.batch import _csv, gradebook_rows
    from grader.course.classreport import failure_rows
    from grader.course.submissions import Submission, grade_one
    from grader.core.limits import Limits
    from grader.core.manifest import load_course, select

    course = load_course(REPO_ROOT / "exercises")
    exercises = select(course.exercises, "purity-1,purity-2,static-1")
    folder = _folder(tmp_path, "ada", {"global_config.py": SOLUTIONS})
    (folder / "01_purity" / "no_mutation.py").write_text("def update(params:\n", encoding="utf-8")
    record, _ = grade_one(Submission("ada", folder), exercises, Limits(), "fp", None, False, None)
    assert {e["id"]: (e["score"], e["handed_in"]) for e in record["exercises"]} == \
        {"purity-1": (1, True), "purity-2": (0, True), "static-1": (0, False)}
    header, row = gradebook_rows([record], exercises, course.assignments)
    assert dict(zip(header, row))["week-1"] == 1 and dict(zip(header, row))["week-2"] == ""
    assert _csv(gradebook_rows([record], exercises)).splitlines()[1].startswith("ada,1,0,,"), "per exercise too"
    failures = [dict(zip(FAILURE_HEADER, r)) for r in failure_rows([record])[1:]]
    assert [(f["exercise"], f["check"], f["code"]) for f in failures] == \
        [("purity-2", "", "syntax-error"), ("static-1", "", "missing")], "one row per exercise, not per check"
    assert "syntax error on line 1" in failures[0]["message"] and "flag_branch.py is missing" in failures[1]["message"]


def test_checks_that_fail_differently_keep_a_row_each():
    from grader.course.classreport import failure_rows

    checks = [{"name": "a", "status": "failed", "code": "recompiles", "message": "compiled twice"},
              {"name": "b", "status": "failed", "code": "wrong-values", "message": "off by one"},
              {"name": "c", "status": "failed", "code": "wrong-values", "message": "off by one"}]
    record = {"student": "ada", "exercises": [{"id": "jit-1", "status": "failed", "code": "recompiles",
                                               "reason": "a: compiled twice", "checks": checks}]}
    assert [(r[2], r[4]) for r in failure_rows([record])[1:]] == \
        [("a", "recompiles"), ("b", "wrong-values"), ("c", "wrong-values")]


# --- the batch's tables and its isolation line -------------------------------------------------

def test_failures_csv_lists_each_failed_check_with_its_code(batch_run):
    with open(batch_run["out"] / "failures.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["student", "exercise", "check", "hidden", "code", "message"]
    tried = {(row["exercise"], row["code"]) for row in rows if row["student"] == "tried0"}
    assert ("purity-2", "mutates-input") in tried
    assert not [row for row in rows if row["student"].startswith("good")]
    assert any(row["student"] == "exits" and row["code"] == "crash" for row in rows)
    with open(batch_run["out"] / "summary.csv", newline="") as handle:
        summary = {row["exercise"]: row for row in csv.DictReader(handle)}
    # untouched0..2, half0..1 and planted hand in purity-2's stub (half0 until an earlier test solved it):
    # not attempted, not the mistake the stub was written with
    stub = (STUBS / "no_mutation.py").read_bytes()
    handed_in = [f for f in batch_run["submissions"].glob("*/01_purity/no_mutation.py") if f.read_bytes() == stub]
    assert (summary["purity-2"]["top_failure"], summary["purity-2"]["top_failure_students"]) == \
        ("untouched", str(len(handed_in))) and len(handed_in) >= 5
    assert "isolation: " in batch_run["stdout"] and "graded students" in batch_run["stdout"]


def test_an_untouched_stub_counts_as_not_attempted_everywhere(batch_run, tmp_path):
    """A fix-it's stub runs and fails for its bug (purity-1: a stale global; purity-2: a mutated
    input): handed in untouched, it is not attempted, not that mistake."""
    with open(batch_run["out"] / "failures.csv", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["student"] == "untouched0"]
    assert [(row["exercise"], row["check"], row["code"]) for row in rows] == \
        [("purity-1", "", "untouched"), ("purity-2", "", "untouched")], "one not-attempted row per exercise"
    record = json.loads((batch_run["out"] / "students" / "untouched0.json").read_text())
    assert [e["code"] for e in record["exercises"]] == ["untouched", "untouched"]
    assert all(c["code"] != "untouched" for e in record["exercises"] for c in e["checks"]), "checks say what ran"
    half = json.loads((batch_run["out"] / "students" / "half1.json").read_text())
    assert [e["code"] for e in half["exercises"]] == ["", "untouched"]
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "report", str(batch_run["out"]), "--html",
                           str(tmp_path / "class.html")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    headline = proc.stdout.split("what the class misunderstands:", 1)[1].split("\nisolation:", 1)[0]
    assert "untouched" not in headline and "stale global" not in headline and "bakes in a global" not in headline
    assert "changes its input in place: 11% of the class in purity-2 (2 of 18)" in headline, proc.stdout


def test_untouched_means_the_stub_as_committed_not_a_solved_working_copy(tmp_path):
    """An instructor (or this repository's tests) may hold solutions in exercises/: a stub handed in is
    still the stub, and a solution handed in is not, whatever the grader's working copy holds."""
    from grader.core.manifest import load_manifest, select
    from grader.course.submissions import untouched_exercises

    entries = select(load_manifest(REPO_ROOT / "exercises"), ONLY)
    repo = tmp_path / "grader-checkout"
    for entry in entries:
        (repo / "exercises" / entry.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PRISTINE / "exercises" / entry.path, repo / "exercises" / entry.path)
    for command in (["init", "-q"], ["add", "exercises"]):
        subprocess.run(["git", *command], cwd=repo, check=True, capture_output=True)
    for entry in entries:  # the checkout's working copy now holds the solutions
        shutil.copy(REPO_ROOT / "solutions" / entry.path, repo / "exercises" / entry.path)
    handed_in = {name: _folder(tmp_path, name, {"global_config.py": source, "no_mutation.py": source})
                 for name, source in (("stubs", STUBS), ("solved", SOLUTIONS))}
    assert untouched_exercises(handed_in["stubs"], entries, repo) == {"purity-1", "purity-2"}
    assert untouched_exercises(handed_in["solved"], entries, repo) == set()


def test_the_batch_writes_gradebooks_canvas_and_moodle_import(batch_run):
    from grader.course.gradebooks import columns
    from grader.core.manifest import load_course, select
    from lms import canvas_import, moodle_import, moodle_selections

    out = batch_run["out"]
    totals = {row["student"]: row["total"] for row in _gradebook(out)}
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header == ["student", "purity-1", "purity-2", "total", "max", "needs_review", "error"], \
        "today's gradebook stays as it was"
    graded = {name for name, total in totals.items() if total and name != "good5"}
    (column,) = columns(select(load_course(REPO_ROOT / "exercises").exercises, ONLY),
                        load_course(REPO_ROOT / "exercises").assignments)  # the assignment holding both
    canvas = canvas_import((out / "canvas.csv").read_bytes())
    assert canvas["assignments"] == {column.title: 2}
    assert {login.removesuffix("-login"): scores[column.title] for _, _, login, _, scores in canvas["students"]} \
        == {name: float(totals[name]) for name in graded}
    assert f"gradebook columns written: {column.title} (2 points)" in batch_run["stdout"]
    (steps,) = [line for line in batch_run["stdout"].splitlines() if line.startswith("Moodle:")]
    moodle = moodle_import((out / "moodle.csv").read_bytes(), {column.title: 2}, **moodle_selections(steps))
    assert moodle["identifier"] == "username"
    assert {login.removesuffix("-login"): g[column.title] for login, g in moodle["grades"].items()} == \
        {name: float(totals[name]) for name in graded}
    assert "not in the roster, so not in canvas.csv or moodle.csv: good5" in batch_run["stdout"]
    assert "absent" in batch_run["stdout"] and "broken" in batch_run["stdout"]


def test_report_reads_the_batch_output(batch_run, tmp_path):
    page = tmp_path / "class.html"
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "report", str(batch_run["out"]), "--html", str(page)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "changes its input in place" in proc.stdout and "needs review: exits, planted" in proc.stdout
    assert 'id="group-purity-2-mutates-input"' in page.read_text()


# --- the same class on a Dask cluster ----------------------------------------------------------

# Entries of the generated class graded again on two local Dask workers: solved, half, untouched,
# zipped, repo-shaped, a bare repository, one that exits (a crash of its check process), planted
# files, and the two that cannot be graded.
CLUSTER_CLASS = ("good0", "good1", "half1", "untouched0", "zipped1", "exits", "planted", "bare", "empty", "broken")


def _entry_name(entry: Path) -> str:
    return entry.name.removesuffix(".zip").removesuffix(".git")


def _verdicts(record: dict) -> tuple:
    """What grading decided, without times or paths: scores, per-check statuses and codes. Checks run
    in an order drawn afresh for each grading, so when a subject dies which check meets it ("crash")
    and which are left ("not-run") is drawn too: per exercise, those codes compare as a count."""
    def checks(exercise: dict) -> tuple:
        drawn = ("crash", "not-run")
        fixed = [(c["name"], c["status"], c["code"]) for c in exercise["checks"] if c["code"] not in drawn]
        return fixed, sorted(c["code"] for c in exercise["checks"] if c["code"] in drawn)

    return (record.get("score"), record.get("max_score"), record.get("needs_review"), bool(record.get("error")),
            [(e["id"], e["status"], e["score"], e["code"], checks(e)) for e in record["exercises"]])


@pytest.fixture(scope="module")
def cluster_run(batch_run, tmp_path_factory):
    """The class on `--cluster local:2`; one worker is killed while it grades a submission."""
    pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install -e '.[cluster]'")
    import psutil  # comes with distributed

    from grader.engine.warm import checks_fingerprint

    root = tmp_path_factory.mktemp("cluster")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    for entry in batch_run["submissions"].iterdir():
        if _entry_name(entry) in CLUSTER_CLASS:
            (shutil.copytree(entry, submissions / entry.name, symlinks=True) if entry.is_dir()
             else shutil.copy(entry, submissions / entry.name))
    checks = checks_fingerprint()
    proc = subprocess.Popen([sys.executable, "-m", "grader.cli", "batch", str(submissions), "--out", str(out),
                             "--only", ONLY, "--cluster", "local:2", "--no-warm"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    client = psutil.Process(proc.pid)
    killed, orphans = None, []
    deadline = time.monotonic() + 600
    while killed is None and proc.poll() is None:
        assert time.monotonic() < deadline, "the cluster batch made no progress"
        if len(list((out / "students").glob("*.json"))) >= 2:  # under way: kill a worker inside a check
            try:
                workers = [p for p in client.children() if "spawn_main" in " ".join(p.cmdline())]
                for worker in workers:
                    grading = [c for c in worker.children(recursive=True) if _checks_a_submission(c)]
                    if grading:
                        worker.kill()
                        killed, orphans = worker.pid, grading
                        break
            except psutil.NoSuchProcess:
                pass  # a process ended while we looked: look again
        time.sleep(0.1)
    stdout, stderr = proc.communicate(timeout=900)
    _, alive = psutil.wait_procs(orphans, timeout=30)
    records = {p.stem: json.loads(p.read_text()) for p in (out / "students").glob("*.json")}
    rerun = None
    if checks_fingerprint() == checks:  # else the checks changed under the run (a tree being edited)
        rerun = subprocess.run([sys.executable, "-m", "grader.cli", "batch", str(submissions), "--out", str(out),
                                "--only", ONLY, "--workers", "2", "--no-warm"], capture_output=True, text=True,
                               timeout=600)
    return {"out": out, "records": records, "stdout": stdout, "stderr": stderr, "returncode": proc.returncode,
            "killed": killed, "checks_left_running": alive, "rerun": rerun}


def _checks_a_submission(process) -> bool:
    """An examiner (a pytest process, or the server examiners are forked from), or the subject host and
    its subjects."""
    command = " ".join(process.cmdline())
    return any(part in command for part in ("pytest", "grader.runtime.forkserver", "grader.engine.remote.subject"))


def test_a_cluster_grades_exactly_like_the_local_mode(cluster_run, batch_run):
    assert cluster_run["returncode"] == 0, cluster_run["stderr"]
    for name in CLUSTER_CLASS:
        local = json.loads((batch_run["out"] / "students" / f"{name}.json").read_text())
        remote = cluster_run["records"][name]
        assert _verdicts(remote) == _verdicts(local), name
        assert remote.get("error", "") == local.get("error", ""), name
        if not remote.get("error"):
            assert remote["isolation"] == local["isolation"] and remote["graded_on"], name
    exits = cluster_run["records"]["exits"]
    crashed = exits["exercises"][0]
    assert (crashed["score"], crashed["code"]) == (0, "crash") and "ended the submission's process" in crashed["reason"], \
        "a submission that kills its own check process is a graded 0 with the reason, not a lost worker"
    assert "isolation: " in cluster_run["stdout"]


def test_a_worker_killed_mid_submission_loses_no_row(cluster_run):
    assert cluster_run["killed"], "the kill should land while a worker grades"
    assert "grader: lost Dask worker tcp://" in cluster_run["stderr"], "the batch says it lost a worker"
    assert "grading on 2 local Dask workers: 2 workers on" in cluster_run["stderr"]
    assert not cluster_run["checks_left_running"], "the dead worker's check processes must end with it"
    assert cluster_run["returncode"] == 0 and "not graded" not in cluster_run["stderr"], cluster_run["stderr"]
    rows = _gradebook(cluster_run["out"])
    assert sorted(row["student"] for row in rows) == sorted(CLUSTER_CLASS)


def test_a_rerun_here_skips_what_the_cluster_graded(cluster_run):
    rerun = cluster_run["rerun"]
    if rerun is None:
        pytest.skip("the checks or the grader changed while the cluster graded (files being edited): "
                    "every submission is due again, so there is nothing to skip")
    assert rerun.returncode == 0, rerun.stderr
    assert f"({len(CLUSTER_CLASS)} unchanged)" in rerun.stderr, "the same content hashes in both modes"


def test_a_submission_travels_to_a_worker_unchanged(tmp_path):
    """Each kind of entry, packed here and unpacked elsewhere, hashes the same (the rerun skips it)."""
    from grader.course.submissions import Submission, find_submissions, submission_hash
    from grader.engine.warm import checks_fingerprint
    from grader.course.cluster import pack, unpack_parcel
    from grader.core.limits import Limits
    from grader.core.manifest import load_manifest, select

    folder = tmp_path / "class"
    folder.mkdir()
    make_class(folder)
    link = folder / "linked" / "01_purity"
    link.mkdir(parents=True)
    (link / "global_config.py").symlink_to(SOLUTIONS / "global_config.py")  # graded as missing: stays a link
    shutil.copy(SOLUTIONS / "no_mutation.py", link / "no_mutation.py")
    (link / "__pycache__").mkdir()
    (link / "__pycache__" / "x.pyc").write_bytes(b"never read")
    exercises = select(load_manifest(REPO_ROOT / "exercises"), ONLY)
    fingerprint = checks_fingerprint()
    for submission in find_submissions(folder):
        where = tmp_path / "worker" / submission.name
        where.mkdir(parents=True)
        copy = unpack_parcel(pack(submission), where)
        assert copy.name == submission.path.name
        assert submission_hash(Submission(submission.name, copy), exercises, fingerprint, Limits()) == \
            submission_hash(submission, exercises, fingerprint, Limits()), submission.name
    copied = tmp_path / "worker" / "linked" / "linked" / "01_purity"
    assert (copied / "global_config.py").is_symlink() and not (copied / "__pycache__").exists()


def test_workers_that_would_grade_differently_are_named_with_the_reason():
    from grader.course.cluster import ClusterSpec, differences, environment

    here = environment()
    assert differences(here, dict(here)) == []
    other = {**here, "fingerprint": "0" * 64, "jax": "0.4.30", "problem": "no user named 'katas' on this machine"}
    found = differences(here, other)
    assert any("checks, manifest or grader differ" in f for f in found)
    assert f"jax 0.4.30 (here: {here['jax']})" in found and "no user named 'katas' on this machine" in found
    assert ClusterSpec.parse_local("local:3") == 3
    for wrong in ("local", "local:0", "3", "tcp://host:8786"):
        with pytest.raises(ValueError):
            ClusterSpec.parse_local(wrong)


def test_parcels_unpack_safely_on_a_python_without_tar_filters(tmp_path, monkeypatch):
    """Python before 3.11.4 has no extraction filters: the grader's own check keeps every entry
    inside the folder, as the "tar" filter would."""
    import io
    import tarfile

    from grader.course.cluster import _extract_inside

    def parcel(*names: str) -> tarfile.TarFile:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for name in names:
                info = tarfile.TarInfo(name)
                info.size, info.mode = 2, 0o4777
                tar.addfile(info, io.BytesIO(b"ok"))
        buffer.seek(0)
        return tarfile.open(fileobj=buffer, mode="r:gz")

    monkeypatch.delattr(tarfile, "tar_filter", raising=False)
    inside = tmp_path / "inside"
    inside.mkdir()
    _extract_inside(parcel("01_purity/global_config.py"), inside)
    unpacked = inside / "01_purity" / "global_config.py"
    assert unpacked.read_bytes() == b"ok" and unpacked.stat().st_mode & 0o7022 == 0
    with pytest.raises(ValueError, match="unsafe entry"):
        _extract_inside(parcel("../escaped.py"), inside)
    assert not (tmp_path / "escaped.py").exists()


def test_the_batch_says_when_workers_join_are_lost_or_none_is_there():
    """What `grader batch --scheduler` says while it grades (grader.course.cluster.WorkerWatch), looked at
    with a scripted scheduler and clock."""
    from grader.course.cluster import WorkerWatch

    said, now = [], [0.0]
    looks = iter([{"tcp://a:1": 1, "tcp://b:2": 1}, {"tcp://a:1": 1}, {}, {}, {}, {}, {"tcp://c:3": 1}, {}])
    watch = WorkerWatch(lambda: next(looks), "tcp://lab-01:8786", said.append, known=["tcp://a:1"],
                        remind=30, clock=lambda: now[0])
    for step, waiting in ((0, 5), (2, 5), (2, 5), (20, 5), (20, 4), (20, 4), (2, 4), (2, 0)):
        now[0] += step
        watch.look(waiting)
    assert said == [
        "grader: Dask worker tcp://b:2 joined (2 workers)",
        "grader: lost Dask worker tcp://b:2 (1 worker left); what it was grading goes to another worker",
        "grader: lost Dask worker tcp://a:1 (0 workers left); what it was grading goes to another worker",
        "grader: no Dask worker connected to tcp://lab-01:8786 for 40 s; 4 submissions wait for one to join",
        "grader: Dask worker tcp://c:3 joined (1 worker)",
        "grader: lost Dask worker tcp://c:3 (0 workers left); what it was grading goes to another worker",
    ], said  # nothing left to grade at the last look: no waiting line


def test_the_worker_watch_runs_beside_grading_and_stops_with_it():
    from grader.course.cluster import WorkerWatch

    said = []
    watch = WorkerWatch(dict, "tcp://lab-01:8786", said.append, every=0.01, remind=0.05)
    with watch.running(lambda: 3):
        deadline = time.monotonic() + 10
        while not said and time.monotonic() < deadline:
            time.sleep(0.01)
    assert said and "no Dask worker connected to tcp://lab-01:8786" in said[0] and "3 submissions wait" in said[0]
    count = len(said)
    time.sleep(0.1)
    assert len(said) == count, "the watch stopped with grading"
