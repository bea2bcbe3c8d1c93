"""The `grader` commands a learner uses, each with its one-line help.

One list for two readers: the CLI registers the learning commands with these lines (and lists
them in this order in `grader --help`), and a released course's README shows them, so the two
never disagree and no course tool needs the CLI to know them.
"""

from __future__ import annotations

LEARNER_COMMANDS: tuple[tuple[str, str], ...] = (
    ("next", "run the checks of the current (or a named) exercise"),
    ("watch", "re-run the current (or a named) exercise's checks each time you save it"),
    ("hint", "the next hint for the current (or a named) exercise"),
    ("progress", "which exercises are done, and the current one"),
    ("solution", "the reference solution, once your version passes"),
    ("reset", "restore an exercise's original file (from git)"),
    ("notebooks", "write the exercises as Jupyter/Colab notebooks, one per topic"),
)

LEARNER_HELP: dict[str, str] = dict(LEARNER_COMMANDS)
