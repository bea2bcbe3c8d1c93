"""The `grader` command: `grader COMMAND --help` shows each command with an example.

Exit status: 0 whenever grading worked, whatever the score; 2 when it could not grade.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from grader import REPO_ROOT
from grader.core.limits import MIB, Limits
from grader.core.manifest import Course, ManifestError, load_course, select


class UsageProblem(Exception):
    """Something the user asked for cannot be done; the message says why."""


def _exercises_dir() -> Path:
    folder = REPO_ROOT / "exercises"
    if not (folder / "manifest.toml").is_file():
        raise UsageProblem(f"no exercises/manifest.toml next to the grader package ({REPO_ROOT}); "
                           f"install the katas with `python -m pip install -e .` from a clone")
    return folder


def choose(exercises, only: str | None, assignment: str | None = None, assignments=()):
    """The exercises `--only` and `--assignment` name (both: those of the assignment that `--only`
    names), or a UsageProblem that suggests the closest name."""
    try:
        if assignment:
            exercises = Course(tuple(exercises), tuple(assignments)).assignment(assignment).exercises
        return select(exercises, only) if only else exercises
    except ManifestError as error:
        raise UsageProblem(str(error)) from None


def selected(only: str | None, assignment: str | None = None):
    """The manifest's exercises, or those `--only` and `--assignment` name."""
    course = load_course(_exercises_dir())
    return choose(course.exercises, only, assignment, course.assignments)


def add_assignment_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--assignment", metavar="NAME",
                        help="only the exercises of this assignment (an [[assignment]] table of "
                             "exercises/manifest.toml)")


def _example(parser: argparse.ArgumentParser, *lines: str) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in lines)


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """What to grade and for how long: shared by every command that grades or sets grading up."""
    parser.add_argument("--only", metavar="IDS",
                        help="grade only these exercises: ids, topics, topic folders or id prefixes "
                             "(`at` for at-1, at-2, ...), comma-separated")
    add_assignment_option(parser)
    parser.add_argument("--timeout", type=int, default=Limits.check_seconds, metavar="S",
                        help="time limit per check, seconds (default %(default)s)")
    parser.add_argument("--submission-timeout", type=int, default=Limits.submission_seconds, metavar="S",
                        help="time limit for all of one submission's checks (default %(default)s)")


