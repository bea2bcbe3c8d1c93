"""Run checks in a child pytest process, the examiner, and collect its per-check results.

The examiner is started with `python -I` (or forked from a server started so,
see Examiners), plugin autoloading off, an explicit config and rootdir, a
scrubbed environment and resource limits, and
`--kata-subject`: it never imports the submission, but starts a subject
process for it (in the sandbox, see grader.engine.remote) and judges what the
subject reports. It reports each check over a private pipe, signed with a
random key read at start-up from a second, one-shot pipe. No submission code
runs in the examiner; the key and the signature are a second lock for the
fallback without a sandbox, where a subject runs as the same user. Stdout,
exit codes and files either process writes never count, and a record with a
bad signature is evidence of tampering.

A check that hangs past its limit or kills the child is failed with the
reason, and a new child carries on with the checks that have not reported.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import queue
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from grader.core.limits import Limits
from grader.engine.workspace import Workspace
from grader.runtime import forkserver, profiling


@dataclass
class CheckResult:
    nodeid: str
    outcome: str  # "passed", "failed" or "skipped"
    reason: str = ""
    error: str = ""
    duration: float = 0.0
    code: str = ""  # the kind of mistake, a key of checks.FAILURE_CODES ("" when passed)
    refused: str = ""  # what the subject's audit hook refused (a review flag), if anything

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


@dataclass
class RunResult:
    collected: list[dict] = field(default_factory=list)  # [{"nodeid", "exercise", "hidden"}]
    checks: dict[str, CheckResult] = field(default_factory=dict)
    forged: int = 0  # records with a bad signature: someone wrote to the channel
    round_trips: int = 0  # requests the examiner sent the subject
    output: str = ""  # the children's stdout/stderr, for diagnosing harness trouble
    error: str = ""  # set when no check could run at all

    def for_exercise(self, exercise_id: str) -> list[tuple[dict, CheckResult]]:
        """(collected entry, result) for each check of one exercise, in run order."""
        return [(c, self.checks[c["nodeid"]]) for c in self.collected
                if c["exercise"] == exercise_id and c["nodeid"] in self.checks]


def sign(key: bytes, payload: str) -> str:
    return hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()


# A check that ends with one of these has failed its exercise in a way its other checks
# would repeat, each costing the same limit again: they are not run.
HARD_FAILURES = ("timeout", "memory-limit", "crash")
# What the C++ runtime prints when an allocation fails under the address-space limit.
_OUT_OF_MEMORY = ("bad_alloc", "RESOURCE_EXHAUSTED", "Out of memory", "out of memory", "MemoryError",
                  "Cannot allocate memory")


def pytest_arguments(workspace: Workspace, limits: Limits, args: list[str]) -> list[str]:
    """The examiner's pytest arguments (the subject's command is in the workspace's subject.json)."""
    return ["-c", str(workspace.config), "--rootdir", str(workspace.root),
            "-p", "grader.plugin", "-p", "pytest_timeout", "-q", "--no-header",
            "--target", str(workspace.submission), "--kata-channel", "{handshake_fd}",
            "--kata-subject", str(workspace.subject_config),
            "--timeout", str(limits.check_seconds), "--check-timeout", str(limits.check_seconds), *args]


class Examiners:
    """A fork server (grader.runtime.forkserver) for one submission's examiners.

    Every examiner imports the same things before it reads a check: JAX,
    pytest, the plugin and chex, about 1.4 s of CPU. The server imports them
    once, under the examiners' limits and user, while the grader lays out the
    workspaces, and forks each examiner (each share's, and a fresh one after a
    crash) from itself. It never imports a check or the submission, and holds
    no key: each examiner reads its own from its handshake pipe, as before.
    """

    def __init__(self, client: forkserver.Client, process: subprocess.Popen) -> None:
        self.client, self.process = client, process

    def fork(self, args: list[str], cwd: Path, env: dict[str, str], pipes: tuple[int, ...],
             output: int) -> forkserver.Forked | None:
        """An examiner running pytest with `args` in `cwd`, holding `pipes` at the same numbers as here
        and writing its output to `output`; None if the server is gone."""
        return self.client.fork(examine, [args, str(cwd), list(pipes)], env=env, fds=(*pipes, output),
                                session=True)

    def stop(self) -> None:
        self.client.close()  # the server ends, and every examiner it forked with it
        self.process.kill()
        self.process.wait()


def start_examiners(limits: Limits, env: dict[str, str], cwd: Path, user: str | None) -> Examiners | None:
    """Start the examiners' fork server; None where there is none to start (not Linux, or
    KATAS_NO_FORKSERVER): each examiner is then a new interpreter. A server that cannot fork safely
    after its preload exits at once, and its forks return None."""
    if not sys.platform.startswith("linux") or os.environ.get(forkserver.DISABLE_ENV):
        return None
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        process = subprocess.Popen(
            [*limits.launcher(), sys.executable, "-I", "-B", "-m", "grader.runtime.forkserver",
             "--socket", str(theirs.fileno()), "--preload", f"{__name__}:{preload.__name__}"],
            cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),), start_new_session=True, user=user, group=_group_of(user))
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return Examiners(forkserver.Client(ours, process.pid), process)


