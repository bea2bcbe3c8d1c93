"""Failure messages as people read them: no grader scratch paths, no unbounded length.

A message is written by the check process (a lesson, an exception's text) or
by the grader (a limit hit, a refused file), and a submission decides part of
it: an exception can carry 300 kB of text, and a path names the grader's
scratch folder (`/tmp/katas-grade-x1y2/ws0/subject/submission/01_purity/global_config.py`),
which means nothing to a student and tells them how grading is laid out.
Every output format (the terminal table, JSON, Gradescope, GitHub Classroom,
JUnit) and every class table passes its messages through `shown`, so none
carries either, whichever message it is.
"""

from __future__ import annotations

import re

# Enough for any lesson or exception headline the checks write (a few lines); a submission's own
# exception text beyond it is cut, with the count of what was left out.
MESSAGE_LIMIT = 2000

# The grader's scratch folders, as tempfile names them: grading.grade's `katas-grade-*` (one
# `ws<N>` workspace per check process inside, the subject's side in its `subject/`), batch's `katas-batch-*`, a Dask worker's
# `katas-worker-*` and a multi-process check's `katas-processes-*`. Whatever comes before them is
# the machine's temporary folder.
_SCRATCH = re.compile(r"/katas-(?:grade|batch|worker|processes)-[A-Za-z0-9_]+/"
                      r"(?:ws\d+/(?:subject/)?(?P<part>submission/|exercises/|hidden/)?)?")
# What ends a path on its left in a message: it started after a space, a quote or a bracket.
_BEFORE_PATH = frozenset(" \t\n\r'\"`()[]<>,;=")


def without_scratch_paths(text: str) -> str:
    """`text` with every path into a grader scratch folder made relative to it.

    `.../katas-grade-x1y2/ws0/subject/submission/01_purity/a.py` reads
    `exercises/01_purity/a.py`, the file as the student has it (a workspace's
    exercise and check folders hold what the student's exercises/ holds);
    `.../katas-grade-x1y2/ws0/subject/tmp/out.txt` reads `tmp/out.txt`. One pass over
    the text, whatever its length (a regular expression that looked back for
    the path's start would take quadratic time on a long word).
    """
    if "/katas-" not in text:
        return text
    parts, done = [], 0
    for match in _SCRATCH.finditer(text):
        start = match.start()
        while start > done and text[start - 1] not in _BEFORE_PATH:
            start -= 1
        parts += [text[done:start], "exercises/" if match.group("part") else ""]
        done = match.end()
    return "".join(parts) + text[done:]


def capped(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to at most `limit` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    marker, kept = "", limit
    for _ in range(3):  # the marker takes room from the text, which changes its count: settled by the third
        kept = max(0, limit - len(marker))
        marker = f" [... {len(text) - kept:,} more characters cut]"
    return text[:kept] + marker


# What a terminal, a CI log or an XML file reads as a command or cannot hold: the C0 controls but tab and
# newline (ESC starts a terminal's escape sequences), DEL and the C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(text: str) -> str:
    """`text` with nothing a reader of it would act on: each control character written out as `\\xNN`,
    and the GitHub Actions runner's legacy command form `##[`, which it reads anywhere in a log line,
    broken up. A submission's own text (an error's message) reaches every report."""
    return _CONTROLS.sub(lambda found: f"\\x{ord(found.group()):02x}", text).replace("##[", "# #[")


def shown(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message as any output shows it: no scratch paths, nothing a terminal or a CI log acts on
    (`inert`), at most `limit` characters."""
    return capped(inert(without_scratch_paths(text or "")), limit)


def spreadsheet_cell(value: object) -> object:
    """A CSV cell no spreadsheet reads as a formula: text that starts with `=`, `+`, `-`, `@`, a tab or
    a carriage return is led by an apostrophe, which spreadsheets show as text and do not keep."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
