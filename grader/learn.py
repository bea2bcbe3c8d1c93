"""`grader` subcommands for learners (progress, next, hint, watch, reset, solution)."""

PARSERS: list = []  # functions (subparsers) -> None, registered by grader.cli