# What every examiner imports before or during its checks, by name as its command line names its plugins.
EXAMINER_MODULES = ("chex", "jax.numpy", "jax.ad_checkpoint", "jax.experimental.key_reuse",
                    "jax.experimental.multihost_utils", "numpy.testing", "pytest", "pytest_timeout",
                    "grader.checks", "grader.engine.remote.examiner", "grader.engine.warm", "grader.plugin",
                    "grader.runtime.explain")


def preload() -> None:
    """Import EXAMINER_MODULES and pytest's own plugins (in the examiners' fork server), in a process no
    other of its user may trace or read: a subject without the sandbox runs as that user, and every
    examiner forked from here (and its helpers' server) starts as this process is."""
    import importlib

    from grader.engine.remote.examiner.process import forbid_inspection

    forbid_inspection()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the plugin sets it, before NumPy loads
    for name in EXAMINER_MODULES:
        importlib.import_module(name)
    from _pytest import config

    for name in config.default_plugins:
        importlib.import_module(f"_pytest.{name}")
    from grader.runtime.jaxsetup import import_lowering

    import_lowering()


def examine(args: list[str], cwd: str, numbers: list[int], *handed: int) -> int:
    """An examiner forked from the server: `python -I -B -m pytest ARGS` in `cwd`, its pipes moved to
    the numbers the grader knows them by."""
    import atexit

    import pytest

    forkserver.renumber(handed, numbers)
    profiling.start("examiner")
    os.chdir(cwd)
    sys.argv = [os.path.join(os.path.dirname(pytest.__file__), "__main__.py"), *args]
    code = pytest.console_main()
    atexit._run_exitfuncs()  # as an interpreter's exit would (a grading examiner ends in the plugin)
    return code


def run_checks(workspace: Workspace, paths: list[str], limits: Limits, *,
               env: dict[str, str] | None = None, user: str | None = None,
               restore: Callable[[], object] = lambda: None, examiners: Examiners | None = None) -> RunResult:
    """Run the checks in `paths` (relative to the workspace); every collected check ends with a result.

    The first child's signed list of collected checks, sent before any
    submission code is imported, is the list of expected checks. A check that
    never reports (the child hung, crashed or exited first) is failed with the
    reason, and so are the other checks of an exercise that failed hard (a
    timeout, the memory limit, a crash): each would cost the same limit
    again. The remaining checks run in a fresh child. `restore` runs before
    each such restart, to undo whatever the crashed child changed in the
    workspace. With `examiners`, each child is forked from that server.
    """
    result = RunResult()
    deadline = time.monotonic() + limits.submission_seconds
    args = list(paths)
    while True:
        child = _Child(pytest_arguments(workspace, limits, args), workspace, env or workspace.env(), user)
        records, exit_note, output = child.run(limits, deadline, examiners)
        result.output += output
        result.forged += child.forged
        result.round_trips += sum(int(r.get("round_trips", 0)) for r in records if r["event"] == "session")
        if not result.collected:
            result.collected = next((r["checks"] for r in records if r["event"] == "collected"), [])
            if not result.collected:
                tail = [line for line in output.splitlines() if line.strip()][-3:]
                result.error = f"the checks could not be collected ({exit_note}): {' | '.join(tail)[-300:]}"
                return result
        expected = [c["nodeid"] for c in result.collected]
        exercise_of = {c["nodeid"]: c["exercise"] for c in result.collected}
        settled = len(result.checks)
        started = None
        for record in records:
            nodeid = record.get("nodeid")
            if record["event"] == "start" and nodeid in expected:
                started = nodeid
            elif record["event"] == "result" and nodeid in expected:
                result.checks[nodeid] = _trusted_result(record, limits)
                started = None
        if started is not None:  # the child died or was killed inside this check
            code = "memory-limit" if _out_of_memory(output) else "timeout" if "timed out" in exit_note else "crash"
            note = _memory_note(limits) if code == "memory-limit" else exit_note
            result.checks[started] = CheckResult(started, "failed", f"{note} in {exercise_of[started]}",
                                                 "Crash", code=code)
        for nodeid, check in list(result.checks.items()):
            if check.code in HARD_FAILURES:
                _skip_rest_of(exercise_of[nodeid], result, check.reason)
        args = [nodeid for nodeid in expected if nodeid not in result.checks]
        if not args:
            return result
        if time.monotonic() >= deadline:
            why = f"not run: the submission used up its {limits.submission_seconds} s limit"
            break
        if len(result.checks) == settled:  # no progress: the child fails before reaching any check
            why = f"did not report a result ({exit_note})"
            break
        restore()
    for nodeid in args:
        result.checks[nodeid] = CheckResult(nodeid, "failed", why, "NoResult", code="not-run")
    return result