def add_grading_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `grade` and `batch`."""
    add_limit_options(parser)
    parser.add_argument("--memory", type=int, default=Limits.memory_bytes // MIB, metavar="MIB",
                        help="address-space limit per check process, MiB (default %(default)s)")
    parser.add_argument("--sandbox-user", metavar="USER",
                        help="run the check processes as this unprivileged user (the grader must run as root)")
    parser.add_argument("--isolation", choices=("auto", "namespaces", "process"), default=None,
                        help="how to wall check processes in: 'namespaces' (bubblewrap sandbox; fail if it "
                             "cannot start), 'process' (limits only) or 'auto' (the sandbox when this machine "
                             "has it; the default, or $KATAS_ISOLATION); `grader doctor` tells which you get")


def isolation_from(args: argparse.Namespace):
    """The isolation asked for, or a UsageProblem saying why the sandbox cannot start."""
    from grader.engine.sandbox import SandboxUnavailable, choose

    try:
        return choose(getattr(args, "isolation", None))
    except SandboxUnavailable as problem:
        raise UsageProblem(f"{problem}; `grader doctor` shows what this machine gives") from None


def limits_from(args: argparse.Namespace) -> Limits:
    memory = getattr(args, "memory", Limits.memory_bytes // MIB)
    for option, value in (("--timeout", args.timeout), ("--submission-timeout", args.submission_timeout),
                          ("--memory", memory)):
        if value <= 0:
            raise UsageProblem(f"{option} must be positive, not {value}")
    return Limits(check_seconds=args.timeout, submission_seconds=args.submission_timeout,
                  memory_bytes=memory * MIB)


def sandbox_user(args: argparse.Namespace) -> str | None:
    if args.sandbox_user is None:
        return None
    import pwd

    if os.geteuid() != 0:
        raise UsageProblem("--sandbox-user needs the grader to run as root")
    try:
        record = pwd.getpwnam(args.sandbox_user)
    except KeyError:
        raise UsageProblem(f"no user named {args.sandbox_user!r}") from None
    import subprocess

    # The check processes start from this interpreter and import the grader: make sure the
    # user can, before a whole class is graded as failures.
    try:
        probe = subprocess.run([sys.executable, "-I", "-c", "import grader.plugin, jax, pytest_timeout"],
                               user=record.pw_uid, group=record.pw_gid, cwd="/", capture_output=True,
                               text=True, env={"PATH": os.environ.get("PATH", ""), "HOME": "/"})
        failed, last = probe.returncode != 0, (probe.stderr.strip().splitlines() or ["no output"])[-1]
    except OSError as error:
        failed, last = True, str(error)
    if failed:
        raise UsageProblem(f"user {args.sandbox_user} cannot run this Python and the grader ({last}); "
                           f"install the katas where that user can read them")
    return args.sandbox_user


def _grade_parser(commands) -> None:
    parser = commands.add_parser("grade", help="grade one submission (default: your own exercises/)")
    _example(parser, "grader grade", "grader grade solutions",
             "grader grade ~/submissions/alice --json alice.json --gradescope results.json",
             "grader grade ~/submissions/alice --only purity,static-2 --timeout 20")
    parser.add_argument("path", nargs="?", default="exercises",
                        help="a copy of exercises/, or a repository holding one (default: your exercises/)")
    add_grading_options(parser)
    parser.add_argument("--json", metavar="FILE", help="write the results in the project's JSON schema")
    parser.add_argument("--gradescope", metavar="FILE", help="write Gradescope's results.json")
    parser.add_argument("--classroom", nargs="?", const="classroom.json", metavar="FILE",
                        help="write GitHub Classroom autograding results, one runner per exercise (default "
                             "classroom.json); in GitHub Actions also set the step outputs the reporter reads "
                             "(`runners`, and one per runner)")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="check processes at once, each with a share of the exercises (default: "
                             "%(default)s, the cores up to 2)")
    parser.set_defaults(run=grade_command)


def grade_command(args: argparse.Namespace) -> int:
    import json

    from grader.course import reports
    from grader.engine.grading import grade
    from grader.core.files import cache_home
    from grader.core.files import resolve_target

    exercises = selected(args.only, args.assignment)
    target = resolve_target(args.path, REPO_ROOT)
    if not target.is_dir():
        raise UsageProblem(f"{args.path} is not a folder")
    from grader.engine.warm import ready

    own = args.path in ("exercises", "solutions")  # this repo's files: trusted, share the cache
    cache = cache_home() if own else None
    report = grade(target, label=args.path, only=exercises, limits=limits_from(args),
                   shared_cache=cache, user=sandbox_user(args), isolation=isolation_from(args),
                   jobs=max(1, args.jobs), warm_cache=None if own else ready())
    print(reports.table(report))
    outputs = {
        args.json: lambda: json.dumps(reports.to_json(report), indent=2) + "\n",
        args.gradescope: lambda: json.dumps(reports.to_gradescope(report), indent=2) + "\n",
        args.classroom: lambda: json.dumps(reports.to_classroom(report), indent=2) + "\n",
        args.junit: lambda: reports.to_junit(report) + "\n",
    }
    for path, render in outputs.items():
        if path:
            Path(path).write_text(render(), encoding="utf-8")
    if args.classroom and os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
            out.writelines(f"{name}={value}\n"
                           for name, value in reports.classroom_outputs(reports.to_classroom(report)).items())
    return 2 if report.error else 0  # the reports are written either way: a 0 score with the reason


def _batch_parser(commands) -> None:
    parser = commands.add_parser("batch", help="grade a whole class: one folder, .zip or git repo per student")
    _example(parser, "grader batch submissions/ --out grades/",
             "grader batch submissions/ --out grades/ --workers 2 --only purity",
             "grader batch submissions/ --out grades/ --regrade",
             "grader batch submissions/ --out grades/ --roster roster.csv   # and canvas.csv, moodle.csv",
             "grader batch submissions/ --out grades/ --scheduler tcp://gpu-lab-1:8786",
             "grader batch submissions/ --out grades/ --cluster local:2",
             "grader batch submissions/ --out grades/week-1 --assignment week-1",
             "grader batch submissions/ --out grades/ --by-assignment")
    parser.add_argument("submissions", help="a folder holding one entry per student")
    parser.add_argument("--out", required=True,
                        help="where per-student JSON, gradebook.csv, summary.csv and failures.csv go")
    parser.add_argument("--workers", type=int, default=None,
                        help=f"submissions graded at once on this machine (default: the number of cores, "
                             f"{os.cpu_count() or 1})")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="grade on the Dask workers of this scheduler (tcp://host:8786) instead of here; "
                            "needs the cluster extra: pip install -e '.[cluster]'")
    where.add_argument("--cluster", metavar="local:N",
                       help="start N Dask workers on this machine and grade on them (the cluster mode, "
                            "without other machines)")
    parser.add_argument("--regrade", action="store_true",
                        help="grade every student again, even when the submission has not changed")
    parser.add_argument("--roster", metavar="CSV",
                        help="who each submission is (columns folder, name, student_id, login, section, email): "
                             "also write canvas.csv and moodle.csv, gradebooks Canvas and Moodle import as they are")
    parser.add_argument("--no-warm", action="store_true",
                        help="do not warm the compilation cache from the reference solutions first")
    parser.add_argument("--by-assignment", action="store_true",
                        help="gradebook.csv gets one column per assignment (the points of its exercises) "
                             "instead of one per exercise")
    add_grading_options(parser)
    parser.set_defaults(run=batch_command)


def batch_command(args: argparse.Namespace) -> int:
    from grader.course.batch import run_batch
    from grader.engine import warming

    folder = Path(args.submissions)
    if not folder.is_dir():
        raise UsageProblem(f"{args.submissions} is not a folder")
    roster = roster_from(args)
    cluster = cluster_from(args)
    exercises, limits = selected(args.only, args.assignment), limits_from(args)
    columns = None
    if args.by_assignment:
        columns = load_course(_exercises_dir()).assignments
        if not columns:
            raise UsageProblem("--by-assignment: exercises/manifest.toml defines no [[assignment]] tables")
    if not args.no_warm and not args.scheduler:  # a scheduler's workers warm their own machines
        warming.build(say=lambda line: print(line, file=sys.stderr))
    if cluster is not None:
        # The workers grade: they check the sandbox and the sandbox user on their own machines.
        from grader.course.cluster import ClusterProblem

        try:
            return run_batch(folder, Path(args.out), exercises, limits, workers=1, regrade=args.regrade,
                             user=args.sandbox_user, cluster=cluster, columns=columns, roster=roster)
        except ClusterProblem as problem:
            raise UsageProblem(str(problem)) from None
    return run_batch(folder, Path(args.out), exercises, limits,
                     workers=max(1, args.workers or os.cpu_count() or 1), regrade=args.regrade,
                     user=sandbox_user(args), isolation=isolation_from(args), columns=columns, roster=roster)


def roster_from(args: argparse.Namespace):
    """The roster `--roster` names (None without one), or a UsageProblem saying what is wrong with it."""
    if not args.roster:
        return None
    from grader.course.gradebooks import RosterProblem, load_roster

    try:
        return load_roster(Path(args.roster))
    except RosterProblem as problem:
        raise UsageProblem(str(problem)) from None


def cluster_from(args: argparse.Namespace):
    """The Dask cluster `--scheduler` or `--cluster` names (None: grade on this machine)."""
    if not (args.scheduler or args.cluster):
        return None
    from grader.course.cluster import ClusterSpec

    if args.workers is not None:
        raise UsageProblem("--workers counts this machine's graders; with --scheduler or --cluster the Dask "
                           "workers grade (start as many as you want graded at once)")
    if args.scheduler:
        return ClusterSpec(scheduler=args.scheduler, isolation=args.isolation, warm=not args.no_warm)
    try:
        count = ClusterSpec.parse_local(args.cluster)
    except ValueError as problem:
        raise UsageProblem(str(problem)) from None
    return ClusterSpec(local_workers=count, isolation=args.isolation, warm=False)


def _report_parser(commands) -> None:
    parser = commands.add_parser("report", help="what a graded class misunderstands: a summary, and a page "
                                                 "(--html) with charts")
    _example(parser, "grader report grades/", "grader report grades/ --html class.html",
             "grader report grades/ --assignment week-2 --html week2.html")
    parser.add_argument("grades", help="the --out folder of grader batch (its students/*.json)")
    parser.add_argument("--html", metavar="FILE",
                        help="write one static page: score distribution, pass rates, failures grouped by the JAX "
                             "idea they reveal, who is in each group, needs review, isolation (opens from disk, "
                             "offline)")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="how many of the largest failure groups to print (default %(default)s)")
    add_assignment_option(parser)
    parser.set_defaults(run=report_command)


def report_command(args: argparse.Namespace) -> int:
    from grader.course import classreport
    from grader.core.files import write_atomically

    grades = Path(args.grades)
    if not grades.is_dir():
        raise UsageProblem(f"{args.grades} is not a folder")
    only = {e.id for e in selected(None, args.assignment)} if args.assignment else None
    try:
        data = classreport.load_class(grades, only)
    except FileNotFoundError as problem:
        raise UsageProblem(str(problem)) from None
    phrases = classreport.failure_phrases()
    print(classreport.text_summary(data, phrases, count=max(0, args.top)))
    if args.html:
        page = Path(args.html)
        write_atomically(page, classreport.render_html(data, phrases))
        mask = os.umask(0)
        os.umask(mask)
        page.chmod(0o666 & ~mask)  # a page to share, not a private temporary file
        print(f"wrote {page}")
    return 0


def _warm_parser(commands) -> None:
    parser = commands.add_parser("warm", help="warm the compilation cache every submission starts from")
    _example(parser, "grader warm", "grader warm --force")
    parser.add_argument("--force", action="store_true", help="build it again even if it is up to date")
    parser.set_defaults(run=warm_command)


def warm_command(args: argparse.Namespace) -> int:
    from grader.engine import warming

    folder = warming.build(force=args.force, say=print)
    if folder is None:
        raise UsageProblem("no solutions/ folder here: the warm cache is built from the reference solutions")
    print(f"ready: {folder}")
    return 0


def _all_parsers() -> list:
    from grader.course import authoring, classroom, doctor
    from grader.learner import learn, notebook

    return [_grade_parser, _batch_parser, _report_parser, _warm_parser, *learn.PARSERS, *notebook.PARSERS,
            *classroom.PARSERS, *authoring.PARSERS, *doctor.PARSERS]


# `grader --help` lists the commands in these groups, in this order; a command in neither group
# is listed under "other".
LEARNING = ("next", "watch", "hint", "progress", "solution", "reset", "notebooks")
TEACHING = ("grade", "batch", "report", "warm", "new", "check", "release", "classroom-workflow", "gradescope-bundle",
            "doctor", "bench")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="grader", description="Practise JAX Katas, and grade them.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    for add in _all_parsers():
        add(commands)
    helps = {action.dest: action.help for action in commands._choices_actions}  # noqa: SLF001
    commands._choices_actions.clear()  # noqa: SLF001 - listed below, in groups, instead
    width = max(len(name) for name in helps)

    def group(title: str, names) -> list[str]:
        return [f"{title}:"] + [f"  {name:<{width}}  {helps[name]}" for name in names if name in helps]

    others = [name for name in helps if name not in LEARNING + TEACHING]
    lines = group("learning (in your clone of the katas)", LEARNING) + [""]
    lines += group("teaching (grading and running a course)", TEACHING)
    if others:
        lines += [""] + group("other", others)
    lines += ["", "examples:",
              "  grader next                 # run the checks of your current exercise",
              "  grader hint                 # a hint for it, gentle first",
              "  grader                      # your score, exercise by exercise",
              "  grader grade path/to/submission --json results.json",
              "  grader batch submissions/ --out grades/",
              "  grader report grades/ --html class.html",
              "", "`grader COMMAND --help` shows each command with examples."]
    top.epilog = "\n".join(lines)
    top.set_defaults(command_help=helps)
    return top


def learner_commands() -> list[tuple[str, str]]:
    """(command, help) of every learning command, in the order `grader --help` lists them."""
    helps = parser().get_default("command_help")
    return [(name, helps[name]) for name in LEARNING if name in helps]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    top = parser()
    known = set(top._subparsers._group_actions[0].choices)  # noqa: SLF001 - argparse keeps them here
    if not argv or (argv[0] not in known and argv[0] not in ("-h", "--help")):
        argv = ["grade", *argv]  # `grader` alone grades your own exercises/
    args = top.parse_args(argv)
    try:
        return args.run(args)
    except (UsageProblem, ManifestError) as problem:  # a malformed manifest names its file and line
        print(f"grader: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    # Run through the package module, so `UsageProblem` raised elsewhere is the class main() catches.
    from grader.cli import main as package_main

    sys.exit(package_main())
