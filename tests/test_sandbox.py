"""The sandbox is a wall, not a flag: a submission cannot read answers or its neighbours' files,
outlive its exercise, or cost another exercise a point.

Each case grades the purity topic (the reference solutions with hostile files laid over, from
`tests/fixtures/submissions/`) the way `grader grade` does by default. The namespaces cases need
bubblewrap; CI installs it and sets KATAS_REQUIRE_SANDBOX=1 so that they can never be skipped
there. The fallback (`process`) is graded too, and must say in every output that it is weaker.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.engine import sandbox
from support import PURITY
from grader.engine.grading import grade
from grader.core.limits import Limits

FIXTURES = Path(__file__).parent / "fixtures" / "submissions"
ROOMY = Limits(check_seconds=60, submission_seconds=900)  # a busy machine never fails an honest check
SHORT = Limits(check_seconds=6, hang_grace=2, submission_seconds=300)  # for the endless loop
FEW_FILES = Limits(check_seconds=60, submission_seconds=900, scratch_files=1000)  # the fixture makes 3000
FEW_BYTES = Limits(check_seconds=60, submission_seconds=900, scratch_bytes=32 << 20)  # the fixture writes 64 MiB


def _namespaces() -> sandbox.Isolation:
    try:
        return sandbox.choose(sandbox.NAMESPACES)
    except sandbox.SandboxUnavailable as why:
        if os.environ.get("KATAS_REQUIRE_SANDBOX") == "1":
            raise
        pytest.skip(f"no namespaces sandbox on this machine ({why}); CI installs bubblewrap and runs these")


def _submission(root: Path, fixture: str) -> Path:
    """The purity solutions with the fixture's files laid over them."""
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity")
    shutil.copytree(FIXTURES / fixture, root, dirs_exist_ok=True)
    return root


CASES = {  # name -> (fixture, isolation mode, limits)
    "read_solutions": ("read_solutions", sandbox.NAMESPACES, ROOMY),
    "read_solutions_fallback": ("read_solutions", sandbox.PROCESS, ROOMY),
    "background_processes": ("background_processes", sandbox.NAMESPACES, ROOMY),
    "memory_ramp": ("memory_ramp", sandbox.NAMESPACES, Limits(check_seconds=60, memory_bytes=3 << 30, submission_seconds=900)),
    "import_loop": ("import_loop", sandbox.NAMESPACES, SHORT),
    "many_files": ("many_files", sandbox.NAMESPACES, FEW_FILES),
    "many_files_fallback": ("many_files", sandbox.PROCESS, FEW_FILES),
    "big_files_fallback": ("big_files", sandbox.PROCESS, FEW_BYTES),
}


@pytest.fixture(scope="module")
def graded(runs, tmp_path_factory):
    """Grade every case on the shared workers, all queued at once; name -> (Grade, seconds)."""
    scratch = tmp_path_factory.mktemp("sandbox")
    isolation = {sandbox.NAMESPACES: _namespaces(), sandbox.PROCESS: sandbox.choose(sandbox.PROCESS)}

    def run(name: str):
        fixture, mode, limits = CASES[name]
        folder = _submission(scratch / name, fixture)
        return grade(folder, only=PURITY, limits=limits, isolation=isolation[mode])

    for name in CASES:
        runs.submit(f"sandbox-{name}", run, name)
    return lambda name: runs.get(f"sandbox-{name}")


def _scores(report) -> dict[str, int]:
    return {e.exercise.id: e.score for e in report.exercises}


def test_a_submission_cannot_read_the_reference_solutions(graded):
    report = graded("read_solutions")
    assert report.isolation.mode == sandbox.NAMESPACES
    # Via its own __file__, the grader package's location, sys.path, and a search of the disk.
    assert _scores(report) == {"purity-1": 0, "purity-2": 0, "purity-3": 0, "purity-4": 0}
    assert all("no solutions" in e.reason or "FileNotFoundError" in e.reason for e in report.exercises), \
        [e.reason for e in report.exercises]


def test_the_process_fallback_is_weaker_and_says_so(graded):
    """Without namespaces the grader package's folder leads to solutions/: the outputs must say
    that the submission was not sandboxed."""
    from grader.course import reports

    report = graded("read_solutions_fallback")
    assert report.isolation.mode == sandbox.PROCESS
    assert _scores(report)["purity-2"] == 1, "the find_spec route reaches solutions/ outside the sandbox"
    assert "NOT sandboxed" in reports.table(report)
    document = reports.to_json(report)
    assert document["isolation"]["mode"] == "process" and "NOT sandboxed" in document["isolation"]["guarantee"]
    assert "NOT sandboxed" in reports.to_gradescope(report)["output"]
    classroom = reports.to_classroom(report)
    assert "NOT sandboxed" in classroom["isolation"], "the Classroom result tells instructors"
    assert "NOT sandboxed" not in json.dumps(classroom["runners"]), "and is no line for students"


