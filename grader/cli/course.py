"""The commands that run a course: `new` and `check` (writing exercises and proving them sound),
`release`, `classroom-workflow` and `gradescope-bundle` (the course for students and autograders),
`doctor` (what this machine gives the grader).

Each reads its options and calls the course tools (grader.course) that do the work.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from grader import REPO_ROOT
from grader.cli.base import TEACHING, add_assignment_option, add_limit_options, command, examples, limits_from
from grader.course import authoring, classroom, doctor
from grader.engine import sandbox


# --- writing and proving exercises ---------------------------------------------------------


@command("new", TEACHING, "write a new exercise: stub, checks, solution, variants, manifest entry (instructors)")
def _new_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write a new exercise into the course: the stub with a lesson and a "
                          "task, its check file, the reference solution, a variants folder with "
                          "a mimic and a mutant, and its manifest entry after the last exercise "
                          "of its topic. The files hold a small working kata (a function jitted "
                          "once for any factor) that `grader check ID` proves sound: rewrite "
                          "them into yours.")
    examples(parser, "grader new attention-1 --topic attention --file causal_mask",
             "grader new at-6 --kind fix-it --points 2     # the at_updates topic, from the id's prefix",
             "grader check attention-1                     # then prove it sound")
    parser.add_argument("id", help="the new exercise's id, like 'attention-1' (<prefix>-<n>, n the next number)")
    parser.add_argument("--topic", help="its topic (default: the topic of the id's prefix, or a new topic named "
                                        "after the prefix)")
    parser.add_argument("--kind", choices=authoring.KINDS, default="fill-in",
                        help="fill-in (the learner replaces a TODO) or fix-it (the learner fixes a classic bug); "
                             "default %(default)s")
    parser.add_argument("--points", type=int, default=1, help="points it earns, 1 to 5 (default %(default)s)")
    parser.add_argument("--file", metavar="IDEA", help="its file name, after the idea, like 'causal_mask' "
                                                        "(default: the id with _ for -)")
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the course checkout to write into (default: the one you are in, else the one the "
                             "grader was installed from)")
    parser.set_defaults(run=new_command)


def new_command(args: argparse.Namespace) -> int:
    return authoring.new_exercise(authoring.course_repo(args.repo), args.id, topic=args.topic, kind=args.kind,
                                  points=args.points, idea=args.file)


@command("check", TEACHING, "prove exercises sound: stub fails, solution passes, variants judged right "
                            "(instructors)")
def _check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Prove exercises sound: each stub fails every check for the "
                          "exercise's reason, each reference solution passes (twice, the "
                          "same way), each kept mutant and mimic (tests/variants/) is "
                          "rejected (a mimic not for its values), each alternate accepted, "
                          "each hidden check rejects a kept hard-coded answer. One line per "
                          "exercise, and what to fix. Stubs are read as staged in git.")
    examples(parser, "grader check                       # the whole course",
             "grader check my-1 purity           # some exercises: ids, topics, id prefixes",
             "grader check my-1 --mutate         # ... and mutants derived from the solution",
             "grader check --mutate --report mutation.json --survivors survivors/")
    parser.add_argument("names", nargs="*", metavar="ID|TOPIC",
                        help="the exercises to check: ids, topics, topic folders or id prefixes (default: all)")
    parser.add_argument("--assignment", metavar="NAME", help="check this assignment's exercises")
    parser.add_argument("--mutate", action="store_true",
                        help="also derive mutants from each reference solution with JAX-aware operators (drop "
                             "jax.jit, mark an argument static, a Python loop for lax.scan, reuse a PRNG key, NumPy "
                             "on the host, gather a sharded input, .at[].add -> .set, ...) and name every one "
                             "that passes all the checks: their blind spots")
    parser.add_argument("--report", metavar="FILE", help="write the results as JSON (problems, every derived "
                                                          "mutant's outcome, seconds per exercise)")
    parser.add_argument("--survivors", metavar="DIR",
                        help="with --mutate: write each surviving mutant's source to DIR/<id>/<name>.py")
    parser.add_argument("--workers", type=int, default=2, metavar="N",
                        help="check processes at once (default %(default)s)")
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the course checkout to check (default: the one you are in, else the one the "
                             "grader was installed from)")
    parser.set_defaults(run=check_command)


def check_command(args: argparse.Namespace) -> int:
    """0 when every exercise checked is sound (and, with --mutate, no derived mutant survives);
    1 when something is unsound; 2 when the course cannot be checked at all."""
    return authoring.check_course(authoring.course_repo(args.repo), args.names, args.assignment,
                                  mutate=args.mutate, report=args.report, survivors=args.survivors,
                                  workers=args.workers)


# --- the course for students and autograders -----------------------------------------------


@command("release", TEACHING, "build the student repository (instructors)")
def _release_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write the student repository: stubs, visible checks, manifest, "
                          "the grader, README, .gitignore and the GitHub Classroom workflow. "
                          "No hidden checks and, unless asked, no solutions.")
    examples(parser, "grader release ../jax-katas-course",
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
    return classroom.write_release(Path(args.out), args.source, with_solutions=args.with_solutions,
                                   assignment=args.assignment)


@command("classroom-workflow", TEACHING, "write the GitHub Classroom workflow (instructors)")
def _workflow_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write .github/workflows/classroom.yml: it grades with the checks, "
                          "manifest and grader pinned by SHA-256, never with the student's "
                          "copies. `grader release` writes it too.")
    examples(parser, "grader classroom-workflow > classroom.yml",
             "grader classroom-workflow --release ../jax-katas-course "
             "--out ../jax-katas-course/.github/workflows/classroom.yml",
             "grader classroom-workflow --only purity,at_updates --out week1.yml")
    parser.add_argument("--out", metavar="FILE", help="where to write it (default: standard output)")
    parser.add_argument("--release", metavar="DIR",
                        help="pin the files of this release folder (say, after you edited a check there) "
                             "instead of the ones `grader release` would write now")
    add_limit_options(parser)
    parser.set_defaults(run=workflow_command)


def workflow_command(args: argparse.Namespace) -> int:
    return classroom.write_workflow(Path(args.out) if args.out else None,
                                    Path(args.release) if args.release else None,
                                    args.only, args.assignment, limits_from(args))


@command("gradescope-bundle", TEACHING, "build a Gradescope autograder zip (instructors)")
def _bundle_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write a Gradescope autograder: setup.sh, run_autograder and the "
                          "pristine checks, hidden ones included.")
    examples(parser, "grader gradescope-bundle autograder.zip",
             "grader gradescope-bundle week1.zip --only purity,at_updates --submission-timeout 900")
    parser.add_argument("out", metavar="OUT.zip", help="the zip to write")
    add_limit_options(parser)
    parser.set_defaults(run=bundle_command)


def bundle_command(args: argparse.Namespace) -> int:
    return classroom.write_bundle(Path(args.out), args.only, args.assignment, limits_from(args))


# --- the grading machine -------------------------------------------------------------------


@command("doctor", TEACHING, "what this machine gives the grader: isolation, JAX, devices")
def _doctor_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader doctor", "grader doctor --json", "KATAS_ISOLATION=process grader doctor")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument("--isolation", choices=sandbox.CHOICES, default=None,
                        help="the isolation to try (default: auto, or $KATAS_ISOLATION)")
    parser.set_defaults(run=doctor_command)


def doctor_command(args: argparse.Namespace) -> int:
    return doctor.report(args.isolation, as_json=args.json)
