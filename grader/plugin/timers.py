"""Time limits for exercise checks: a plain "timed out" lesson instead of pytest-timeout's stack
dumps, and a watchdog that ends a run stuck where Python cannot interrupt it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import Any

import pytest

from grader.core.manifest import Exercise
from grader.core.progress import Progress, Verdict, fingerprint
from grader.plugin.state import STATE


def check_timeout(config: pytest.Config) -> float:
    """Seconds one exercise check may run: --check-timeout, else the kata_check_timeout ini value."""
    return config.getoption("check_timeout") or float(config.getini("kata_check_timeout"))


class CheckTimer:
    """Fail one check that runs past its limit; end the run if it cannot be interrupted."""

    def __init__(self, item: pytest.Item, entry: Exercise, seconds: float, *, use_signal: bool,
                 watchdog: bool, ignore_debugger: bool) -> None:
        self.item, self.entry, self.seconds = item, entry, seconds
        self.use_signal, self.ignore_debugger = use_signal, ignore_debugger
        self.watchdog: threading.Timer | None = None
        if watchdog:
            from grader.core.limits import Limits

            # With the signal the check normally fails on time; the watchdog only acts
            # when the signal could not get through.
            grace = Limits.hang_grace if use_signal else 0
            self.watchdog = threading.Timer(seconds + grace, self._stuck)
            self.watchdog.daemon = True
            self.watchdog.name = f"katas timeout {item.nodeid}"

    def start(self) -> None:
        if self.use_signal:
            signal.signal(signal.SIGALRM, self._alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        if self.watchdog is not None:
            self.watchdog.start()

    def cancel(self) -> None:
        if self.use_signal:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        if self.watchdog is not None:
            self.watchdog.cancel()

    def _debugging(self) -> bool:
        from pytest_timeout import is_debugging

        return not self.ignore_debugger and is_debugging()

    def _alarm(self, signum: int, frame: Any) -> None:
        __tracebackhide__ = True
        if self._debugging():
            return
        from pytest_timeout import PYTEST_FAILURE_MESSAGE

        # pytest-timeout's own words, which _reason (and so the grader) turns into the lesson.
        pytest.fail(PYTEST_FAILURE_MESSAGE % self.seconds)

    def _stuck(self) -> None:
        if self._debugging():
            return
        from grader.runtime.explain import explain_timeout

        config = self.item.config
        reason = f"timed out after {self.seconds:g} s in {self.entry.id}"
        capture = config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=True)
        lesson = explain_timeout(reason)
        terminal = config.get_terminal_writer()
        terminal.line("")
        terminal.sep("!", reason, red=True)
        terminal.line(f"{self.item.nodeid} is stuck in compiled code, where Python cannot "
                      f"interrupt it, so the run stops here.")
        terminal.line(lesson.text().split("\n", 1)[1])
        terminal.flush()
        record_stuck(config, self.entry, reason)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)


def record_stuck(config: pytest.Config, entry: Exercise, reason: str) -> None:
    """Remember that this exercise hangs, so `grader progress` does not run it (and hang) again."""
    state = config.stash[STATE]
    run = state.learner
    if run is None or entry.id not in run.fingerprints:
        return
    with contextlib.suppress(OSError):
        progress = Progress(state.root)
        if fingerprint(state.checks_dir, entry) == run.fingerprints[entry.id]:
            progress.record(entry, run.fingerprints[entry.id], Verdict(False, reason))
            progress.save()
