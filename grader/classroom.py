"""`grader` subcommands for course set-up (release, classroom-workflow, gradescope-bundle)."""

PARSERS: list = []  # functions (subparsers) -> None, registered by grader.cli
