"""`grader` subcommands that set up a course: release, classroom-workflow, gradescope-bundle.

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

The templates these fill in live in `grader/templates/`.
"""

from __future__ import annotations

import argparse
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
from grader.core.manifest import Exercise, course_toml, load_course, load_manifest, parse_course
from grader.core.solutions import PACK_NAME, pack

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


def _usage(message: str) -> Exception:
    from grader.cli import UsageProblem  # grader.cli imports this module: import late

    return UsageProblem(message)


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
    if "notebooks" in project.get("optional-dependencies", {}):  # pip install -e ".[notebooks]": Jupyter, Colab
        lines += ["", "[project.optional-dependencies]",
                  f"notebooks = {_toml(project['optional-dependencies']['notebooks'])}"]
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
    """Exact versions of the dependencies installed here, for graders to install the same ones.

    Release from an environment where the whole suite passed: these are the
    versions students and autograders will run.
    """
    with open(repo / "pyproject.toml", "rb") as handle:
        requirements = tomllib.load(handle)["project"]["dependencies"]
    lines = ["# The versions `grader release` found installed; the grader installs exactly these."]
    for requirement in requirements:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group()
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # not installed here: the range in pyproject.toml alone applies
        _check_in_range(requirement, version)
        lines.append(f"{name}=={version}")
    return "\n".join(lines) + "\n"


def _check_in_range(requirement: str, version: str) -> None:
    try:
        from packaging.requirements import Requirement
    except ImportError:  # packaging is not a dependency; pip itself refuses a conflict later
        return
    parsed = Requirement(requirement)
    if not parsed.specifier.contains(version, prereleases=True):
        raise _usage(f"{parsed.name} {version} is installed but pyproject.toml allows {parsed.specifier}: "
                     f"release from an environment with the supported versions")


def _learner_commands() -> list[tuple[str, str]]:
    """(command, help) for every `grader` command a learner uses, as registered right now."""
    from grader.cli import learner_commands

    return learner_commands()


def student_readme(exercises: tuple[Exercise, ...]) -> str:
    topics: dict[str, list[Exercise]] = {}
    for entry in exercises:
        topics.setdefault(entry.path.split("/")[0], []).append(entry)
    topic_lines = [f"- `{folder}`: {len(entries)} exercise{'s' * (len(entries) != 1)}, "
                   f"{sum(e.points for e in entries)} points" for folder, entries in topics.items()]
    commands = [("grader", "your score, exercise by exercise (the same as `grader grade`)")]
    commands += [(f"grader {name}", text) for name, text in _learner_commands()]
    commands.append(("grader COMMAND --help", "what a command does, with examples"))
    width = max(len(name) for name, _ in commands)
    command_lines = [f"    {name:<{width}}  # {text}" for name, text in commands]
    text = (TEMPLATES / "student_README.md").read_text(encoding="utf-8")
    return _fill(text, COUNT=str(len(exercises)), TOTAL=str(sum(e.points for e in exercises)),
                 TOPICS="\n".join(topic_lines), COMMANDS="\n".join(command_lines))


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
        raise _usage(f"no solutions/ folder in {repo}: release from a clone of the katas repository")
    for entry in exercises:
        solution, stub = repo / "solutions" / entry.path, repo / "exercises" / entry.path
        if not solution.is_file():
            raise _usage(f"solutions/{entry.path} is missing: every exercise needs its reference solution")
        if not stub.is_file():
            raise _usage(f"exercises/{entry.path} is missing")
        if stub.read_bytes() == solution.read_bytes():
            raise _usage(f"exercises/{entry.path} is identical to its solution: restore the stub "
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
            f"# The exercises of assignment {assignment!r}, written by `grader release --assignment`.").encode()
    if with_solutions:
        files[f"exercises/{PACK_NAME}"] = pack(repo / "solutions", exercises)
    files.update(_tree(repo, "grader"))
    files["conftest.py"] = (repo / "conftest.py").read_bytes()
    files["pyproject.toml"] = student_pyproject(repo).encode()
    files["constraints.txt"] = constraints(repo).encode()
    files["README.md"] = student_readme(exercises).encode()
    files[".gitignore"] = STUDENT_GITIGNORE.encode()
    return dict(sorted(files.items()))


def _assignment_only(repo: Path, name: str) -> tuple[Exercise, ...]:
    from grader.cli import choose

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
        raise _usage(f"{folder} holds no exercises/manifest.toml: not a release folder")
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
    from grader.course.reports import classroom_runners

    try:
        return classroom_runners(exercises)
    except ValueError as clash:
        raise _usage(str(clash)) from None


def reporter_env(runners: list[str]) -> str:
    """The reporter step's environment: each runner's result, read as `<RUNNER>_RESULTS`, from the
    grading step's output of the same name; the needs-review runner's is empty unless it has one."""
    from grader.course.reports import REVIEW_RUNNER

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
    from grader.core.files import resolve_target

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


# --- the commands ---------------------------------------------------------------------


