"""The `grader` command.

    grader                  grade your own exercises/ and print a table
    grader grade PATH       grade a submission folder against this repo's pristine checks
    grader grade PATH --json results.json

Exit status: 0 when grading worked, whatever the score; 2 when it could not grade.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader import REPO_ROOT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grader", description="Grade JAX Katas exercises.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  grader\n  grader grade submissions/alice --json alice.json")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    grade = commands.add_parser(
        "grade", help="grade a submission folder (default: your exercises/)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  grader grade\n  grader grade solutions\n"
               "  grader grade ~/submissions/alice --json alice.json")
    _add_grade_arguments(grade)
    return parser


def _add_grade_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=None,
                        help="a copy of exercises/ or a repository holding one (default: your exercises/)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--timeout", metavar="SECONDS", type=int, default=None,
                        help="time limit per check in seconds (default 60)")
    parser.add_argument("--only", metavar="IDS",
                        help="grade only these exercises: ids, topics or topic folders, comma-separated "
                             "(e.g. purity-1,at_updates)")


COMMANDS = {"grade"}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        argv = ["grade", *argv]  # `grader` alone grades your own exercises/
    args = _parser().parse_args(argv)
    return grade_command(args)


def grade_command(args: argparse.Namespace) -> int:
    from grader.grading import grade, render_table, to_json
    from grader.plugin import resolve_target

    if not (REPO_ROOT / "exercises" / "manifest.toml").is_file():
        print(f"grader: no exercises/manifest.toml next to the grader package ({REPO_ROOT}); "
              f"install the katas with `python -m pip install -e .` from a clone", file=sys.stderr)
        return 2
    target = resolve_target(args.path or "exercises", REPO_ROOT)
    if not target.is_dir():
        print(f"grader: {args.path} is not a folder", file=sys.stderr)
        return 2
    only = None
    if args.only:
        from grader.manifest import ManifestError, load_manifest, select

        try:
            only = list(select(load_manifest(REPO_ROOT / "exercises"), args.only))
        except ManifestError as error:
            print(f"grader: {error}", file=sys.stderr)
            return 2
    report = grade(target, only=only, timeout=args.timeout)
    print(render_table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(report), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
