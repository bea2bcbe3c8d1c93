"""docs/instructors.md's walkthrough, end to end, on a fork of this repository: a new kata written
with `grader new` (a linear recurrence with lax.associative_scan), proved with `grader check
--mutate` (a survivor, written out with `--survivors`, then a check that rejects it), the
assignments regrouped with one renamed, a release of the new assignment, `grader batch` of two
students with a roster, Canvas's and Moodle's files; then the fork's own manifest, assignment and
README tests pass in the fork.

The commands run in the fork with the fork installed (its grader, never this checkout's), and only
the new assignment's one exercise is graded, to stay fast.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.core.manifest import parse_course
from lms import canvas_import
from support import PRISTINE

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

STUB = '''"""recur-1: a linear recurrence in log depth, with lax.associative_scan.

h[t] = a[t] * h[t-1] + b[t] (h[-1] = 0) looks sequential: a Python loop or
lax.scan takes n steps, one after the other. But the step (a, b) composes
associatively: doing (a1, b1) then (a2, b2) is (a1 * a2, a2 * b1 + b2).
lax.associative_scan combines neighbours pairwise in a tree, log2(n) levels
deep, each level parallel work that XLA can vectorize.

Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.associative_scan.html

Task (fill-in): write `linear_recurrence(a, b)`, returning every h[t], jitted,
with lax.associative_scan over the pairs (a, b) (keep its name and arguments).
"""

import jax
from jax import lax


def linear_recurrence(a: jax.Array, b: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: lax.associative_scan over (a, b) with the composed step, jitted")
'''

SOLUTION = '''"""Reference solution for recur-1: the step composes associatively, so scan it as a tree."""

import jax
from jax import lax


def _compose(earlier, later):
    a1, b1 = earlier
    a2, b2 = later
    return a1 * a2, a2 * b1 + b2


@jax.jit
def linear_recurrence(a: jax.Array, b: jax.Array) -> jax.Array:
    _, h = lax.associative_scan(_compose, (a, b))
    return h
'''

CHECKS = '''"""Checks for recur-1 (linear_recurrence): values, and a tree, not a sequential loop."""

import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(0)
A = RNG.uniform(0.5, 1.0, 16).astype(np.float32)
B = RNG.normal(size=16).astype(np.float32)


def _expected():
    h, out = 0.0, []
    for a, b in zip(A, B):
        h = a * h + b
        out.append(h)
    return np.asarray(out, np.float32)


def test_values(exercise):
    checks.assert_close(exercise.linear_recurrence(jnp.asarray(A), jnp.asarray(B)), _expected(),
                        what="linear_recurrence(a, b)", rtol=1e-5, atol=1e-5)


def test_no_sequential_loop(exercise):
    program = checks.program_of(exercise.linear_recurrence, jnp.asarray(A), jnp.asarray(B),
                                what="linear_recurrence(a, b)")
    checks.assert_not_uses(program, {"scan", "while"}, what="linear_recurrence(a, b)",
                           why="a scan or while loop takes one step after another, n deep: combine the composed "
                               "steps with lax.associative_scan, log2(n) levels deep")
'''

COMPILE_CHECK = '''

def test_jitted(exercise):
    checks.assert_jitted(exercise.linear_recurrence, jnp.asarray(A), jnp.asarray(B), what="linear_recurrence(a, b)")
'''

MIMIC = '''"""Right values, sequentially: lax.scan takes the n steps one after the other."""

import jax
from jax import lax


@jax.jit
def linear_recurrence(a, b):
    def step(h, ab):
        h = ab[0] * h + ab[1]
        return h, h

    return lax.scan(step, 0.0, (a, b))[1]
'''

SCAN_MUTANT = '''"""Wrong twice: a sequential lax.scan, and a step that forgets to decay h by a[t]."""

import jax
from jax import lax


@jax.jit
def linear_recurrence(a, b):
    def step(h, ab):
        h = h + ab[1]
        return h, h

    return lax.scan(step, 0.0, (a, b))[1]
'''

MUTANT = '''"""Wrong: composes the steps in the wrong order (a1 * b2 for a2 * b1)."""

import jax
from jax import lax


@jax.jit
def linear_recurrence(a, b):
    _, h = lax.associative_scan(lambda x, y: (x[0] * y[0], x[0] * y[1] + x[1]), (a, b))
    return h
'''


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTEST_", "PYTHON", "JAX_", "XLA_")) and k != "VIRTUAL_ENV"}


def _install(fork: Path) -> Path:
    """A virtualenv where `import grader` is the fork's, as `pip install -e` of the fork gives (its
    folder on the path), seeing this environment's JAX; none of this checkout's install is seen."""
    venv = fork.parent / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    (packages,) = venv.glob("lib/python3*/site-packages")
    (packages / "_katas_outer.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    (packages / "_katas_fork.pth").write_text(f"{fork}\n")
    return venv / "bin" / "python"


def _run(fork: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([fork.parent / "venv" / "bin" / "python", *args], cwd=fork, env=_env(),
                          capture_output=True, text=True, timeout=300)


def _grader(fork: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(fork, "-m", "grader.cli", *args)


def _git(fork: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Instructor", "-c", "user.email=instructor@uni.example", *args],
                   cwd=fork, check=True, capture_output=True, timeout=60)


def _fork(root: Path) -> Path:
    """This repository's tracked files, its stubs as committed, in a new git repository."""
    fork = root / "fork"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True,
                             timeout=60).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        source = REPO_ROOT / rel
        if source.is_file():
            (fork / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, fork / rel)
    shutil.copytree(PRISTINE / "exercises", fork / "exercises", dirs_exist_ok=True)
    _git(fork, "init", "-q")
    _git(fork, "add", "-A")
    _git(fork, "commit", "-qm", "fork")
    return fork


