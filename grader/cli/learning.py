"""The learner's commands: next, watch, hint, progress, solution, reset, notebooks.

Each reads its options and calls the learner tools (grader.learner): the same functions the
notebook magic calls. Their help lines are grader.core.commands', which a released course's
README shows too.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from grader.cli.base import examples, learner_command
from grader.learner import learn


def _repo_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the katas checkout to work in (default: the one you are in, else the "
                             "one the grader was installed from)")
    parser.add_argument("--assignment", metavar="NAME",
                        help="work on this assignment's exercises only (an [[assignment]] table of the manifest)")


def _target_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", metavar="ID|TOPIC",
                        help="an exercise id, or a topic (its first unfinished exercise); default: the "
                             "current exercise")


def _course(args: argparse.Namespace) -> learn.Course:
    return learn.course_from(args.repo, args.assignment)


# --- next -----------------------------------------------------------------------------------


@learner_command("next")
def _next_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader next                # the current exercise",
             "grader next explicit-3     # this exercise, then the unfinished ones after it",
             "grader next vmap           # the first unfinished exercise of a topic")
    _target_argument(parser)
    _repo_option(parser)
    parser.set_defaults(run=next_command)


def next_command(args: argparse.Namespace) -> int:
    """Exit status 0 when every exercise from there on passes, 1 while the one run fails."""
    return learn.run_next(_course(args), args.id)


# --- watch ----------------------------------------------------------------------------------


@learner_command("watch")
def _watch_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader watch", "grader watch explicit-3      # this exercise, then the ones after it",
             "grader watch vmap            # from the first unfinished exercise of a topic",
             "grader watch --max-runs 1   # run once and stop (scripts, CI)")
    _target_argument(parser)
    parser.add_argument("--poll", type=float, default=0.05, metavar="S",
                        help="how often to look at the file, seconds (default %(default)s)")
    parser.add_argument("--max-runs", type=int, default=None, metavar="N",
                        help="stop after running the checks N times (default: until you quit)")
    _repo_option(parser)
    parser.set_defaults(run=watch_command)


def watch_command(args: argparse.Namespace) -> int:
    from grader.learner.watch import watch  # when run: start-up speed

    return watch(_course(args), args.id, poll=args.poll, max_runs=args.max_runs)


# --- hint -----------------------------------------------------------------------------------


@learner_command("hint")
def _hint_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader hint             # the current exercise", "grader hint purity-2",
             "grader hint vmap        # the first unfinished exercise of a topic")
    _target_argument(parser)
    _repo_option(parser)
    parser.set_defaults(run=hint_command)


def hint_command(args: argparse.Namespace) -> int:
    return learn.show_hint(_course(args), args.id)


# --- progress -------------------------------------------------------------------------------


@learner_command("progress")
def _progress_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader progress             # at once, from the last results",
             "grader progress --recheck   # first re-run the exercises changed since their last check")
    parser.add_argument("--recheck", action="store_true",
                        help="run the checks of exercises changed since their last check before printing")
    _repo_option(parser)
    parser.set_defaults(run=progress_command)


def progress_command(args: argparse.Namespace) -> int:
    return learn.show_progress(_course(args), recheck=args.recheck)


# --- solution -------------------------------------------------------------------------------


@learner_command("solution")
def _solution_arguments(parser: argparse.ArgumentParser) -> None:
    examples(parser, "grader solution purity-1")
    parser.add_argument("id", help="the exercise")
    _repo_option(parser)
    parser.set_defaults(run=solution_command)


def solution_command(args: argparse.Namespace) -> int:
    return learn.show_solution(_course(args), args.id)


# --- reset ----------------------------------------------------------------------------------


@learner_command("reset")
def _reset_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Restore exercise files as git has them: by default as of your last commit "
                          "(HEAD), which is the original stub until you commit your own work. After "
                          "committing, name the commit holding the originals with --from.")
    examples(parser, "grader reset purity-1", "grader reset purity-1 --yes", "grader reset --all",
             "grader reset purity-1 --from $(git rev-list --max-parents=0 HEAD)   # your first commit")
    parser.add_argument("id", nargs="?", help="the exercise to restore")
    parser.add_argument("--all", action="store_true", help="restore every exercise file")
    parser.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    parser.add_argument("--from", dest="source", default="HEAD", metavar="REV",
                        help="the git commit holding the originals (default %(default)s)")
    _repo_option(parser)
    parser.set_defaults(run=reset_command)


def reset_command(args: argparse.Namespace) -> int:
    return learn.reset(_course(args), args.id, every=args.all, yes=args.yes, source=args.source)


# --- notebooks ------------------------------------------------------------------------------


@learner_command("notebooks")
def _notebooks_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write one notebook per topic into OUT, in teaching order: each exercise's lesson, "
                          "its code in a cell headed `%%kata ID` that runs the exercise's checks on the cell "
                          "when you run it, and a set-up cell. Results count in your progress file. The code "
                          "cells start from your exercises/ files as they are now. Needs the notebooks "
                          "extra: python -m pip install -e \".[notebooks]\".")
    examples(parser, "grader notebooks notebooks/                  # then: jupyter lab notebooks/",
             "grader notebooks notebooks/ --only purity,jit_tracing",
             "grader notebooks notebooks/ --force          # write over notebooks already there",
             "grader notebooks /content/drive/MyDrive/jax-katas/notebooks   # Colab, in your Drive")
    parser.add_argument("out", help="the folder to write the notebooks into (made if missing)")
    parser.add_argument("--only", metavar="IDS",
                        help="only these topics or exercises: ids, topics or topic folders, comma-separated")
    parser.add_argument("--force", action="store_true",
                        help="write over notebooks already in OUT (your work in them is lost); by default "
                             "they are kept")
    parser.add_argument("--repo", type=Path, metavar="DIR",
                        help="the katas checkout to work in (default: the one you are in, else the one the "
                             "grader was installed from)")
    parser.add_argument("--assignment", metavar="NAME",
                        help="only this assignment's exercises (an [[assignment]] table of the manifest)")
    parser.set_defaults(run=notebooks_command)


def notebooks_command(args: argparse.Namespace) -> int:
    from grader.learner.notebook_writer import write_course_notebooks  # when run: start-up speed

    return write_course_notebooks(_course(args), Path(args.out).expanduser(), args.only, force=args.force)