def _trusted_result(record: dict, limits: Limits) -> CheckResult:
    result = CheckResult(record["nodeid"], record["outcome"], record["reason"], record["error"],
                         record["duration"], record.get("code", ""), str(record.get("refused", "")))
    if result.code == "memory-limit":
        result.reason = f"{_memory_note(limits)} ({result.reason})"
    return result


def _memory_note(limits: Limits) -> str:
    return f"used more than {limits.memory_bytes // (1024 * 1024)} MiB of memory, the limit per check process"


def _out_of_memory(output: str) -> bool:
    tail = output[-4000:]
    return any(sign in tail for sign in _OUT_OF_MEMORY)


def _skip_rest_of(exercise: str, result: RunResult, why: str) -> None:
    for check in result.collected:
        if check["exercise"] == exercise and check["nodeid"] not in result.checks:
            result.checks[check["nodeid"]] = CheckResult(
                check["nodeid"], "failed", f"not run: an earlier check of {exercise} failed hard ({why})",
                "Skipped", code="not-run")


class _Child:
    """One child pytest process with its signed result channel."""

    def __init__(self, args: list[str], workspace: Workspace, env: dict[str, str],
                 user: str | None) -> None:
        self.args, self.workspace, self.env, self.user = args, workspace, env, user
        self.key = secrets.token_bytes(32)
        self.records: queue.Queue = queue.Queue()
        self.forged = 0

    def run(self, limits: Limits, deadline: float,
            examiners: Examiners | None = None) -> tuple[list[dict], str, str]:
        results_read, results_write = os.pipe()
        handshake_read, handshake_write = os.pipe()
        args = [arg.replace("{handshake_fd}", str(handshake_read)) for arg in self.args]
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
            try:
                process = examiners and examiners.fork(args, self.workspace.root, self.env,
                                                       (results_write, handshake_read), log.fileno())
                if process is None:
                    process = subprocess.Popen(
                        [*limits.launcher(), sys.executable, "-I", "-B", "-m", "pytest", *args],
                        cwd=self.workspace.root, env=self.env, stdin=subprocess.DEVNULL,
                        stdout=log, stderr=subprocess.STDOUT, pass_fds=(results_write, handshake_read),
                        start_new_session=True, user=self.user, group=_group_of(self.user))
            except BaseException:
                for fd in (results_read, results_write, handshake_read, handshake_write):
                    os.close(fd)
                raise
            os.close(results_write)  # the child holds the only write end: EOF when it exits
            os.close(handshake_read)
            reader = threading.Thread(target=self._read, args=(results_read,), daemon=True)
            reader.start()
            # The plugin reads this before any submission code is imported, then closes it.
            with os.fdopen(handshake_write, "w") as handshake:
                try:
                    handshake.write(json.dumps({"key": self.key.hex(), "fd": results_write}))
                except BrokenPipeError:
                    pass  # the child died at once; _watch reports how
            records, note = self._watch(process, limits, deadline)
            _kill(process)  # whatever the child left running in its process group goes too
            reader.join(timeout=5)
            while not self.records.empty():
                records.append(self.records.get())
            log.seek(0)
            return records, note or _exit_note(process.returncode), log.read()

    def _read(self, fd: int) -> None:
        with os.fdopen(fd, "r", encoding="utf-8", errors="replace") as channel:
            for line in channel:
                try:
                    record = json.loads(line)
                    mac = record.pop("mac")
                except (json.JSONDecodeError, KeyError, AttributeError):
                    self.forged += 1
                    continue
                if hmac.compare_digest(mac, sign(self.key, json.dumps(record, sort_keys=True))):
                    self.records.put(record)
                else:
                    self.forged += 1

    def _watch(self, process: subprocess.Popen | forkserver.Forked, limits: Limits,
               deadline: float) -> tuple[list[dict], str]:
        """Wait for the child; kill it when one check or the whole submission runs too long."""
        records: list[dict] = []
        check_started = None
        check_limit = limits.check_seconds + limits.hang_grace
        while True:
            try:
                record = self.records.get(timeout=0.05)  # also how soon an exit is seen
                records.append(record)
                check_started = time.monotonic() if record["event"] == "start" else None
                continue
            except queue.Empty:
                pass
            if process.poll() is not None:
                return records, ""
            now = time.monotonic()
            if check_started is not None and now - check_started > check_limit:
                _kill(process)
                return records, f"timed out after {limits.check_seconds} s (stuck; the check process was killed)"
            if now > deadline:
                _kill(process)
                return records, f"timed out: the submission used up its {limits.submission_seconds} s limit"


def _group_of(user: str | None) -> int | None:
    if user is None:
        return None
    import pwd

    return pwd.getpwnam(user).pw_gid


def _kill(process: subprocess.Popen | forkserver.Forked) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
    process.wait()


def _exit_note(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"crashed the check process ({name})"
    return f"ended the check process early (exit code {code})"