def _running(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(proc.name))
        except OSError:
            pass  # gone already
    return found


@pytest.mark.parametrize("case", ["many_files", "many_files_fallback"])
def test_too_many_scratch_files_cost_that_exercise_only(graded, case):
    """Memory bounds the bytes of the scratch folders; the subject's keeper bounds their number, and
    empties them, so the exercises graded after it (which may get the same folders) lose nothing."""
    report = graded(case)
    by_id = {e.exercise.id: e for e in report.exercises}
    assert _scores(report) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}, by_id["purity-2"].reason
    assert "more than 1000 files and folders in its scratch folders" in by_id["purity-2"].reason, \
        by_id["purity-2"].reason


def test_bytes_written_past_the_limit_cost_that_exercise_only_without_the_sandbox(graded):
    """Without the sandbox's sized file systems, the keeper bounds each scratch folder's bytes (blocks
    taken), and empties the folders like the file count does."""
    report = graded("big_files_fallback")
    by_id = {e.exercise.id: e for e in report.exercises}
    assert _scores(report) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}, by_id["purity-2"].reason
    assert "more than 32 MiB in one of its scratch folders" in by_id["purity-2"].reason, by_id["purity-2"].reason


def test_no_process_outlives_its_check_process(graded):
    report = graded("background_processes")
    by_id = {e.exercise.id: e for e in report.exercises}
    assert by_id["purity-1"].score == 0, "a right answer that starts processes earns nothing"
    assert by_id["purity-1"].code == "refused", by_id["purity-1"].reason
    deadline = time.monotonic() + 5
    while _running("97.0413") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running("97.0413"), "processes the submission started are still running after grading"
    assert report.needs_review  # and starting processes is up for review


def test_the_subjects_scratch_folders_are_bounded_in_bytes(tmp_path):
    """In the sandbox a subject's home, tmp and cache are file systems in memory of a bounded size:
    writing past it fails, and nothing of it is left outside."""
    isolation = _namespaces()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    write = ("import os, sys\n"
             "try:\n"
             "    with open(sys.argv[1] + '/big', 'wb') as f:\n"
             "        for _ in range(8): f.write(bytes(1 << 20)); f.flush()\n"
             "except OSError as error:\n"
             "    print('refused at', os.path.getsize(sys.argv[1] + '/big'), error.strerror)\n")
    prefix = sandbox.command(isolation, tmp_path, scratch=(scratch,), scratch_bytes=2 << 20)
    done = subprocess.run([*prefix, sys.executable, "-I", "-c", write, str(scratch)], capture_output=True,
                          text=True, timeout=60)
    assert "refused at 2097152 No space left on device" in done.stdout, done.stdout + done.stderr
    assert not any(scratch.iterdir()), "the scratch folder lives in the sandbox only"


def test_running_out_of_memory_costs_only_that_exercise(graded):
    report = graded("memory_ramp")
    assert _scores(report) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}, \
        [(e.exercise.id, e.reason) for e in report.exercises if e.score == 0]
    purity_2 = next(e for e in report.exercises if e.exercise.id == "purity-2")
    assert "used more than 3072 MiB" in purity_2.reason and purity_2.code == "memory-limit"


def test_an_endless_loop_at_import_costs_one_timeout(graded):
    report = graded("import_loop")
    purity_2 = next(e for e in report.exercises if e.exercise.id == "purity-2")
    assert len(purity_2.checks) >= 3
    timed_out = [c for c in purity_2.checks if c.result.code == "timeout"]
    assert len(timed_out) == 1 and "timed out after 6 s in purity-2" in timed_out[0].result.reason
    assert all(c.result.code == "not-run" for c in purity_2.checks if c not in timed_out)
    spent = sum(c.result.duration for c in purity_2.checks)
    assert spent < 2 * SHORT.check_seconds, f"the loop cost {spent:.1f} s, more than one timeout"
    assert _scores(report) == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}


NOSY = '''"""Hostile: runs a classmate's file, by its path on the grading machine or from a live workspace."""
import glob
from pathlib import Path

_candidates = [Path({neighbour!r})] + [Path(p) for p in glob.glob("/tmp/katas-grade-*/ws/submission/{rel}")]
_found = next((p for p in _candidates if p.is_file() and p.resolve() != Path(__file__).resolve()), None)
if _found is None:
    raise ImportError("no classmate within reach")
exec(compile(_found.read_text(), str(_found), "exec"))
'''


