"""What every `grader` command shares, below all of them: the registry each command module adds
itself to, and the options that several commands take (what to grade, for how long, where).

A command module registers each of its commands with `@command(name, group, help)` on the
function that adds the command's arguments (and `parser.set_defaults(run=...)`); grader.cli builds
the parser from the registry. No command imports grader.cli.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.core.commands import LEARNER_HELP
from grader.core.limits import MIB, Limits
from grader.core.selection import UsageProblem

# The groups `grader --help` lists the commands in.
LEARNING = "learning"
TEACHING = "teaching"


@dataclass(frozen=True)
class Command:
    name: str
    group: str  # LEARNING or TEACHING
    help: str  # its line in `grader --help`
    arguments: Callable[[argparse.ArgumentParser], None]  # adds its arguments, sets `run`


COMMANDS: dict[str, Command] = {}  # by name, in the order they were registered


def command(name: str, group: str, help: str) -> Callable:
    """Register the decorated function as the one that adds command `name`'s arguments."""
    if group not in (LEARNING, TEACHING):
        raise ValueError(f"command {name!r}: group {group!r} is neither {LEARNING!r} nor {TEACHING!r}")

    def register(arguments: Callable[[argparse.ArgumentParser], None]) -> Callable:
        if name in COMMANDS:
            raise ValueError(f"two commands named {name!r}")
        COMMANDS[name] = Command(name, group, help, arguments)
        return arguments

    return register


def learner_command(name: str) -> Callable:
    """Register a learning command, with the help line a released course's README shows for it."""
    return command(name, LEARNING, LEARNER_HELP[name])


def examples(parser: argparse.ArgumentParser, *lines: str) -> None:
    """End the command's --help with these example command lines."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in lines)


def add_assignment_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--assignment", metavar="NAME",
                        help="only the exercises of this assignment (an [[assignment]] table of "
                             "exercises/manifest.toml)")


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
    from grader.engine.sandbox import SandboxUnavailable, choose  # when a command grades: start-up speed

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


def roster_from(args: argparse.Namespace):
    """The roster `--roster` names (None without one), or a UsageProblem saying what is wrong with it."""
    if not args.roster:
        return None
    from grader.course.gradebooks import RosterProblem, load_roster  # when a batch runs: start-up speed

    try:
        return load_roster(Path(args.roster))
    except RosterProblem as problem:
        raise UsageProblem(str(problem)) from None


def cluster_from(args: argparse.Namespace):
    """The Dask cluster `--scheduler` or `--cluster` names (None: grade on this machine)."""
    if not (args.scheduler or args.cluster):
        return None
    from grader.course.cluster import ClusterSpec  # when a batch runs: start-up speed

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
