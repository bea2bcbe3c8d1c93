"""A failed check shown as a lesson: the plain-language reason, then a traceback cut to the check
and the learner's own file (under the grader: the reason alone)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.core.manifest import Exercise
from grader.plugin.state import STATE


_TIMEOUT = re.compile(r"^Timeout \(>([0-9.]+)s\) from pytest-timeout")


def reason(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    from grader.runtime.explain import headline

    timed_out = _TIMEOUT.match(str(excinfo.value))
    if timed_out:
        return f"timed out after {float(timed_out.group(1)):g} s"
    return headline(excinfo.value)


class PlainReports:
    """Under the grader, a failed check's report without pytest's traceback formatting.

    The grader reads each check's one-line reason from the signed channel, never
    the terminal; formatting a traceback through JAX's frames costs tens of
    milliseconds per failure, most of a failing submission's grading time.
    """

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]):
        from _pytest.outcomes import skip

        excinfo = call.excinfo
        if not isinstance(excinfo, pytest.ExceptionInfo) or isinstance(excinfo.value, (skip.Exception,
                                                                                       BaseExceptionGroup)):
            return None  # passed or skipped: pytest's own report, which costs nothing
        sections = [(f"Captured {key} {when}", content) for when, key, content in item._report_sections]
        return pytest.TestReport(item.nodeid, item.location, dict.fromkeys(item.keywords, 1), "failed",
                                 str(excinfo.value)[:2000], call.when, sections, call.duration, call.start,
                                 call.stop, user_properties=item.user_properties)


def learner_traceback(item: pytest.Item, entry: Exercise, excinfo: pytest.ExceptionInfo[BaseException]):
    """The traceback cut down to the check file and the learner's exercise file.

    What is left reads top-down: the check line that called the learner's
    function, then the learner's own frames down to the failing line; frames in
    JAX, NumPy, the check helpers and pytest are dropped. `--tb=native` and
    `--fulltrace` keep the full traceback (None here), as does an error with no
    frame in either file.
    """
    from grader.runtime.explain import explain

    config = item.config
    style = config.getoption("tbstyle")
    if style == "native" or config.getoption("fulltrace"):
        return None
    state = config.stash[STATE]
    own = {Path(item.path).resolve(), (state.target / entry.path).resolve()}

    def ours(tb_entry: Any) -> bool:
        path = tb_entry.path
        return isinstance(path, Path) and path.resolve() in own

    if not any(ours(tb_entry) for tb_entry in excinfo.traceback):
        return None
    with _without_jax_note(excinfo.value):
        trimmed = excinfo.getrepr(
            style="long" if style == "long" else "short", chain=False,
            tbfilter=lambda info: info.traceback.filter(ours),
            showlocals=config.getoption("showlocals"), funcargs=style == "long")
    if explain(excinfo.value) is not None:
        _shorten_message(trimmed)
    return trimmed


_MESSAGE_LINES = 4
_RULE = re.compile(r"^E\s+-{5,}\s*$")  # JAX's separator lines


def _shorten_message(trimmed: Any) -> None:
    """Cut a long JAX error message (a leaked tracer's runs to 15 lines) when the lesson above says it."""
    last = trimmed.reprtraceback.reprentries[-1]
    lines = [line for line in getattr(last, "lines", ()) if not _RULE.match(line)]
    message = [i for i, line in enumerate(lines) if line.startswith("E ")]
    if len(message) <= _MESSAGE_LINES + 1:
        return
    cut = message[_MESSAGE_LINES]
    left = len(message) - _MESSAGE_LINES
    last.lines = lines[:cut] + [f"E   ... ({left} more lines: --tb=native shows them)"] + \
        lines[message[-1] + 1:]


_JAX_NOTE = "For simplicity, JAX has removed its internal frames"


@contextlib.contextmanager
def _without_jax_note(exc: BaseException) -> Iterator[None]:
    """Hide JAX's note about the frames it removed: the trimmed traceback drops more than JAX does."""
    notes = getattr(exc, "__notes__", None)
    if not notes:
        yield
        return
    exc.__notes__ = [note for note in notes if _JAX_NOTE not in note]
    try:
        yield
    finally:
        exc.__notes__ = notes


@dataclass
class _Crash:
    message: str

    def __str__(self) -> str:  # what `--tb=line` prints
        return self.message


class LessonRepr:
    """A failure shown as a lesson; its first line also heads pytest's short summary."""

    def __init__(self, text: str, headline: str, traceback: Any = None) -> None:
        self.text = text
        self.traceback = traceback  # pytest's repr of the trimmed traceback, or None
        self.reprcrash = _Crash(headline)

    def toterminal(self, out: Any) -> None:
        if self.text:
            out.line(self.text)
        if self.traceback is not None:
            if self.text:
                out.line("")
            self.traceback.toterminal(out)

    def __str__(self) -> str:
        return "\n\n".join(part for part in (self.text, str(self.traceback or "")) if part)
