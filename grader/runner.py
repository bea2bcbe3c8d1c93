"""Run the pristine checks against a target folder in a child pytest process.

The child writes one JSON line per check (see `grader.plugin`); the parent
reads them while it runs. A check that hangs past its limit or kills the
child is marked failed with the reason, and a new child carries on with the
checks that have not reported yet, so one bad exercise never costs the rest.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader import REPO_ROOT

CHECK_TIMEOUT = 60  # seconds per check (pytest-timeout in the child)
HANG_GRACE = 15  # extra seconds before the parent kills a child stuck in native code


@dataclass
class CheckResult:
    nodeid: str
    outcome: str  # "passed", "failed" or "skipped"
    reason: str = ""
    error: str = ""
    duration: float = 0.0

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


@dataclass
class RunResult:
    checks: dict[str, CheckResult] = field(default_factory=dict)  # in run order
    collected: list[dict] = field(default_factory=list)  # [{"nodeid", "exercise"}]
    output: str = ""  # the children's combined stdout/stderr, for diagnosing harness trouble

    def for_exercise(self, exercise_id: str) -> list[CheckResult]:
        ids = {c["nodeid"] for c in self.collected if c["exercise"] == exercise_id}
        return [r for nodeid, r in self.checks.items() if nodeid in ids]


def pytest_command(target: Path, report: Path, args: list[str], root: Path, timeout: int) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
            "--rootdir", str(root), "-c", str(root / "pyproject.toml"),
            "--target", str(target), "--kata-report", str(report),
            "--timeout", str(timeout), *args]


def run_checks(target: Path, paths: list[str] | None = None, *, root: Path = REPO_ROOT,
               timeout: int = CHECK_TIMEOUT, env: dict[str, str] | None = None) -> RunResult:
    """Run the checks in `paths` (default: all of `exercises/`) against `target`.

    Returns every collected check's result; checks that never reported
    (the child died or hung before reaching them) are failed with the reason.
    """
    result = RunResult()
    todo = list(paths or ["exercises"])
    with tempfile.TemporaryDirectory(prefix="katas-run-") as scratch:
        for attempt in itertools.count():
            report = Path(scratch) / f"report-{attempt}.jsonl"
            command = pytest_command(target, report, todo, root, timeout)
            records, exit_note, output = _run_child(command, report, root, timeout + HANG_GRACE, env)
            result.output += output
            collected = next((r["checks"] for r in records if r["event"] == "collected"), None)
            if collected is None:  # collection itself failed: nothing ran
                break
            if not result.collected:
                result.collected = collected
            settled = len(result.checks)
            started = None
            for record in records:
                if record["event"] == "start":
                    started = record["nodeid"]
                elif record["event"] == "result":
                    result.checks[record["nodeid"]] = CheckResult(
                        record["nodeid"], record["outcome"], record["reason"], record["error"],
                        record["duration"])
                    started = None
            if started is not None:  # the child died or hung inside this check
                result.checks[started] = CheckResult(started, "failed", exit_note, "Crash")
            todo = [c["nodeid"] for c in result.collected if c["nodeid"] not in result.checks]
            if not todo or len(result.checks) == settled:
                break
    for check in result.collected:
        result.checks.setdefault(
            check["nodeid"], CheckResult(check["nodeid"], "failed", "did not report a result", "NoResult"))
    return result


def _run_child(command: list[str], report: Path, root: Path, hang_limit: float,
               env: dict[str, str] | None) -> tuple[list[dict], str, str]:
    """Run one child; kill it if a single check runs past `hang_limit` seconds."""
    report.touch()
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
        child = subprocess.Popen(command, cwd=root, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=env if env is not None else os.environ.copy(),
                                 start_new_session=True)
        note = ""
        last_progress, seen = time.monotonic(), 0
        while child.poll() is None:
            time.sleep(0.2)
            size = report.stat().st_size
            if size != seen:
                seen, last_progress = size, time.monotonic()
            elif time.monotonic() - last_progress > hang_limit:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                note = f"timed out after {hang_limit - HANG_GRACE:g} s (stuck, the process was killed)"
        if not note:
            note = _exit_note(child.returncode)
        log.seek(0)
        output = log.read()
    return _read_records(report), note, output


def _exit_note(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"crashed the check process ({name})"
    return f"ended the check process early (exit code {code})"


def _read_records(report: Path) -> list[dict]:
    records = []
    for line in report.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a torn last line from a killed child
    return records
