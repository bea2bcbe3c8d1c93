"""Course set-up: `grader release`, `grader classroom-workflow`, `grader gradescope-bundle`.

The release and the bundle are installed the way a student or Gradescope
installs them, `pip install -e` into a new virtualenv, and then used there.
To keep that to seconds, the virtualenv sees this environment's
site-packages (what `--system-site-packages` does for a system Python) and
the install is `--no-deps`: JAX is not downloaded again, but the package is
genuinely built (pip fetches setuptools for it, as for any install) and
installed, and the tests check that `grader` imports from the release. Grading is narrowed to the purity topic: one short check
process per run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest
import yaml

from grader import REPO_ROOT
from grader.course import reports
from support import PRISTINE
from grader.course.classroom import (arrange_upload, constraints, pinned_paths, release_files, resolved_versions,
                                     step_minutes)
from grader.core.limits import Limits
from grader.core.manifest import load_manifest, select
from grader.core.solutions import PACK_NAME, read_solution
from reporter import REPORTER, SKIP_REASON, reporter_view, run_reporter
from support import ALL_EXERCISES, PURITY, PURITY_IDS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

FIXTURES = Path(__file__).parent / "fixtures" / "submissions"
SCHEMAS = Path(__file__).parent / "schemas"
TOTAL = sum(e.points for e in ALL_EXERCISES)


def _env(venv: Path | None = None) -> dict[str, str]:
    """This environment without what would steer Python, pytest or JAX in the child."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "PYTHON", "JAX_", "XLA_")) and k != "VIRTUAL_ENV"}
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(args: list, cwd: Path, venv: Path | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=kwargs.pop("env", None) or _env(venv),
                          capture_output=True, text=True, timeout=240, **kwargs)


