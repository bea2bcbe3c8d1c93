"""The `grader` command: `grader COMMAND --help` shows each command with an example.

Exit status: 0 whenever grading worked, whatever the score; 2 when it could not grade.

The commands live in modules by audience, each registering its commands with grader.cli.base:
grader.cli.learning (the learner's), grader.cli.grading (grading one submission or a class) and
grader.cli.course (writing, proving and releasing a course). `grader --help` lists the commands
of each group module by module in the order of MODULES, each module's in the order it registers them.
"""

from __future__ import annotations

import argparse
import sys

from grader.cli import course, grading, learning  # noqa: F401 - importing a command module registers its commands
from grader.cli.base import COMMANDS, LEARNING, TEACHING
from grader.core.manifest import ManifestError
from grader.core.selection import UsageProblem

GROUP_TITLES = {LEARNING: "learning (in your clone of the katas)", TEACHING: "teaching (grading and running a course)"}
MODULES = (learning.__name__, grading.__name__, course.__name__)


def listed() -> list:
    """The registered commands in the order `grader --help` lists them."""
    return sorted(COMMANDS.values(), key=lambda c: MODULES.index(c.arguments.__module__))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="grader", description="Practise JAX Katas, and grade them.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    for registered in listed():
        registered.arguments(commands.add_parser(registered.name, help=registered.help))
    commands._choices_actions.clear()  # noqa: SLF001 - listed below, in groups, instead
    width = max(len(name) for name in COMMANDS)
    lines = []
    for group, title in GROUP_TITLES.items():
        lines += ([""] if lines else []) + [f"{title}:"]
        lines += [f"  {c.name:<{width}}  {c.help}" for c in listed() if c.group == group]
    lines += ["", "examples:",
              "  grader next                 # run the checks of your current exercise",
              "  grader hint                 # a hint for it, gentle first",
              "  grader                      # your score, exercise by exercise",
              "  grader grade path/to/submission --json results.json",
              "  grader batch submissions/ --out grades/",
              "  grader report grades/ --html class.html",
              "", "`grader COMMAND --help` shows each command with examples."]
    top.epilog = "\n".join(lines)
    return top


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    top = parser()
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        argv = ["grade", *argv]  # `grader` alone grades your own exercises/
    args = top.parse_args(argv)
    try:
        return args.run(args)
    except (UsageProblem, ManifestError) as problem:  # a malformed manifest names its file and line
        print(f"grader: {problem}", file=sys.stderr)
        return 2