def test_in_a_batch_no_student_can_read_another_students_files(tmp_path):
    from grader.course.batch import run_batch

    isolation = _namespaces()
    subs = tmp_path / "subs"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", subs / "honest" / "01_purity")
    for entry in PURITY:
        path = subs / "nosy" / entry.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(NOSY.format(neighbour=str(subs / "honest" / entry.path), rel=entry.path))
    out = tmp_path / "grades"
    assert run_batch(subs, out, PURITY, ROOMY, workers=2, regrade=True, user=None, isolation=isolation) == 0
    scores = {name: json.loads((out / "students" / f"{name}.json").read_text())["score"]
              for name in ("honest", "nosy")}
    assert scores == {"honest": 4, "nosy": 0}


def test_grading_says_which_isolation_it_used(tmp_path):
    """`grader grade --json` records the mode; forcing the fallback is possible and visible."""
    root = tmp_path / "sub"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity")
    out = tmp_path / "r.json"
    env = {**os.environ, "KATAS_ISOLATION": "process"}
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(root), "--only", "purity-2",
                           "--json", str(out)], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "isolation: process: NOT sandboxed" in proc.stdout
    assert json.loads(out.read_text())["isolation"]["mode"] == "process"


def test_doctor_reports_the_isolation_and_that_jax_starts_inside_it():
    env = {**os.environ}
    env.pop("KATAS_ISOLATION", None)
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "doctor", "--json"], capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found["jax"].startswith("0.10") and found["check_process"]["starts"]
    assert "8 cpu devices" in found["check_process"]["said"]
    expected = sandbox.choose().mode
    assert found["isolation"] == expected
    forced = subprocess.run([sys.executable, "-m", "grader.cli", "doctor"], capture_output=True, text=True,
                            timeout=300, env={**env, "KATAS_ISOLATION": "process"})
    assert "isolation      process: NOT sandboxed" in forced.stdout and "install bubblewrap" in forced.stdout


PEEK = '''
import os, sys
sealed = sys.argv[1]
try:
    print("listed", os.listdir(sealed))
except PermissionError:
    print("cannot list")
try:
    os.chmod(sealed, 0o755)
    print("changed")
except OSError:
    print("cannot change")
print("by key:", open(os.path.join(sealed, "jit_answer-0123abcd-cache")).read())
'''


def test_sealed_programs_open_by_key_but_cannot_be_listed(tmp_path):
    """The warm programs include every reference solution's: inside the sandbox a submission gets
    one only by its key (the hash of the program it is compiling), never by looking around."""
    from grader.engine.warm import seal, unseal

    isolation = _namespaces()
    sealed = tmp_path / "warm" / "sealed"
    sealed.mkdir(parents=True)
    (sealed / "jit_answer-0123abcd-cache").write_text("compiled answer")
    (tmp_path / "ws").mkdir()
    seal(sealed)
    try:
        prefix = sandbox.command(isolation, tmp_path / "ws", readable=(sealed,))
        done = subprocess.run([*prefix, sys.executable, "-I", "-c", PEEK, str(sealed)], capture_output=True,
                              text=True, timeout=120)
    finally:
        unseal(sealed)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["cannot list", "cannot change", "by key: compiled answer"], done.stdout


def test_the_sandbox_says_what_the_submission_sees_and_no_more(tmp_path):
    """What every output prints for the namespaces mode is what the wall does: the submission's
    process opens its own exercise files, never the checks beside them in its workspace."""
    from grader.engine.workspace import build_workspace

    isolation = _namespaces()
    assert "never the checks" in isolation.guarantee and "the checks and" not in isolation.guarantee
    entry = PURITY[0]
    workspace, _ = build_workspace(tmp_path / "ws", REPO_ROOT, (entry,), REPO_ROOT / "solutions")
    check, own = workspace.checks / entry.check_path, workspace.submission / entry.path
    assert check.is_file() and own.is_file()
    peek = ("import sys\nfor path in sys.argv[1:]:\n    try:\n        open(path).read(); print('read', path)\n"
            "    except OSError as error:\n        print('refused', path, type(error).__name__)\n")
    inside = sandbox.command(isolation, workspace.subject_root, writable=workspace.subject_writable)
    done = subprocess.run([*inside, sys.executable, "-I", "-c", peek, str(own), str(check)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"read {own}", f"refused {check} FileNotFoundError"], done.stdout