def _grader(*args, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", "grader.cli", *args], cwd)


def install(project: Path, venv: Path) -> Path:
    """A new virtualenv with `project` installed editable, seeing this environment's JAX."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    (packages,) = venv.glob("lib/python3*/site-packages")
    (packages / "_katas_outer.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    proc = _run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-deps", "-e", project],
                cwd=venv)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    where = _run([venv / "bin" / "python", "-c", "import grader; print(grader.REPO_ROOT)"], cwd=venv)
    assert Path(where.stdout.strip()) == project.resolve(), "grader must import from the installed project"
    return venv


def _purity_submission(root: Path, *, stubs: tuple[str, ...] = (), fixture: str | None = None) -> Path:
    """The purity solutions in `root/01_purity`, some reset to stubs, a hostile fixture laid over."""
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity", dirs_exist_ok=True)
    for name in stubs:
        shutil.copy(PRISTINE / "exercises" / "01_purity" / name, root / "01_purity" / name)
    if fixture:
        shutil.copytree(FIXTURES / fixture, root, dirs_exist_ok=True)
    return root


# --- the student release ---------------------------------------------------------------


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("release") / "course"
    proc = _grader("release", out, "--from", PRISTINE)  # the untouched stubs, whatever a learner did
    assert proc.returncode == 0, proc.stderr
    return out


def _files(folder: Path) -> dict[str, Path]:
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def test_release_holds_what_a_student_needs(release):
    files = _files(release)
    for path in ("README.md", ".gitignore", "conftest.py", "pyproject.toml", "constraints.txt",
                 "exercises/manifest.toml", "grader/cli/__init__.py", "grader/plugin/__init__.py",
                 ".github/workflows/classroom.yml"):
        assert path in files, f"the release lacks {path}"
    for entry in ALL_EXERCISES:
        assert files[f"exercises/{entry.path}"].read_bytes() == (PRISTINE / "exercises" / entry.path).read_bytes()
        assert f"exercises/{entry.check_path}" in files
    readme = (release / "README.md").read_text()
    for topic in ("pip install -e .", "pytest exercises/01_purity", "hint", "How you are graded", str(TOTAL)):
        assert topic in readme
    pytest_options = tomllib.loads((release / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert pytest_options["testpaths"] == ["exercises"] and "pythonpath" not in pytest_options


def test_release_has_no_solutions_hidden_checks_or_project_tests(release):
    files = _files(release)
    assert not [p for p in files if p.startswith(("solutions/", "tests/", "benchmarks/", "docs/"))]
    assert f"exercises/{PACK_NAME}" not in files, "solutions ship only with --with-solutions"
    assert not [p for p in files if Path(p).name.startswith("hidden_test_")]
    texts = {p: f.read_bytes() for p, f in files.items() if p != f"exercises/{PACK_NAME}"}
    # What a learner is meant to read: stubs, README, config (checks may quote a call, hints may show
    # the fix, the grader is code of its own).
    readable = {p: data for p, data in texts.items() if not p.startswith("grader/")
                and not Path(p).name.startswith("test_") and p != "exercises/manifest.toml"}
    stubs = "\n".join((PRISTINE / "exercises" / e.path).read_text() for e in ALL_EXERCISES)
    for entry in ALL_EXERCISES:
        solution = (REPO_ROOT / "solutions" / entry.path).read_text()
        # The lines only answers have (no stub gives them away, say in a TODO), long enough to be distinctive.
        answer = [line.strip() for line in solution.splitlines()
                  if len(line.strip()) > 30 and line.strip() not in stubs]
        for path, data in texts.items():
            assert solution.encode() not in data, f"{path} holds the solution of {entry.id}"
        for path, data in readable.items():
            leaked = [line for line in answer if line.encode() in data]
            assert not leaked, f"{path} holds lines of {entry.id}'s solution: {leaked}"



def test_a_release_with_solutions_packs_them_for_grader_solution(tmp_path):
    from grader.course.classroom import release_files

    files = release_files(with_solutions=True)
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / PACK_NAME).write_bytes(files[f"exercises/{PACK_NAME}"])
    for entry in ALL_EXERCISES:
        solution = (REPO_ROOT / "solutions" / entry.path).read_text()
        assert solution.encode() not in files[f"exercises/{PACK_NAME}"], "the pack must not be plain text"
        assert read_solution(tmp_path, entry) == solution, "`grader solution` reads it back from the pack"


def test_installed_release_fails_until_solved_then_passes(release, tmp_path_factory):
    """In a fresh virtualenv: `pytest` and `grader` fail every purity exercise, then pass on the solutions."""
    course = tmp_path_factory.mktemp("student") / "course"
    shutil.copytree(release, course)
    venv = install(course, tmp_path_factory.mktemp("venv") / "venv")

    python = venv / "bin" / "python"  # the virtualenv's: `pytest` on PATH could be another one
    stubs = _run([python, "-m", "pytest", "-q", "-rf", "exercises/01_purity"], course, venv)
    assert stubs.returncode == 1, stubs.stdout[-3000:]
    for entry in PURITY:  # every exercise fails at least one check
        assert f"FAILED exercises/{entry.check_path}::" in stubs.stdout, stubs.stdout[-3000:]
    graded = _run(["grader", "--only", PURITY_IDS, "--json", "before.json"], course, venv)
    assert graded.returncode == 0, graded.stderr
    before = json.loads((course / "before.json").read_text())
    assert before["score"] == 0 and all(e["status"] == "failed" for e in before["exercises"])
    solution = (REPO_ROOT / "solutions" / PURITY[0].path).read_text()
    hidden = _run(["grader", "solution", PURITY[0].id], course, venv)
    assert solution.strip().splitlines()[-1] not in hidden.stdout, "shown before the exercise passes"

    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", course / "exercises" / "01_purity", dirs_exist_ok=True)
    solved = _run([python, "-m", "pytest", "-q", "exercises/01_purity"], course, venv)
    assert solved.returncode == 0, solved.stdout[-3000:]
    graded = _run(["grader", "--only", PURITY_IDS], course, venv)
    assert graded.returncode == 0 and "total: 4 / 4 points" in graded.stdout, graded.stdout + graded.stderr

    progress = _run(["grader", "progress"], course, venv)
    assert progress.returncode == 0 and "purity-1" in progress.stdout, progress.stdout + progress.stderr
    shown = _run(["grader", "solution", PURITY[0].id], course, venv)
    assert shown.returncode == 2 and "carries no reference solutions" in shown.stderr, shown.stderr


def _repo_copy(tmp_path: Path) -> Path:
    """The parts of this repository a release is built from, to break on purpose."""
    repo = tmp_path / "repo"
    for folder in ("exercises", "solutions", "grader"):
        shutil.copytree(PRISTINE / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy(REPO_ROOT / name, repo / name)
    return repo


def _project_requirements() -> list[str]:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]


def test_constraints_pin_every_package_the_install_needs_as_installed_here():
    from importlib.metadata import distribution

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = dict(line.split("==") for line in constraints().splitlines() if not line.startswith("#"))
    assert {"jax", "jaxlib", "scipy", "ml-dtypes", "pluggy"} <= set(pins), "dependencies of dependencies too"
    for name, version in pins.items():
        assert distribution(name).version == version, f"{name}: pinned {version}, the suite runs on another"
        for text in distribution(name).requires or ():
            needed = Requirement(text)
            if needed.marker and not needed.marker.evaluate({"extra": ""}):
                continue
            wanted = canonicalize_name(needed.name)
            assert wanted in pins, f"{name} needs {needed}, which constraints.txt leaves floating"
            assert needed.specifier.contains(pins[wanted], prereleases=True), f"{name} needs {needed}"
    for text in _project_requirements():
        assert canonicalize_name(Requirement(text).name) in pins


def test_constraints_install_as_they_are_and_a_conflict_is_refused(tmp_path):
    """pip resolves the project's requirements under the constraints from what is installed here,
    with no index: nothing in them asks for another version. A pin that conflicts fails the same run."""
    written = tmp_path / "constraints.txt"
    written.write_text(constraints())

    def dry_run() -> subprocess.CompletedProcess:
        return _run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--disable-pip-version-check",
                     "-c", written, *_project_requirements()], tmp_path)

    done = dry_run()
    assert done.returncode == 0 and "Would install" not in done.stdout, done.stdout + done.stderr
    written.write_text(written.read_text().replace("scipy==", "scipy==0.1.0\n# was scipy=="))
    assert dry_run().returncode != 0, "a pin the installed packages do not satisfy must fail the check"


def test_release_refuses_packages_outside_the_ranges():
    from grader.core.selection import UsageProblem

    with pytest.raises(UsageProblem, match="numpy .* is installed but numpy<1 is needed"):
        resolved_versions(["jax>=0.10.2,<0.11", "numpy<1"])


def test_release_refuses_a_solved_stub_or_missing_solutions(tmp_path):
    from grader.core.selection import UsageProblem

    repo = _repo_copy(tmp_path)
    first = ALL_EXERCISES[0].path
    shutil.copy(repo / "solutions" / first, repo / "exercises" / first)
    with pytest.raises(UsageProblem, match="identical to its solution"):
        release_files(repo)
    shutil.rmtree(repo / "solutions")
    with pytest.raises(UsageProblem, match="no solutions/ folder"):
        release_files(repo)


@pytest.mark.parametrize("args, message", [
    (["release", "{nonempty}"], "is not empty"),
    (["classroom-workflow", "--only", "no-such-exercise"], "no exercise 'no-such-exercise'"),
    (["classroom-workflow", "--release", "{nonempty}"], "not a release folder"),
    (["classroom-workflow", "--timeout", "0"], "must be positive"),
    (["gradescope-bundle", "{nonempty}/autograder.tar"], "should end in .zip"),
    (["gradescope-bundle", "{nonempty}/missing/autograder.zip"], "is not a folder"),
])
def test_usage_problems_exit_2_with_the_reason(tmp_path, args, message):
    (tmp_path / "notes.txt").write_text("mine")
    proc = _grader(*[a.replace("{nonempty}", str(tmp_path)) for a in args])
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["release", "classroom-workflow", "gradescope-bundle"])
def test_each_command_has_help_with_an_example(command):
    proc = _grader(command, "--help")
    assert proc.returncode == 0 and "examples:" in proc.stdout and f"grader {command}" in proc.stdout


# --- the GitHub Classroom workflow -------------------------------------------------------


def _workflow(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def _steps(workflow: dict) -> dict[str, dict]:
    return {step["name"]: step for step in workflow["jobs"]["run-autograding-tests"]["steps"]}


def test_workflow_pins_the_checks_and_reports_every_point(release):
    workflow = _workflow(release / ".github/workflows/classroom.yml")
    assert workflow["name"] == "Autograding Tests"
    assert set(workflow["on"]) >= {"push", "repository_dispatch"}
    assert workflow["permissions"] == {}, "the workflow grants nothing by default"
    job = workflow["jobs"]["run-autograding-tests"]
    assert job["permissions"] == {"contents": "read"}, "the job reads the repository, nothing else"
    assert job["if"] == "github.actor != 'github-classroom[bot]'"
    steps = _steps(workflow)
    assert list(steps) == ["Checkout code", "Set up Python", "Copy the pinned checks and grader",
                           "Install the grader", "Grade", "Autograding Reporter"]
    assert steps["Checkout code"]["with"]["persist-credentials"] is False
    assert tuple(map(int, steps["Set up Python"]["with"]["python-version"].split("."))) >= (3, 11)

    # Every file grading depends on is pinned, with the hash of what was released.
    copy = steps["Copy the pinned checks and grader"]["run"]
    listed = copy.split("<<'PINNED'\n", 1)[1].split("\nPINNED\n", 1)[0].splitlines()
    pins = dict(reversed(line.split("  ", 1)) for line in listed)
    released = {p: f.read_bytes() for p, f in _files(release).items()}
    assert sorted(pins) == pinned_paths(released, ALL_EXERCISES)
    assert {p: hashlib.sha256(released[p]).hexdigest() for p in pins} == pins
    assert {"exercises/manifest.toml", "grader/engine/grading.py", "pyproject.toml", "constraints.txt"} <= set(pins)
    assert not {f"exercises/{e.path}" for e in ALL_EXERCISES} & set(pins), "stubs are the student's to edit"
    assert all(e.check_path in " ".join(pins) for e in ALL_EXERCISES)

    # Points: the manifest's total, checked against the result before it is reported.
    assert workflow["env"]["KATAS_MAX_SCORE"] == str(TOTAL)
    grade = steps["Grade"]
    assert grade["id"] == "katas" and '--classroom "$KATAS_HOME/classroom.json"' in grade["run"]
    reporter = steps["Autograding Reporter"]
    assert reporter["uses"].startswith("classroom-resources/autograding-grading-reporter@")
    assert reporter["with"]["runners"] == "${{ steps.katas.outputs.runners }}"
    runners = [reports.classroom_runner(e) for e in ALL_EXERCISES]
    assert workflow["env"]["KATAS_RUNNERS"] == ",".join(runners)
    assert reporter["env"] == {f"{name.upper()}_RESULTS": f"${{{{ steps.katas.outputs.{name} }}}}"
                               for name in [*runners, reports.REVIEW_RUNNER]}, "one runner per exercise"

    # Student code: unprivileged, no inherited environment, output fenced off from workflow commands.
    assert workflow["env"]["KATAS_SANDBOX_USER"] and "sudo -n env -i" in grade["run"]
    assert grade["run"].index('echo "::stop-commands::$token"') < grade["run"].index("grader\" grade") \
        < grade["run"].index('echo "::$token::"')

    # Time limits nest: the grader's own limit < the grading step's < the job's.
    assert "--submission-timeout 1800" in grade["run"] and "--timeout 60" in grade["run"]
    assert grade["timeout-minutes"] == step_minutes(Limits()) and grade["timeout-minutes"] * 60 > 1800
    assert job["timeout-minutes"] >= sum(s.get("timeout-minutes", 0) for s in steps.values()) + 2


def test_workflow_actions_are_pinned_to_commits_with_their_tag(release):
    text = (release / ".github/workflows/classroom.yml").read_text()
    uses = re.findall(r"^\s*uses: (\S+?)@(\S+)(.*)$", text, re.M)
    assert {action for action, _, _ in uses} == {"actions/checkout", "actions/setup-python",
                                                 "classroom-resources/autograding-grading-reporter"}
    for action, ref, comment in uses:
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{action} is pinned by a movable ref {ref!r}, not a commit"
        assert re.fullmatch(r"\s+# v[0-9]+(\.[0-9]+)*", comment), f"{action}@{ref} does not say which release it is"


def test_workflow_caches_pip_downloads_by_the_constraints(release):
    python = _steps(_workflow(release / ".github/workflows/classroom.yml"))["Set up Python"]["with"]
    assert python["cache"] == "pip" and python["cache-dependency-path"] == "constraints.txt"
    assert (release / python["cache-dependency-path"]).is_file(), "the cache key is a file of the release"


def test_workflow_updates_apt_before_installing_bubblewrap(release, tmp_path):
    """Run where bwrap is missing (a runner image without it), with `sudo` logging what it is asked:
    the package lists are fetched first, as a fresh runner needs; where bwrap is there, nothing is."""
    copy = _steps(_workflow(release / ".github/workflows/classroom.yml"))["Copy the pinned checks and grader"]["run"]
    lines = copy.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("command -v bwrap"))
    end = next(n for n in range(start, len(lines)) if lines[n].rstrip().endswith("|| true"))
    install = "\n".join(lines[start:end + 1])
    log = tmp_path / "sudo.log"
    (tmp_path / "sudo").write_text(f'#!/bin/sh\necho "$*" >> {log}\n')
    (tmp_path / "sudo").chmod(0o755)
    env = {**_env(), "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    missing = _bash('command() { [ "$1 $2" != "-v bwrap" ] && builtin command "$@"; }\n' + install, tmp_path, env)
    assert missing.returncode == 0, missing.stderr
    assert log.read_text().splitlines() == ["-n apt-get update -q", "-n apt-get install -y -q bubblewrap"]
    log.unlink()
    (tmp_path / "bwrap").write_text("#!/bin/sh\n")
    (tmp_path / "bwrap").chmod(0o755)
    there = _bash(install, tmp_path, env)
    assert there.returncode == 0 and not log.exists(), "bubblewrap there: apt is left alone"


def _script_env(workflow: dict, home: Path, workspace: Path, output: Path, fake_bin: Path) -> dict[str, str]:
    """The workflow's own environment, with a runner's variables and the two stand-ins' places."""
    env = {**_env(), **workflow["env"]}
    env.update(KATAS_HOME=str(home), KATAS_SANDBOX_USER="", GITHUB_WORKSPACE=str(workspace),
               GITHUB_OUTPUT=str(output), PATH=f"{fake_bin}{os.pathsep}{env['PATH']}")
    return env


def _bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A `run:` step as Actions runs it with `shell: bash`."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=240)


@pytest.fixture(scope="module")
def runner(release, tmp_path_factory):
    """The workflow's own scripts on a student's checkout, as a runner would run them.

    Two stand-ins: `sudo` runs its command as is (so no sandbox user), and the
    install step becomes `install()` above (no download of JAX). The workflow
    grades purity-1..4 only, to stay fast.
    """
    scratch = tmp_path_factory.mktemp("actions")
    checkout = scratch / "checkout"
    shutil.copytree(release, checkout)
    workflow = checkout / ".github/workflows/classroom.yml"
    proc = _grader("classroom-workflow", "--release", checkout, "--only", PURITY_IDS, "--out", workflow)
    assert proc.returncode == 0, proc.stderr
    _purity_submission(checkout / "exercises", stubs=("debug_print.py",))
    # A failure whose message tries to be a workflow command, and a planted file.
    (checkout / "exercises/01_purity/no_mutation.py").write_text(
        "def sgd_update(params, grads, lr):\n    raise ValueError('::error::forged\\n::add-mask::x')\n")
    (checkout / "exercises/01_purity/conftest.py").write_text("raise SystemExit('planted')\n")
    fake_bin = scratch / "bin"
    fake_bin.mkdir()
    (fake_bin / "sudo").write_text('#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n')
    (fake_bin / "sudo").chmod(0o755)
    home, output = scratch / "opt-katas", scratch / "github_output"
    output.touch()
    env = _script_env(_workflow(workflow), home, checkout, output, fake_bin)
    steps = _steps(_workflow(workflow))
    copied = _bash(steps["Copy the pinned checks and grader"]["run"], checkout, env)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    install(home, home / "venv")
    graded = _bash(steps["Grade"]["run"], checkout, env)
    return {"checkout": checkout, "home": home, "env": env, "steps": steps, "graded": graded, "output": output}


def test_workflow_copies_only_pinned_files_and_grades_with_them(runner):
    home = runner["home"]
    assert (home / "exercises/manifest.toml").is_file() and (home / "grader/engine/grading.py").is_file()
    assert not (home / "exercises/01_purity/conftest.py").exists(), "a planted file reached the grader"
    assert not (home / "exercises/01_purity/no_mutation.py").exists(), "stubs come from the submission only"
    graded = runner["graded"]
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert "total: 2 / 4 points" in graded.stdout and graded.stdout.rstrip().endswith("2 / 4 points")


def _step_outputs(runner) -> dict[str, str]:
    return dict(line.split("=", 1) for line in runner["output"].read_text().splitlines())


def test_workflow_results_are_the_reporters_input_with_the_true_score(runner):
    outputs = _step_outputs(runner)
    assert outputs["runners"].split(",") == ["purity1", "purity2", "purity3", "purity4", reports.REVIEW_RUNNER], \
        "one runner per exercise, and the planted conftest.py up for review"
    results = {name: json.loads(base64.b64decode(outputs[name])) for name in outputs["runners"].split(",")}
    schema = json.loads((SCHEMAS / "classroom.schema.json").read_text())
    jsonschema.validate({"score": 2, "max_score": 4, "isolation": "-", "error": "", "runners": results}, schema)
    rows, total, classroom = reporter_view(outputs)
    assert rows == [("purity1", 1, 1), ("purity2", 0, 1), ("purity3", 0, 1), ("purity4", 1, 1),
                    (reports.REVIEW_RUNNER, 0, 0)]
    assert total == 2 and classroom == (2, 4)
    assert "::" not in json.dumps(results), "the reporter would run it as a workflow command"
    assert "graded with isolation" in runner["graded"].stdout, "the isolation note is in the log, for instructors"


@pytest.mark.skipif(not REPORTER, reason=SKIP_REASON)
def test_workflow_results_read_right_in_the_real_reporter(runner):
    rows, classroom, log = run_reporter(_step_outputs(runner))
    assert rows == [("purity1", 1.0, 1), ("purity2", 0.0, 1), ("purity3", 0.0, 1), ("purity4", 1.0, 1),
                    (reports.REVIEW_RUNNER, 0.0, 0), ("Total:", 2.0, 4)]
    assert classroom == (2, 4)
    assert "❌ purity-2: " in log and "forged" in log, "the failure says why"
    assert not re.search(r"^::(error|add-mask)::(forged|x)", log, re.M), "student text became a workflow command"


def test_workflow_fences_student_output_off_from_workflow_commands(runner):
    log = runner["graded"].stdout.splitlines()
    start = next(i for i, ln in enumerate(log) if ln.startswith("::stop-commands::"))
    token = log[start].removeprefix("::stop-commands::")
    assert len(token) == 32 and log.index(f"::{token}::") > start
    fenced = log[start + 1:log.index(f"::{token}::")]
    assert any("purity-2" in ln for ln in fenced), "the grader's table is inside the fence"
    assert not any(ln.startswith("::") for ln in log[:start] + log[log.index(f"::{token}::") + 1:])


def test_workflow_refuses_to_grade_with_changed_checks(runner, tmp_path):
    checkout = tmp_path / "checkout"
    shutil.copytree(runner["checkout"], checkout)
    check = checkout / "exercises" / PURITY[0].check_path
    check.write_text(check.read_text() + "\ndef test_free_points():\n    pass\n")
    (checkout / "exercises" / PURITY[1].check_path).unlink()
    env = {**runner["env"], "KATAS_HOME": str(tmp_path / "home"), "GITHUB_WORKSPACE": str(checkout)}
    proc = _bash(runner["steps"]["Copy the pinned checks and grader"]["run"], checkout, env)
    assert proc.returncode == 1
    assert f"::error file=exercises/{PURITY[0].check_path}::" in proc.stdout and "differs" in proc.stdout
    assert f"exercises/{PURITY[1].check_path} is missing" in proc.stdout
    assert "2 pinned file(s) were changed or removed: not graded" in proc.stdout


# --- the Gradescope bundle ----------------------------------------------------------------


def _unzip(archive: Path, dest: Path) -> None:
    """Extract keeping the modes stored in the zip, as `unzip` does."""
    with zipfile.ZipFile(archive) as bundle:
        for info in bundle.infolist():
            bundle.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                (dest / info.filename).chmod(mode)


@pytest.fixture(scope="module")
def autograder(tmp_path_factory) -> Path:
    """A Gradescope-shaped root: source/ (the unzipped bundle, installed as setup.sh would), results/."""
    root = tmp_path_factory.mktemp("gradescope") / "autograder"
    archive = root.parent / "autograder.zip"
    proc = _grader("gradescope-bundle", archive, "--only", PURITY_IDS, "--timeout", "10", "--submission-timeout", "120")
    assert proc.returncode == 0, proc.stderr
    _unzip(archive, root / "source")
    install(root / "source" / "katas", root / "source" / "venv")
    return root


def test_bundle_holds_scripts_and_pristine_checks_but_no_solutions(autograder):
    source = autograder / "source"
    for script in ("setup.sh", "run_autograder"):
        assert os.access(source / script, os.X_OK), f"{script} must be executable"
        assert subprocess.run(["bash", "-n", source / script]).returncode == 0
    files = _files(source / "katas")
    assert "exercises/01_purity/hidden_test_global_config.py" in files
    assert {f"exercises/{e.check_path}" for e in ALL_EXERCISES} <= set(files)
    assert not [p for p in files if p.startswith(("solutions/", "tests/")) or p.endswith(PACK_NAME)]
    bundled = b"".join(f.read_bytes() for f in files.values())
    assert not [e.id for e in ALL_EXERCISES if (REPO_ROOT / "solutions" / e.path).read_bytes() in bundled]
    assert "constraints.txt" in files and "-c constraints.txt" in (source / "setup.sh").read_text()
    assert "--only purity-1,purity-2,purity-3,purity-4" in (source / "run_autograder").read_text()


def _gradescope(autograder: Path, lay_out) -> tuple[dict, subprocess.CompletedProcess]:
    """Run run_autograder on a fresh submission folder laid out by `lay_out(folder)`."""
    for name in ("submission", "results"):
        shutil.rmtree(autograder / name, ignore_errors=True)
    (autograder / "submission").mkdir()
    lay_out(autograder / "submission")
    env = {**_env(), "KATAS_AUTOGRADER_ROOT": str(autograder)}
    proc = _run([autograder / "source" / "run_autograder"], autograder, env=env)
    results = autograder / "results" / "results.json"
    assert results.is_file(), proc.stdout + proc.stderr
    data = json.loads(results.read_text())
    jsonschema.validate(data, json.loads((SCHEMAS / "gradescope.schema.json").read_text()))
    scored = [t for t in data["tests"] if t["max_score"]]
    assert [t["name"] for t in scored] == [e.id for e in PURITY]
    assert sum(t["max_score"] for t in scored) == 4 and sum(t["score"] for t in scored) == data["score"]
    return data, proc


def _scores(data: dict) -> dict[str, int]:
    return {t["name"]: t["score"] for t in data["tests"] if t["max_score"]}


def test_gradescope_good_submission_of_loose_files_scores_full_marks(autograder):
    def loose(folder: Path) -> None:  # students often drag in just the files
        for path in (REPO_ROOT / "solutions" / "01_purity").glob("*.py"):
            shutil.copy(path, folder / path.name)

    data, _ = _gradescope(autograder, loose)
    assert data["score"] == 4 and not any(t["name"] == "NEEDS REVIEW" for t in data["tests"])


def test_gradescope_partial_repository_upload_scores_what_it_solved(autograder):
    def wrapped_repo(folder: Path) -> None:  # a zip of the repository, wrapped in its folder
        _purity_submission(folder / "jax-katas-alice" / "exercises", stubs=("debug_print.py", "loop_iterator.py"))

    data, _ = _gradescope(autograder, wrapped_repo)
    assert _scores(data) == {"purity-1": 1, "purity-2": 1, "purity-3": 0, "purity-4": 0}


def test_gradescope_runs_hidden_checks_and_keeps_them_hidden(autograder):
    data, _ = _gradescope(autograder, lambda folder: _purity_submission(folder, fixture="hard_coded"))
    assert _scores(data)["purity-4"] == 0
    hidden = [t for t in data["tests"] if "(hidden)" in t["name"]]
    assert hidden and all(t["visibility"] == "hidden" for t in hidden)
    assert any(t["status"] == "failed" for t in hidden)
    visible = "\n".join(t["output"] for t in data["tests"] if t["visibility"] == "visible")
    assert all(t["output"] not in visible for t in hidden if t["output"]), "a hidden check's message leaked"


def test_gradescope_hostile_submission_scores_what_it_earned_and_is_flagged(autograder):
    def hostile(folder: Path) -> None:
        _purity_submission(folder, stubs=("global_config.py",), fixture="planted_files")
        for fixture in ("fake_output", "forged_channel"):
            shutil.copytree(FIXTURES / fixture, folder, dirs_exist_ok=True)

    data, proc = _gradescope(autograder, hostile)
    assert _scores(data) == {"purity-1": 0, "purity-2": 1, "purity-3": 0, "purity-4": 0}
    review = next(t for t in data["tests"] if t["name"] == "NEEDS REVIEW")
    assert review["visibility"] == "hidden" and "conftest.py" in review["output"]
    assert data["stdout_visibility"] == "hidden"
    assert json.loads((autograder / "results" / "results.json").read_text())["score"] == 1  # not the forged 100


def test_arrange_upload_handles_each_upload_shape(tmp_path):
    exercises = load_manifest(REPO_ROOT / "exercises")
    first = exercises[0]
    name = first.path.rsplit("/", 1)[1]
    shapes = {"repo": f"exercises/{first.path}", "copy": first.path, "wrapped": f"mine/exercises/{first.path}",
              "loose": name}
    for shape, rel in shapes.items():
        upload = tmp_path / shape / "upload"
        (upload / rel).parent.mkdir(parents=True)
        (upload / rel).write_text("# mine\n")
        scratch = tmp_path / shape / "scratch"
        scratch.mkdir()
        target = arrange_upload(upload, scratch)
        assert (target / first.path).read_text() == "# mine\n", shape
