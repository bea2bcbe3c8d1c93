"""The subject process as the examiner holds it: started, greeted, stopped; its failures."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from grader.checks.core import KataFailure
from grader.core.limits import SCRATCH_FULL
from grader.engine.remote.codec import WireError
from grader.engine.remote.launch import SubjectConfig
from grader.engine.remote.protocol import FrameReader, SubjectGone, TooSlow, write_frame


SUBJECT_START_SECONDS = 120  # JAX's import and start-up, on a busy machine
CENSUS_SECONDS = 10  # the keeper's answer: a walk of the subject's processes, on a busy machine
DEBUG_ENV = "KATAS_DEBUG_SUBJECT"  # set: say on stderr when a request to the subject fails


class SubjectFailure(KataFailure):
    """The subject died, hung, refused something or answered nonsense; `code` says which
    (timeout, crash, memory-limit, refused)."""

    def __init__(self, message: str, code: str, refused: str = "") -> None:
        super().__init__(message, code)
        self.refused = refused


class Subject:
    """One subject process and its pipes."""

    def __init__(self, config: SubjectConfig) -> None:
        self.config = config
        to_read, self._to = os.pipe()
        self._from, from_write = os.pipe()
        self._audit, audit_write = os.pipe()
        asked, self._ask = os.pipe()  # the keeper's census (see subject.keeper): questions, answers
        self._census, answers = os.pipe()
        fds = (to_read, from_write, audit_write, asked, answers)
        for fd in (self._to, from_write):
            _widen_pipe(fd)
        self._log = open(config.log, "ab+") if config.log else None  # noqa: SIM115 - kept for the process' life
        command = [*config.prefix, sys.executable, "-I", "-B", "-m", "grader.engine.remote.subject",
                   "--devices", str(config.devices), "--submission", config.submission,
                   "--fds", ",".join(str(fd) for fd in fds[:3]), "--census", f"{asked},{answers}"]
        try:
            self.process = _hosted(config, fds, self._log) if config.host else None
            if self.process is None:
                self.process = subprocess.Popen(
                    command, pass_fds=fds, stdin=subprocess.DEVNULL, stdout=self._log or subprocess.DEVNULL,
                    stderr=subprocess.STDOUT if self._log else subprocess.DEVNULL, env=config.env,
                    cwd=config.cwd, start_new_session=True)
        finally:
            for fd in fds:
                os.close(fd)
        self.reader = FrameReader(self._from)
        self.lock = threading.RLock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def exchange(self, data: bytes, deadline: float | None) -> bytes:
        with self.lock:
            try:
                write_frame(self._to, data)
                return self.reader.read(deadline)
            except (BrokenPipeError, SubjectGone):
                raise self._gone() from None
            except TooSlow:
                self.stop()
                raise SubjectFailure("timed out (stuck; the subject process was killed)", "timeout") from None
            except WireError as error:
                self.stop()
                raise SubjectFailure(f"the submission's process sent an unreadable answer ({error})",
                                     "crash") from None

    def _gone(self) -> SubjectFailure:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.stop()
            code = self.process.returncode
        refused = self.refusal()
        if refused:
            return SubjectFailure(f"did something an exercise never needs, refused by the grader: {refused}",
                                  "refused", refused)
        tail = self.log_tail()
        if SCRATCH_FULL in tail:
            what = tail.rsplit(SCRATCH_FULL, 1)[1].split("\n", 1)[0].strip()
            return SubjectFailure(f"put {what}, past the limit for the submission's process", "crash")
        if any(sign in tail for sign in ("bad_alloc", "RESOURCE_EXHAUSTED", "Out of memory", "out of memory",
                                        "MemoryError", "Cannot allocate memory")):
            limit = f"{self.config.memory_bytes // (1024 * 1024)} MiB of memory" if self.config.memory_bytes \
                else "the memory it is allowed"
            return SubjectFailure(f"used more than {limit}, the limit per check process", "memory-limit")
        if code is not None and code < 0:
            import signal

            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return SubjectFailure(f"crashed the submission's process ({name})", "crash")
        return SubjectFailure(f"ended the submission's process early (exit code {code})", "crash")

    def refusal(self) -> str:
        """What the audit hook refused, if it did (the subject then ended itself)."""
        import select

        chunks = []
        while select.select([self._audit], [], [], 0)[0]:
            chunk = os.read(self._audit, 4096)
            if not chunk:
                break
            chunks.append(chunk)
        text = b"".join(chunks).decode(errors="replace").strip()
        return text.splitlines()[0] if text else ""

    def log_tail(self) -> str:
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0, os.SEEK_END)
        size = self._log.tell()
        self._log.seek(max(0, size - 4000))
        return self._log.read().decode(errors="replace")

    def census(self) -> SubjectFailure | None:
        """Ask the keeper which processes the subject started (it answers in milliseconds); a failure
        to report if any (the subject is to be ended), or if the keeper is gone or silent."""
        answer = b""
        try:
            os.write(self._ask, b"?")
            deadline = time.monotonic() + CENSUS_SECONDS
            while not answer.endswith(b"\n") and select.select([self._census], [], [], max(0.0, deadline - time.monotonic()))[0]:
                chunk = os.read(self._census, 65536)
                if not chunk:
                    break
                answer += chunk
            found = json.loads(answer)
            started, count = [str(p) for p in found["started"]], int(found["count"])
        except (OSError, ValueError, KeyError, TypeError):
            why = "ended the grader's watch on the processes it starts"
            return SubjectFailure(f"did something an exercise never needs, refused by the grader: {why}", "refused", why)
        if not count:
            return None
        why = (f"started {count} process(es) of its own, which an exercise never needs: "
               f"{', '.join(started[:3])}{' ...' if count > 3 else ''}")
        return SubjectFailure(f"did something an exercise never needs, refused by the grader: {why}", "refused", why)

    def stop(self) -> None:
        if isinstance(self.process, HostedSubject):
            self.process.end()
        elif self.process.poll() is None:
            self.process.terminate()  # the keeper kills what the subject started, the subject, then itself
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, 9)
                self.process.kill()
                self.process.wait()
        for fd in (self._to, self._from, self._audit, self._ask, self._census):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._log is not None:
            self._log.close()
            self._log = None


class HostedSubject:
    """A subject forked by the submission's subject host (grader.engine.remote.subject.host), held
    as a `subprocess.Popen` is: the host says on the connection when it started and when it ended,
    and letting go of the connection ends it."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection, self.pid, self.returncode = connection, None, None

    def poll(self) -> int | None:
        while self.returncode is None and select.select([self.connection], [], [], 0)[0]:
            self._read()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.connection], [], [], left)[0]:
                raise subprocess.TimeoutExpired("subject", timeout or 0)
            self._read()
        return self.returncode

    def end(self) -> None:
        """Let go: the host kills the subject and its processes, and says so."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.wait(10)
        self.connection.close()

    def _read(self) -> None:
        try:
            message = json.loads(self.connection.recv(4096) or b'{"exit": -9}')  # EOF: the host is gone
            if "pid" in message:
                self.pid = int(message["pid"])
            if "exit" in message:
                self.returncode = int(message["exit"])
        except (OSError, ValueError, TypeError):
            self.returncode = -9


def _hosted(config: SubjectConfig, fds: tuple[int, ...], log: Any) -> HostedSubject | None:
    """A subject forked by the submission's host, asked for without waiting for it (as a new process
    is); None if the host cannot be reached: then a subject of its own is started."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    output = log.fileno() if log is not None else os.open(os.devnull, os.O_WRONLY)
    try:
        connection.connect(config.host)
        request = {"devices": config.devices, "submission": config.submission, "cwd": config.cwd or os.getcwd(),
                   "env": config.env if config.env is not None else dict(os.environ)}
        socket.send_fds(connection, [json.dumps(request).encode()], [*fds, output])
        return HostedSubject(connection)
    except OSError:
        connection.close()
        return None
    finally:
        if log is None:
            os.close(output)


PIPE_BYTES = 1 << 20  # Linux's limit for a user's pipe: a jaxpr or a batch of arrays in one write


def _widen_pipe(fd: int) -> None:
    """A pipe of 1 MiB, not 64 KiB: a large message then crosses in one write, without the two
    processes taking turns at every 64 KiB."""
    import fcntl

    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, set_size, PIPE_BYTES)


def forbid_inspection() -> None:
    """Linux: no other process of this user may read this one's memory or open its descriptors
    (/proc/PID/mem, /proc/PID/fd): a subject without the sandbox runs as the same user."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_dumpable = 4
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_dumpable, 0)
