"""Setting a course up for students and autograders: release, classroom-workflow, gradescope-bundle.

- `release OUT_DIR`: the student repository: stubs, visible checks, manifest,
  the grader, a README, and the GitHub Classroom workflow. No solutions (with
  `--with-solutions`, packed for `grader solution`: readable by any student
  who unpacks them, so only for courses where they are not secret), no hidden
  checks, no tests/.
- `classroom-workflow`: that workflow. It pins the SHA-256 of every file a
  student must not change and grades with a verified copy of them, outside
  the student's checkout.
- `gradescope-bundle OUT.zip`: `setup.sh`, `run_autograder` and the pristine
  checks, hidden ones included.

The templates these fill in live in `grader/templates/`; the commands' options
are read in grader.cli.course.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import math
import re
import shlex
import shutil
import tomllib
import zipfile
from pathlib import Path

from grader import REPO_ROOT
from grader.core.limits import Limits
from grader.core.commands import LEARNER_COMMANDS
from grader.core.files import resolve_target
from grader.core.manifest import Exercise, course_toml, load_course, load_manifest, parse_course
from grader.core.selection import UsageProblem, choose
from grader.core.solutions import PACK_NAME, pack
from grader.course.reports import REVIEW_RUNNER, classroom_runners

TEMPLATES = Path(__file__).parent.parent / "templates"  # grader/templates
PYTHON_VERSION = "3.12"  # what the GitHub workflow sets up; the package needs 3.11+
WORKFLOW_PATH = ".github/workflows/classroom.yml"
# Files at the top of a release that grading depends on, so the workflow pins them.
PINNED_TOP = ("conftest.py", "pyproject.toml", "constraints.txt")
EXECUTABLE = {"setup.sh", "run_autograder"}

STUDENT_GITIGNORE = """\
__pycache__/
*.pyc
*.egg-info/
.venv/
venv/
.pytest_cache/
# learner progress (hints shown, etc.), and what notebooks checked
.katas-progress.json
.katas-notebook/
# grader outputs
classroom.json
results.json
"""


# --- what a release holds -------------------------------------------------------------


def _skipped(path: Path) -> bool:
    return "__pycache__" in path.parts or path.suffix == ".pyc" or path.name.startswith(".")


def _tree(top: Path, under: str) -> dict[str, bytes]:
    """relative path -> bytes, for every file below `top/under` (caches and dotfiles left out)."""
    files = {}
    for path in sorted((top / under).rglob("*")):
        rel = path.relative_to(top)
        if path.is_file() and not _skipped(rel):
            files[rel.as_posix()] = path.read_bytes()
    return files


def _toml(value) -> str:
    """A TOML value: JSON's strings, integers and arrays are valid TOML."""
    if isinstance(value, list) and value:
        return "[\n" + "".join(f"    {json.dumps(item)},\n" for item in value) + "]"
    return json.dumps(value)


def student_pyproject(repo: Path = REPO_ROOT) -> str:
    """The release's pyproject.toml: this project's package and pins, with `pytest` running exercises/."""
    with open(repo / "pyproject.toml", "rb") as handle:
        ours = tomllib.load(handle)
    project, pytest_options = ours["project"], ours["tool"]["pytest"]["ini_options"]
    fields = {key: project[key] for key in ("name", "version", "description", "requires-python")}
    lines = ["# Written by `grader release`: the grader reads it, keep it as it is.",
             "[build-system]", f"requires = {_toml(ours['build-system']['requires'])}",
             f"build-backend = {_toml(ours['build-system']['build-backend'])}", "", "[project]"]
    lines += [f"{key} = {_toml(value)}" for key, value in fields.items()]
    lines += [f"dependencies = {_toml(project['dependencies'])}"]
    extras = {name: project.get("optional-dependencies", {}).get(name) for name in ("notebooks", "jupyter")}
    if any(extras.values()):  # pip install -e ".[notebooks]" in Colab, ".[jupyter]" on one's own machine
        lines += ["", "[project.optional-dependencies]"]
        lines += [f"{name} = {_toml(needs)}" for name, needs in extras.items() if needs]
    lines += ["", "[project.scripts]"]
    lines += [f"{name} = {_toml(target)}" for name, target in project["scripts"].items()]
    lines += ["", "[tool.setuptools.packages.find]", 'include = ["grader*"]', "",
              "[tool.pytest.ini_options]", "# `pytest` alone runs every exercise's checks, in teaching order.",
              'testpaths = ["exercises"]']
    lines += [f"{key} = {_toml(pytest_options[key])}" for key in ("addopts", "timeout", "kata_check_timeout",
                                                                   "markers")
              if key in pytest_options]
    return "\n".join(lines) + "\n"