def _regroup(manifest: Path) -> None:
    """Rename week-6 to `finale` and hand the new topic out as an assignment of its own."""
    text = manifest.read_text()
    assert text.count('name = "week-6"') == 1
    text = text.replace('name = "week-6"', 'name = "finale"')
    text = text.replace('concept = "one line: the JAX idea this exercise teaches (rewrite it)"',
                        'concept = "a linear recurrence in log depth: lax.associative_scan over composed steps"')
    manifest.write_text(text + '\n[[assignment]]\nname = "recurrences"\nexercises = ["recurrences"]\n')


def test_the_instructors_walkthrough_on_a_fork(tmp_path):
    fork = _fork(tmp_path)
    _install(fork)
    where = _run(fork, "-c", "import grader; print(grader.REPO_ROOT)")
    assert Path(where.stdout.strip()) == fork.resolve(), "the commands must run the fork's grader"

    # 1. Scaffold: five files, the manifest entry and the README's count.
    done = _grader(fork, "new", "recur-1", "--topic", "recurrences", "--file", "linear_recurrence")
    assert done.returncode == 0, done.stderr
    assert "in no assignment yet" in done.stdout and "README.md (its count" in done.stdout, done.stdout
    folder = "20_recurrences"
    variants = fork / "tests" / "variants" / folder / "linear_recurrence"
    for path in variants.iterdir():
        path.unlink()
    files = {f"exercises/{folder}/linear_recurrence.py": STUB, f"exercises/{folder}/test_linear_recurrence.py": CHECKS,
             f"solutions/{folder}/linear_recurrence.py": SOLUTION, f"{variants}/mimic_sequential_scan.py": MIMIC,
             f"{variants}/mutant_composes_backwards.py": MUTANT, f"{variants}/mutant_scan_forgets_decay.py": SCAN_MUTANT}
    for rel, text in files.items():
        (fork / rel).write_text(text)
    _regroup(fork / "exercises" / "manifest.toml")
    _git(fork, "add", "-A")

    # 2-5. Prove it, with mutants: sound, but blind to an unjitted answer.
    survivors, report = tmp_path / "survivors", tmp_path / "mutation.json"
    done = _grader(fork, "check", "recur-1", "--mutate", "--survivors", str(survivors), "--report", str(report))
    assert done.returncode == 1, done.stdout + done.stderr
    (result,) = json.loads(report.read_text())["exercises"]
    assert result["problems"] == [], result["problems"]
    assert "drop-jit@linear_recurrence" in [s["name"] for s in result["survivors"]], done.stdout
    unjitted = (survivors / "recur-1" / "drop-jit@linear_recurrence.py").read_text()
    assert "associative_scan" in unjitted and "@jax.jit" not in unjitted
    with open(fork / "exercises" / folder / "test_linear_recurrence.py", "a") as checks:
        checks.write(COMPILE_CHECK)  # the blind spot, closed, and the survivor kept: the new check must reject it
    (variants / "mutant_not_jitted.py").write_text('"""Not jitted: the tree of steps runs op by op."""'
                                                  + unjitted.split('"""', 2)[2])
    _git(fork, "add", "-A")
    done = _grader(fork, "check", "recur-1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok    recur-1" in done.stdout

    # 6. Release the new assignment.
    release = tmp_path / "release"
    done = _grader(fork, "release", str(release), "--assignment", "recurrences")
    assert done.returncode == 0, done.stderr
    released = parse_course((release / "exercises" / "manifest.toml").read_bytes())
    assert [e.id for e in released.exercises] == ["recur-1"]
    readme = (release / "README.md").read_text()
    assert f"pytest exercises/{folder}" in readme and "01_purity" not in readme and "solutions.pack" not in readme

    # Grading: two students, a roster, the LMS files.
    submissions = tmp_path / "submissions"
    for name, source in (("ada-gh", SOLUTION), ("ben-gh", STUB)):
        (submissions / name / "exercises" / folder).mkdir(parents=True)
        (submissions / name / "exercises" / folder / "linear_recurrence.py").write_text(source)
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,name,student_id,login\nada-gh,\"Lovelace, Ada\",20230017,alovelace\n"
                      "ben-gh,Ben O'Neil,20230018,boneil\n")
    grades = tmp_path / "grades"
    done = _grader(fork, "batch", str(submissions), "--out", str(grades), "--assignment", "recurrences",
                   "--roster", str(roster), "--no-warm", "--workers", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    with open(grades / "gradebook.csv", newline="") as handle:
        scores = {row["student"]: (row["total"], row["max"]) for row in csv.DictReader(handle)}
    assert scores == {"ada-gh": ("1", "1"), "ben-gh": ("0", "1")}, scores
    canvas = canvas_import((grades / "canvas.csv").read_bytes())
    assert canvas["assignments"] == {"recurrences": 1.0}
    assert {sis: grade["recurrences"] for _, sis, _, _, grade in canvas["students"]} == \
        {"20230017": 1.0, "20230018": 0.0}
    moodle = (grades / "moodle.csv").read_text(encoding="utf-8-sig")
    assert "recurrences" in moodle and "alovelace" in moodle and "boneil" in moodle

    # The fork's own tests follow its manifest: the new kata, the regrouped assignments, the README.
    _git(fork, "add", "-A")
    suite = _run(fork, "-m", "pytest", "-v", "tests/test_manifest.py", "tests/test_assignments.py",
                 "-k", "not batch_of_one_assignment")  # that one grades: the batch above did
    assert suite.returncode == 0, suite.stdout[-4000:] + suite.stderr[-2000:]
    assert "test_entry_has_stub_checks_and_solution[recur-1] PASSED" in suite.stdout, "the fork's tests read its manifest"
