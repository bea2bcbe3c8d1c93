"""`python -I -B -m grader.engine.remote.subject.host --listen FD --lifeline FD`: a submission's subject host.

Every subject of a graded submission (one per share of its exercises, the
helpers' subjects with other device counts, and the fresh one after a crash)
used to be a new interpreter, and each spent most of a second of CPU importing
JAX. The grader starts this host once per submission, in the sandbox and under
the limits its subjects have, and the host forks each subject from itself: it
has imported JAX (not started it) and the grader's subject side, and runs no
submission code, so a subject starts as clean as a new interpreter would.

Each examiner that wants a subject connects to the host's socket (the grader
made it, outside the sandbox, where no subject can reach it) and sends what the
subject needs (its device count, submission folder, working folder and
environment) with its three pipes and its log. The host answers with the
subject's pid, and with its exit status when it ends. When the examiner lets
go of the connection (it stopped the subject, or died), the host kills the
subject and everything it started. When the grader's end of the lifeline pipe
closes (the grader finished, or was killed), the host ends its subjects and
itself.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import sys
from pathlib import Path

MAX_REQUEST_BYTES = 1 << 20  # a subject's environment and paths
_FDS = 6  # requests, replies, audit, the keeper's two (see keeper), log
_forkable = False  # whether this process can fork safely (see grader.runtime.forkserver)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.engine.remote.subject.host")
    parser.add_argument("--listen", type=int, required=True, help="the listening socket's descriptor")
    parser.add_argument("--lifeline", type=int, required=True,
                        help="a pipe's read end whose writer is the grader: at its end the host ends")
    args = parser.parse_args(argv)
    from grader.core.limits import die_with_parent
    from grader.engine.remote.subject.__main__ import import_before_start

    die_with_parent()
    import_before_start()
    _forbid_inspection()
    from grader.runtime import forkserver

    global _forkable
    _forkable = (sys.platform.startswith("linux") and not os.environ.get(forkserver.DISABLE_ENV)
                 and forkserver.forkable())
    listener = socket.socket(fileno=args.listen)
    _serve(listener, args.lifeline)


def _serve(listener: socket.socket, lifeline: int) -> None:
    subject_of: dict[socket.socket, int | None] = {}  # connection -> its subject's pid (None: not yet)
    connection_of: dict[int, socket.socket] = {}
    while True:
        ready, _, _ = select.select([listener, lifeline, *subject_of], [], [], 0.05)
        if lifeline in ready:  # the grader is gone (it died, or was killed with its batch): so are we,
            for pid in list(connection_of):  # at once: no examiner is left to wait for a subject's end
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            from grader.engine.remote.subject.keeper import kill_tree

            kill_tree(os.getpid())  # what the subjects started comes to the host (a subreaper) as they die
            os._exit(0)
        for sock in ready:
            if sock is listener:
                connection, _ = listener.accept()
                subject_of[connection] = None
                continue
            try:
                message, fds, _, _ = socket.recv_fds(sock, MAX_REQUEST_BYTES, _FDS)
            except OSError:
                message, fds = b"", []
            if not message or subject_of[sock] is not None:  # let go of (or spoken to twice): end it
                for fd in fds:
                    os.close(fd)
                _end(subject_of.pop(sock), connection_of)
                sock.close()
                continue
            pid = _spawn(message, fds, listener, subject_of)
            for fd in fds:
                os.close(fd)
            subject_of[sock] = pid
            if pid is not None:
                connection_of[pid] = sock
            _send(sock, {"pid": pid} if pid is not None else {"exit": 1})
        _reap(connection_of)


def _spawn(message: bytes, fds: list[int], listener: socket.socket,
           connections: dict[socket.socket, int | None]) -> int | None:
    try:
        request = json.loads(message)
        devices, submission, cwd, env = (int(request["devices"]), str(request["submission"]),
                                         str(request["cwd"]), dict(request["env"]))
    except (ValueError, KeyError, TypeError):
        return None
    if len(fds) != _FDS:
        return None
    if not _forkable:  # a thread a fork would cut in half: a new interpreter, as without a host
        return _start_new(devices, submission, cwd, env, fds)
    pid = os.fork()
    if pid:
        return pid
    try:  # the subject
        listener.close()
        for connection in connections:
            connection.close()
        _become_subject(devices, Path(submission), cwd, env, fds)
    finally:
        os._exit(70)


def _start_new(devices: int, submission: str, cwd: str, env: dict, fds: list[int]) -> int | None:
    import subprocess

    requests, replies, audit_fd, asked, answers, log = fds
    try:
        return subprocess.Popen(
            [sys.executable, "-I", "-B", "-m", "grader.engine.remote.subject", "--devices", str(devices),
             "--submission", submission, "--fds", f"{requests},{replies},{audit_fd}", "--census", f"{asked},{answers}"],
            pass_fds=(requests, replies, audit_fd, asked, answers), stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
            cwd=cwd, start_new_session=True).pid  # reaped by pid, as a forked one is
    except OSError:
        return None


def _become_subject(devices: int, submission: Path, cwd: str, env: dict, fds: list[int]) -> None:
    import tempfile

    from grader.core.limits import die_with_parent
    from grader.engine.remote.subject.__main__ import serve

    os.setsid()  # a process group of its own, which the host kills whole
    die_with_parent()
    _set_dumpable(1)  # as a subject started on its own is (the host is not)
    requests, replies, audit_fd, asked, answers, log = fds
    os.dup2(log, 1)
    os.dup2(log, 2)
    _close_all_but((0, 1, 2, requests, replies, audit_fd, asked, answers))  # a new process gets only its own, too
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = None  # found again from this subject's TMPDIR
    serve(devices, submission, requests, replies, audit_fd, (asked, answers))


def _close_all_but(kept: tuple[int, ...]) -> None:
    try:
        open_fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        open_fds = list(range(1024))
    for fd in open_fds:
        if fd not in kept:
            try:
                os.close(fd)
            except OSError:
                pass


def _end(pid: int | None, connection_of: dict[int, socket.socket]) -> None:
    """End a subject: its keeper kills whatever the subject started, then itself; what is left (a
    keeper killed before it could) is killed here, since it was left to the host (a subreaper)."""
    from grader.engine.remote.subject.keeper import kill_tree

    if pid is None or pid not in connection_of:
        return  # never started, or reaped already
    del connection_of[pid]
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    if not _exited_within(pid, 2.0):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        os.waitpid(pid, 0)
    kill_tree(os.getpid(), spare=frozenset(connection_of))


def _exited_within(pid: int, seconds: float) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return True
        time.sleep(0.01)
    return False


def _reap(connection_of: dict[int, socket.socket]) -> None:
    from grader.runtime.forkserver import ended_children

    for pid, code in ended_children():
        connection = connection_of.pop(pid, None)
        if connection is not None:
            _send(connection, {"exit": code})


def _send(connection: socket.socket, message: dict) -> None:
    try:
        connection.send(json.dumps(message).encode())
    except OSError:
        pass  # the examiner is gone: the connection's end is seen next round


def _forbid_inspection() -> None:
    """No subject (same user, same sandbox) may read the host's memory or trace it; and what a
    subject starts and leaves behind (its keeper killed) is left to the host, which kills it."""
    _set_dumpable(0)
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER


def _set_dumpable(value: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, value)  # PR_SET_DUMPABLE


if __name__ == "__main__":
    main()