def constraints(repo: Path = REPO_ROOT) -> str:
    """Exact versions of every package the install needs, as installed here: the project's
    dependencies and theirs, all the way down, for graders to install the same ones.

    Release from an environment where the whole suite passed: these are the
    versions students and autograders will run, so nothing floats between two
    pushes (a new SciPy or ml_dtypes under the same JAX, say).
    """
    with open(repo / "pyproject.toml", "rb") as handle:
        requirements = tomllib.load(handle)["project"]["dependencies"]
    pinned = resolved_versions(requirements)
    lines = ["# The versions `grader release` found installed, dependencies of dependencies included; the "
             "grader installs exactly these."]
    lines += [f"{name}=={version}" for name, version in sorted(pinned.items())]
    return "\n".join(lines) + "\n"


def resolved_versions(requirements: list[str]) -> dict[str, str]:
    """Normalized name -> installed version of each package `requirements` need here, transitively
    (requirements whose markers do not apply here are left out, and so are packages not installed:
    the ranges alone apply to them). A UsageProblem when an installed version is outside a range."""
    from packaging.requirements import Requirement  # pytest's own dependency: always installed with it
    from packaging.utils import canonicalize_name

    found: dict[str, str] = {}
    waiting = [Requirement(text) for text in requirements]
    while waiting:
        requirement = waiting.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        try:
            distribution = importlib.metadata.distribution(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if not requirement.specifier.contains(distribution.version, prereleases=True):
            raise UsageProblem(f"{name} {distribution.version} is installed but {requirement} is needed: release "
                               f"from an environment with the supported versions")
        if name not in found:
            found[name] = distribution.version
            waiting += [Requirement(text) for text in distribution.requires or ()]
    return found


SOLUTIONS_TEXT = {
    True: f"The reference solutions ship packed in\n`exercises/{PACK_NAME}`: `grader solution ID` shows one once your\n"
          f"version passes. Try first.",
    False: "This course hands out no\nreference solutions: the hints and the checks' messages are there to get\n"
           "you unstuck.",
}


def student_readme(exercises: tuple[Exercise, ...], with_solutions: bool = False) -> str:
    """The README of a release of `exercises`: its topics, its first exercise to run, and solutions
    (`grader solution`) only when the release packs them."""
    topics: dict[str, list[Exercise]] = {}
    for entry in exercises:
        topics.setdefault(entry.path.split("/")[0], []).append(entry)
    topic_lines = [f"- `{folder}`: {len(entries)} exercise{'s' * (len(entries) != 1)}, "
                   f"{sum(e.points for e in entries)} points" for folder, entries in topics.items()]
    commands = [("grader", "your score, exercise by exercise (the same as `grader grade`)")]
    commands += [(f"grader {name}", text) for name, text in LEARNER_COMMANDS if with_solutions or name != "solution"]
    commands.append(("grader COMMAND --help", "what a command does, with examples"))
    width = max(len(name) for name, _ in commands)
    command_lines = [f"    {name:<{width}}  # {text}" for name, text in commands]
    first = exercises[0]
    runs = [(f"pytest exercises/{first.check_path}", "one exercise"),
            (f"pytest exercises/{first.path.split('/')[0]}", "one topic"), ("pytest", "everything, in order")]
    width = max(len(command) for command, _ in runs)
    text = (TEMPLATES / "student_README.md").read_text(encoding="utf-8")
    return _fill(text, COUNT=str(len(exercises)), TOTAL=str(sum(e.points for e in exercises)),
                 TOPICS="\n".join(topic_lines), COMMANDS="\n".join(command_lines),
                 FIRST_TOPIC=runs[1][0].removeprefix("pytest "),
                 RUN_LINES="\n".join(f"    {command:<{width}}   # {what}" for command, what in runs),
                 SOLUTIONS=SOLUTIONS_TEXT[with_solutions])


def _fill(template: str, **values: str) -> str:
    """Replace each @@NAME@@; multi-line values keep the placeholder's indentation."""
    for name, value in values.items():
        def indented(match: re.Match) -> str:
            return match.group(1) + value.replace("\n", "\n" + match.group(1))

        template = re.sub(rf"^([ \t]*)@@{name}@@", indented, template, flags=re.M)
        template = template.replace(f"@@{name}@@", value)
    left = re.findall(r"@@[A-Z_]+@@", template)
    if left:
        raise AssertionError(f"template placeholders left unfilled: {left}")
    return template


def _check_solutions(repo: Path, exercises: tuple[Exercise, ...]) -> None:
    """Every exercise has a solution, and no stub is one (say, an instructor's solved working copy)."""
    if not (repo / "solutions").is_dir():
        raise UsageProblem(f"no solutions/ folder in {repo}: release from a clone of the katas repository")
    for entry in exercises:
        solution, stub = repo / "solutions" / entry.path, repo / "exercises" / entry.path
        if not solution.is_file():
            raise UsageProblem(f"solutions/{entry.path} is missing: every exercise needs its reference solution")
        if not stub.is_file():
            raise UsageProblem(f"exercises/{entry.path} is missing")
        if stub.read_bytes() == solution.read_bytes():
            raise UsageProblem(f"exercises/{entry.path} is identical to its solution: restore the stub "
                         f"(git checkout -- exercises/{entry.path}) before releasing")


def release_files(repo: Path = REPO_ROOT, with_solutions: bool = False,
                  assignment: str | None = None) -> dict[str, bytes]:
    """Every file of the student release except its workflow: path -> content.

    With `assignment`, only that assignment's exercises: their stubs and checks, and a manifest
    holding just them (and the assignment).
    """
    exercises = load_manifest(repo / "exercises")
    if assignment:
        exercises = _assignment_only(repo, assignment)
    _check_solutions(repo, exercises)
    files = {path: data for path, data in _tree(repo, "exercises").items()
             if not Path(path).name.startswith("hidden_test_") and Path(path).name != PACK_NAME}
    if assignment:
        kept = {f"exercises/{e.path}" for e in exercises} | {f"exercises/{e.check_path}" for e in exercises}
        files = {path: data for path, data in files.items() if path in kept}
        course = load_course(repo / "exercises")
        files["exercises/manifest.toml"] = course_toml(
            exercises, (course.assignment(assignment),),
            f"# The exercises of assignment {assignment!r}, written by `grader release --assignment`.\n"
            f"# The last hint of each gives the answer away: `grader progress` lists the order, and `grader hint`\n"
            f"# shows the hints one at a time.").encode()
    if with_solutions:
        files[f"exercises/{PACK_NAME}"] = pack(repo / "solutions", exercises)
    files.update(_tree(repo, "grader"))
    files["conftest.py"] = (repo / "conftest.py").read_bytes()
    files["pyproject.toml"] = student_pyproject(repo).encode()
    files["constraints.txt"] = constraints(repo).encode()
    files["README.md"] = student_readme(exercises, with_solutions).encode()
    files[".gitignore"] = STUDENT_GITIGNORE.encode()
    return dict(sorted(files.items()))


def _assignment_only(repo: Path, name: str) -> tuple[Exercise, ...]:
    course = load_course(repo / "exercises")
    return choose(course.exercises, None, name, course.assignments)


def pinned_paths(files: dict[str, bytes], exercises: tuple[Exercise, ...]) -> list[str]:
    """The release files grading depends on: everything but the stubs, the pack and the docs."""
    editable = {f"exercises/{e.path}" for e in exercises} | {f"exercises/{PACK_NAME}"}
    return sorted(path for path in files if path not in editable
                  and (path.startswith(("exercises/", "grader/")) or path in PINNED_TOP))


def _release_on_disk(folder: Path) -> dict[str, bytes]:
    """The files a release folder holds that a workflow may pin."""
    if not (folder / "exercises" / "manifest.toml").is_file():
        raise UsageProblem(f"{folder} holds no exercises/manifest.toml: not a release folder")
    files = {**_tree(folder, "exercises"), **_tree(folder, "grader")}
    files.update({name: (folder / name).read_bytes() for name in PINNED_TOP if (folder / name).is_file()})
    return files


# --- the GitHub Classroom workflow ----------------------------------------------------


def _grade_options(only: tuple[Exercise, ...] | None, limits: Limits) -> str:
    options = ["--timeout", str(limits.check_seconds), "--submission-timeout", str(limits.submission_seconds)]
    if only:
        options += ["--only", ",".join(e.id for e in only)]
    return " ".join(shlex.quote(option) for option in options)


def step_minutes(limits: Limits) -> int:
    """The grading step's limit: the grader's own submission limit, plus room to start and report."""
    return math.ceil(limits.submission_seconds / 60) + 5


def classroom_workflow(files: dict[str, bytes], only: tuple[Exercise, ...] | None = None,
                       limits: Limits = Limits()) -> str:
    """The workflow text for a release holding `files` (see the template's header for the design)."""
    manifest = load_manifest_text(files["exercises/manifest.toml"])
    graded = only or manifest
    pinned = [f"{hashlib.sha256(files[path]).hexdigest()}  {path}" for path in pinned_paths(files, manifest)]
    grade_minutes = step_minutes(limits)
    text = (TEMPLATES / "classroom.yml").read_text(encoding="utf-8")
    runners = _runner_names(graded)
    return _fill(text, MAX_SCORE=str(sum(e.points for e in graded)), PINNED="\n".join(pinned),
                 PYTHON=PYTHON_VERSION, GRADE_MINUTES=str(grade_minutes),
                 JOB_MINUTES=str(grade_minutes + 15),  # checkout, install (JAX is large), report
                 GRADE_OPTIONS=_grade_options(only, limits), RUNNERS=",".join(runners),
                 REPORTER_ENV=reporter_env(runners))


def _runner_names(exercises: tuple[Exercise, ...]) -> list[str]:
    try:
        return classroom_runners(exercises)
    except ValueError as clash:
        raise UsageProblem(str(clash)) from None


def reporter_env(runners: list[str]) -> str:
    """The reporter step's environment: each runner's result, read as `<RUNNER>_RESULTS`, from the
    grading step's output of the same name; the needs-review runner's is empty unless it has one."""
    return "\n".join(f'{name.upper()}_RESULTS: "${{{{ steps.katas.outputs.{name} }}}}"'
                     for name in [*runners, REVIEW_RUNNER])


def load_manifest_text(data: bytes) -> tuple[Exercise, ...]:
    """Exercises from a manifest's bytes (load_manifest reads, and caches, a folder)."""
    return parse_course(data).exercises


# --- the Gradescope bundle ------------------------------------------------------------


def bundle_files(repo: Path = REPO_ROOT, only: tuple[Exercise, ...] | None = None,
                 limits: Limits = Limits()) -> dict[str, bytes]:
    """The autograder zip's files: the scripts at the top, the pristine katas under katas/."""
    files = {f"katas/{path}": data for path, data in _tree(repo, "exercises").items()
             if Path(path).name != PACK_NAME}  # hidden checks included; no solutions at all
    files.update({f"katas/{path}": data for path, data in _tree(repo, "grader").items()})
    files["katas/conftest.py"] = (repo / "conftest.py").read_bytes()
    files["katas/pyproject.toml"] = student_pyproject(repo).encode()
    files["katas/constraints.txt"] = constraints(repo).encode()
    files["setup.sh"] = (TEMPLATES / "setup.sh").read_bytes()
    files["run_autograder"] = _fill((TEMPLATES / "run_autograder").read_text(encoding="utf-8"),
                                    GRADE_OPTIONS=_grade_options(only, limits)).encode()
    return dict(sorted(files.items()))


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """A reproducible zip: fixed dates, sorted entries, the scripts executable."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o100755 if name in EXECUTABLE else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def arrange_upload(upload: str | Path, scratch: str | Path, repo: Path = REPO_ROOT) -> Path:
    """The folder to grade for a Gradescope upload.

    Students upload a repository (GitHub upload), a copy of exercises/, a zip
    of either (possibly wrapped in one folder), or just the files they
    changed: loose `<name>.py` files are placed, in `scratch`, where the
    manifest expects them when the name belongs to exactly one exercise.
    """
    folder, scratch = Path(upload), Path(scratch)
    exercises = load_manifest(repo / "exercises")
    while True:  # unwrap `my-repo/` around the real content
        entries = [p for p in folder.iterdir() if not p.name.startswith((".", "__MACOSX"))] \
            if folder.is_dir() else []
        if len(entries) == 1 and entries[0].is_dir() and entries[0].name != "exercises" \
                and not re.match(r"\d\d_", entries[0].name):
            folder = entries[0]
        else:
            break
    target = resolve_target(str(folder), repo)
    if any((target / e.path).is_file() for e in exercises):
        return target
    by_name: dict[str, list[Exercise]] = {}
    for entry in exercises:
        by_name.setdefault(entry.path.rsplit("/", 1)[1], []).append(entry)
    placed = False
    for name, entries in by_name.items():
        loose = folder / name
        if len(entries) == 1 and loose.is_file() and not loose.is_symlink():
            dest = scratch / entries[0].path
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(loose, dest)
            placed = True
    return scratch if placed else target


# --- what the commands write ---------------------------------------------------------


def named_exercises(manifest: bytes, only: str | None, assignment: str | None) -> tuple[Exercise, ...] | None:
    """The exercises `--only` and `--assignment` name in this manifest (None: all of them)."""
    if not (only or assignment):
        return None
    course = parse_course(manifest)
    return choose(course.exercises, only, assignment, course.assignments)


def write_release(out: Path, source: Path = REPO_ROOT, with_solutions: bool = False,
                  assignment: str | None = None) -> int:
    """`grader release`: the student repository, workflow included, into the new or empty `out`."""
    if out.exists() and not out.is_dir():
        raise UsageProblem(f"{out} is not a folder")
    if out.exists() and any(p.name != ".git" for p in out.iterdir()):
        raise UsageProblem(f"{out} is not empty: release into a new folder")
    files = release_files(source, with_solutions=with_solutions, assignment=assignment)
    files[WORKFLOW_PATH] = classroom_workflow(files).encode()
    for path, data in files.items():
        dest = out / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    exercises = load_manifest_text(files["exercises/manifest.toml"])
    print(f"wrote the student repository to {out}: {len(exercises)} exercises, "
          f"{sum(e.points for e in exercises)} points, {len(files)} files")
    print("next: push it to GitHub and mark it as a template (docs/instructors.md)")
    return 0


def write_workflow(out: Path | None, release: Path | None, only: str | None, assignment: str | None,
                   limits: Limits) -> int:
    """`grader classroom-workflow`: the workflow pinning the files of `release` (a release folder; by
    default those `grader release` would write now), into `out` or to standard output."""
    files = _release_on_disk(release) if release else release_files()
    text = classroom_workflow(files, named_exercises(files["exercises/manifest.toml"], only, assignment), limits)
    if out:
        if not out.parent.is_dir():
            raise UsageProblem(f"{out.parent} is not a folder")
        out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def write_bundle(out: Path, only: str | None, assignment: str | None, limits: Limits) -> int:
    """`grader gradescope-bundle`: the Gradescope autograder zip."""
    if out.suffix != ".zip":
        raise UsageProblem(f"{out} should end in .zip: Gradescope takes the autograder as a zip file")
    if not out.parent.is_dir():
        raise UsageProblem(f"{out.parent} is not a folder")
    exercises = load_manifest(REPO_ROOT / "exercises")
    chosen = named_exercises((REPO_ROOT / "exercises" / "manifest.toml").read_bytes(), only, assignment)
    write_zip(out, bundle_files(REPO_ROOT, chosen, limits))
    graded = chosen or exercises
    print(f"wrote {out}: {len(graded)} exercises, {sum(e.points for e in graded)} points; "
          f"upload it as the assignment's autograder (docs/instructors.md)")
    return 0
