"""The grading commands: `grade` (one submission), `batch` (a class), `report` (what a graded class
misunderstands) and `warm` (the compilation cache every submission starts from)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from grader import REPO_ROOT
from grader.cli.base import (TEACHING, add_assignment_option, add_grading_options, cluster_from, command, examples,
                             isolation_from, limits_from, roster_from, sandbox_user)
from grader.core.files import cache_home, resolve_target, write_atomically
from grader.core.manifest import load_course
from grader.core.selection import UsageProblem, exercises_dir, selected


@command("grade", TEACHING, "grade one submission (default: your own exercises/)")
def _grade_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader grade", "grader grade solutions",
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
    # Imported when the command runs, as in every command here: `grader` starts quickly whatever it runs.
    import json

    from grader.course import reports
    from grader.engine.grading import grade
    from grader.engine.warm import ready

    exercises = selected(args.only, args.assignment)
    target = resolve_target(args.path, REPO_ROOT)
    if not target.is_dir():
        raise UsageProblem(f"{args.path} is not a folder")
    # The reference solutions are trusted: they share the user's compilation cache with the examiner.
    # Everything else (a learner's own exercises/ too) is graded as a submission, with fresh caches.
    reference = args.path == "solutions"
    cache = cache_home() if reference else None
    report = grade(target, label=args.path, only=exercises, limits=limits_from(args),
                   shared_cache=cache, user=sandbox_user(args), isolation=isolation_from(args),
                   jobs=max(1, args.jobs), warm_cache=None if reference else ready())
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


@command("batch", TEACHING, "grade a whole class: one folder, .zip or git repo per student")
def _batch_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader batch submissions/ --out grades/",
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
                             "also write canvas.csv and moodle.csv for Canvas's and Moodle's grade import (the batch "
                             "prints the steps)")
    parser.add_argument("--no-warm", action="store_true",
                        help="do not warm the compilation cache from the reference solutions first")
    parser.add_argument("--by-assignment", action="store_true",
                        help="gradebook.csv gets one column per assignment (the points of its exercises) "
                             "instead of one per exercise")
    add_grading_options(parser)
    parser.set_defaults(run=batch_command)


def batch_command(args: argparse.Namespace) -> int:
    from grader.course.batch import run_batch  # when run: start-up speed
    from grader.course.cluster import ClusterProblem  # when run: start-up speed
    from grader.engine import warming  # when run: start-up speed

    folder = Path(args.submissions)
    if not folder.is_dir():
        raise UsageProblem(f"{args.submissions} is not a folder")
    roster = roster_from(args)
    cluster = cluster_from(args)
    exercises, limits = selected(args.only, args.assignment), limits_from(args)
    columns = None
    if args.by_assignment:
        columns = load_course(exercises_dir()).assignments
        if not columns:
            raise UsageProblem("--by-assignment: exercises/manifest.toml defines no [[assignment]] tables")
    if not args.no_warm and not args.scheduler:  # a scheduler's workers warm their own machines
        warming.build(say=lambda line: print(line, file=sys.stderr))
    if cluster is not None:
        # The workers grade: they check the sandbox and the sandbox user on their own machines.
        try:
            return run_batch(folder, Path(args.out), exercises, limits, workers=1, regrade=args.regrade,
                             user=args.sandbox_user, cluster=cluster, columns=columns, roster=roster)
        except ClusterProblem as problem:
            raise UsageProblem(str(problem)) from None
    return run_batch(folder, Path(args.out), exercises, limits,
                     workers=max(1, args.workers or os.cpu_count() or 1), regrade=args.regrade,
                     user=sandbox_user(args), isolation=isolation_from(args), columns=columns, roster=roster)


@command("report", TEACHING, "what a graded class misunderstands: a summary, and a page (--html) with charts")
def _report_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader report grades/", "grader report grades/ --html class.html",
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
    from grader.course import classreport  # when run: start-up speed

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


@command("warm", TEACHING, "warm the compilation cache every submission starts from")
def _warm_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader warm", "grader warm --force")
    parser.add_argument("--force", action="store_true", help="build it again even if it is up to date")
    parser.set_defaults(run=warm_command)


def warm_command(args: argparse.Namespace) -> int:
    from grader.engine import warming  # when run: start-up speed

    folder = warming.build(force=args.force, say=print)
    if folder is None:
        raise UsageProblem("no solutions/ folder here: the warm cache is built from the reference solutions")
    print(f"ready: {folder}")
    return 0
