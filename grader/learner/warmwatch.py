"""A warm check process for `grader watch`: each save is checked by a fresh fork of it.

Starting Python, importing JAX and pytest and collecting an exercise's checks
cost most of a second, every run. `grader watch` pays it once per exercise:
it starts `python -m grader.learner.warmwatch exercises/NN_topic/test_x.py`, which runs
pytest up to the point where the checks are collected (JAX imported and
configured but not started, the compilation cache set up) and then waits. For
each save the watcher writes `run` on its standard input; the warm process
forks, and the fork starts JAX's backend, runs the checks as plain pytest would
(same output, lessons and progress file) and exits. The warm process itself
never runs a check, so every run starts from the same clean copy.

A process can be forked safely only while it has one thread: once JAX's
backend has started (XLA runs thread pools) it cannot. So the plugin leaves the
backend for each run to start (its `--kata-warm-fork` option), and the warm
process refuses to serve if anything started threads anyway (a check module
that computes with JAX at import): it answers `cold`, and the watcher runs
pytest afresh each time instead. Linux only, for the same reason.

Protocol (one line each): the warm process writes `ready` (or `cold`) on the
descriptor named by its second argument, then `done <exit status>` after each
run; `quit`, or the end of its input, ends it.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import pytest



def forkable() -> bool:
    """Whether this process has only its main thread and JAX's backend is not started."""
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    try:
        from jax._src import xla_bridge

        if getattr(xla_bridge, "_backends", None):
            return False
        return len(os.listdir("/proc/self/task")) == 1
    except (ImportError, OSError):
        return False


class WarmLoop:
    """The pytest plugin that turns the run loop into 'wait for a request, fork, run in the fork'."""

    def __init__(self, requests: Any, replies: int) -> None:
        self.requests, self.replies = requests, replies  # pytest puts its own object in sys.stdin
        self.in_fork = False

    def reply(self, line: str) -> None:
        os.write(self.replies, (line + "\n").encode())

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> object:
        from grader.plugin.state import begin_forked_run
        from grader.runtime.jaxsetup import import_lowering

        if not forkable():
            self.reply("cold")
            os._exit(0)
        import_lowering()
        self.reply("ready")
        for request in self.requests:
            if request.strip() != "run":
                break
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                self.in_fork = True
                os.close(self.replies)
                self.requests.close()
                begin_forked_run(session.config)
                _restart_clock(session.config)
                return None  # pytest's own run loop now runs the checks, in this fork only
            _, status = os.waitpid(pid, 0)
            self.reply(f"done {os.waitstatus_to_exitcode(status)}")
        os._exit(0)  # the watcher is done with this exercise


def _restart_clock(config: pytest.Config) -> None:
    """pytest's closing line says how long the session took: in a fork, count from the fork."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and hasattr(reporter, "_session_start"):  # a private attribute: if it moved,
        from _pytest import timing  # the line counts from the warm process's start instead

        reporter._session_start = timing.Instant()


def main(argv: list[str]) -> int:
    check_file, replies = argv[0], int(argv[1])
    loop = WarmLoop(os.fdopen(os.dup(0), "r"), replies)
    code = pytest.main(["-q", "--kata-warm-fork", check_file], plugins=[loop])
    # Only a fork gets here (the warm process itself ends in its loop), or a run that never reached
    # its loop (an error while collecting the checks): the watcher then runs pytest the plain way.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(code) if loop.in_fork else 4)


if __name__ == "__main__":
    main(sys.argv[1:])