def _selection(args: argparse.Namespace, manifest: bytes) -> tuple[Exercise, ...] | None:
    """The exercises `--only` and `--assignment` name in this manifest (None: all of them)."""
    from grader.cli import choose

    if not (args.only or args.assignment):
        return None
    course = parse_course(manifest)
    return choose(course.exercises, args.only, args.assignment, course.assignments)


def add_assignment_option(parser: argparse.ArgumentParser) -> None:
    from grader.cli import add_assignment_option

    add_assignment_option(parser)


def _limit_options(parser: argparse.ArgumentParser) -> None:
    from grader.cli import add_limit_options

    add_limit_options(parser)


def _limits(args: argparse.Namespace) -> Limits:
    from grader.cli import limits_from

    return limits_from(args)


def _release_parser(commands) -> None:
    from grader.cli import _example

    parser = commands.add_parser("release", help="build the student repository (instructors)",
                                 description="Write the student repository: stubs, visible checks, manifest, "
                                             "the grader, README, .gitignore and the GitHub Classroom workflow. "
                                             "No hidden checks and, unless asked, no solutions.")
    _example(parser, "grader release ../jax-katas-course",
             "cd ../jax-katas-course && git init && git add . && git commit -m 'JAX Katas'",
             "grader release ../self-paced --with-solutions")
    parser.add_argument("out", metavar="OUT_DIR", help="a new or empty folder (a folder holding only .git is fine)")
    parser.add_argument("--from", dest="source", metavar="CHECKOUT", type=Path, default=REPO_ROOT,
                        help="build it from this checkout of the katas (default: the one the grader runs "
                             "from); its exercises/ must hold the untouched stubs")
    parser.add_argument("--with-solutions", action="store_true",
                        help="pack the reference solutions in, for `grader solution` (self-paced courses: a "
                             "student who unpacks the file can read every solution)")
    add_assignment_option(parser)
    parser.set_defaults(run=release_command)


def release_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise _usage(f"{out} is not a folder")
    if out.exists() and any(p.name != ".git" for p in out.iterdir()):
        raise _usage(f"{out} is not empty: release into a new folder")
    files = release_files(args.source, with_solutions=args.with_solutions, assignment=args.assignment)
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


def _workflow_parser(commands) -> None:
    from grader.cli import _example

    parser = commands.add_parser("classroom-workflow", help="write the GitHub Classroom workflow (instructors)",
                                 description="Write .github/workflows/classroom.yml: it grades with the checks, "
                                             "manifest and grader pinned by SHA-256, never with the student's "
                                             "copies. `grader release` writes it too.")
    _example(parser, "grader classroom-workflow > classroom.yml",
             "grader classroom-workflow --release ../jax-katas-course "
             "--out ../jax-katas-course/.github/workflows/classroom.yml",
             "grader classroom-workflow --only purity,at_updates --out week1.yml")
    parser.add_argument("--out", metavar="FILE", help="where to write it (default: standard output)")
    parser.add_argument("--release", metavar="DIR",
                        help="pin the files of this release folder (say, after you edited a check there) "
                             "instead of the ones `grader release` would write now")
    _limit_options(parser)
    parser.set_defaults(run=workflow_command)


def workflow_command(args: argparse.Namespace) -> int:
    limits = _limits(args)
    files = _release_on_disk(Path(args.release)) if args.release else release_files()
    text = classroom_workflow(files, _selection(args, files["exercises/manifest.toml"]), limits)
    if args.out:
        out = Path(args.out)
        if not out.parent.is_dir():
            raise _usage(f"{out.parent} is not a folder")
        out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def _bundle_parser(commands) -> None:
    from grader.cli import _example

    parser = commands.add_parser("gradescope-bundle", help="build a Gradescope autograder zip (instructors)",
                                 description="Write a Gradescope autograder: setup.sh, run_autograder and the "
                                             "pristine checks, hidden ones included.")
    _example(parser, "grader gradescope-bundle autograder.zip",
             "grader gradescope-bundle week1.zip --only purity,at_updates --submission-timeout 900")
    parser.add_argument("out", metavar="OUT.zip", help="the zip to write")
    _limit_options(parser)
    parser.set_defaults(run=bundle_command)


def bundle_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix != ".zip":
        raise _usage(f"{out} should end in .zip: Gradescope takes the autograder as a zip file")
    if not out.parent.is_dir():
        raise _usage(f"{out.parent} is not a folder")
    limits = _limits(args)
    exercises = load_manifest(REPO_ROOT / "exercises")
    only = _selection(args, (REPO_ROOT / "exercises" / "manifest.toml").read_bytes())
    write_zip(out, bundle_files(REPO_ROOT, only, limits))
    graded = only or exercises
    print(f"wrote {out}: {len(graded)} exercises, {sum(e.points for e in graded)} points; "
          f"upload it as the assignment's autograder (docs/instructors.md)")
    return 0


PARSERS: list = [_release_parser, _workflow_parser, _bundle_parser]  # registered by grader.cli
