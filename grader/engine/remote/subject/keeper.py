"""The subject's keeper: a witness, outside the submission's process, of every process it starts.

The audit hook refuses the ways of starting a process it hears of, but not
every way raises an audit event (`_posixsubprocess.fork_exec` does not), and
what it hears of is said inside the process the submission runs in. So a
subject begins by forking: the parent becomes the keeper and the child goes on
as the subject. The keeper runs no submission code, holds none of the
protocol's pipes, may not be traced or read by the subject (it is not
dumpable), and is a child subreaper: whatever the subject starts stays in the
keeper's tree however it detaches (a session of its own, a double fork), and
lands on the keeper when its parent ends.

The examiner asks the keeper, over a pipe pair the subject closed before any
submission code ran, which processes the subject has started (`census`). The
grader's own processes are not counted: the subject's fork server (named to
the keeper before any submission code ran) and the helpers it forks, and
without a fork server the multi-process checks' own interpreters. Every other
process in the tree now, and every one that was left to the keeper and has
ended since, is counted. When the examiner lets go (closes its end), or the
subject ends, the keeper kills everything in its tree and exits as the
subject did. A process that starts and ends within one request, under its
parent's care, is seen by the audit hook only.

The keeper also measures the subject's scratch folders (home, tmp, its own
cache), about once a second: how many files and folders they hold together
(`Limits.scratch_files`), and how many bytes each holds (`Limits.scratch_bytes`,
which the sandbox's file systems in memory enforce as they are written; the
keeper is what bounds them where there is no sandbox, or one too old to size
them). Past either it writes why in the subject's log, ends the subject, and
empties the folders, which the next subject may get. A burst written within
one second can overshoot by what one second of writing holds, each file at
most `Limits.file_bytes`.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import sys

from grader.core.limits import SCRATCH_BYTES_ENV, SCRATCH_ENV, SCRATCH_FILES_ENV, SCRATCH_FULL

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_trusted_write: int | None = None  # the subject's end of the pipe naming its fork server, until used


def split(census: tuple[int, int] | None, protocol: tuple[int, ...]) -> None:
    """Fork the keeper (Linux, with a census pipe pair): returns in the subject; the keeper never returns.
    `census` is (requests from the examiner, answers to it); `protocol` the subject's own pipes."""
    global _trusted_write
    if census is None or not sys.platform.startswith("linux"):
        return
    trusted_read, trusted_write = os.pipe()
    subject = os.fork()
    if subject == 0:
        from grader.core.limits import die_with_parent

        for fd in (*census, trusted_read):
            os.close(fd)
        die_with_parent()
        _trusted_write = trusted_write
        return
    try:
        os.close(trusted_write)
        for fd in protocol:
            os.close(fd)
        _prctl(_PR_SET_DUMPABLE, 0)
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        Keeper(subject, *census, trusted_read).watch()
    finally:
        os._exit(70)


def trust(fork_server: int | None) -> None:
    """Name the subject's fork server to the keeper (in the subject, before any submission code runs)."""
    global _trusted_write
    if _trusted_write is None:
        return
    os.write(_trusted_write, str(fork_server or 0).encode())
    os.close(_trusted_write)
    _trusted_write = None


class Keeper:
    def __init__(self, subject: int, requests: int, answers: int, trusted: int) -> None:
        self.subject, self.requests, self.answers, self.trusted = subject, requests, answers, trusted
        self.fork_server = 0
        self.ended: list[str] = []  # processes left to the keeper that ended since the last census
        self.scratch = Scratch.from_environment()

    def watch(self) -> None:
        signal.signal(signal.SIGTERM, lambda *_: self.finish(None))
        while True:
            watched = [self.requests] + ([self.trusted] if self.trusted >= 0 else [])
            readable, _, _ = select.select(watched, [], [], 0.2)
            self._reap()
            overfull = self.scratch.overfull()
            if overfull:
                os.write(2, f"\n{SCRATCH_FULL} {overfull}\n".encode())
                kill_tree(os.getpid())
                self.scratch.empty()  # the next subject may get the same folders (process mode)
                self.finish(None)
            if self.trusted in readable:
                text = os.read(self.trusted, 64)
                self.fork_server = int(text) if text.isdigit() else 0
                os.close(self.trusted)
                self.trusted = -1
            if self.requests in readable:
                if not os.read(self.requests, 64):
                    self.finish(None)  # the examiner let go
                started, self.ended = self.started() + self.ended, []
                os.write(self.answers, (json.dumps({"started": started[:20], "count": len(started)}) + "\n").encode())

    def started(self) -> list[str]:
        """The processes in the keeper's tree that the grader did not start, described."""
        found = []
        for pid, parent in descendants(os.getpid()):
            if pid == self.subject or self._grader_helper(pid, parent):
                continue
            found.append(describe(pid))
        return found

    def _grader_helper(self, pid: int, parent: int) -> bool:
        if self.fork_server and (pid == self.fork_server or parent == self.fork_server):
            return True
        if parent != self.subject:
            return False
        from grader.checks.processes import PROCESS_MAIN

        return _command_line(pid)[1:3] == ["-c", PROCESS_MAIN]  # a multi-process check without a fork server

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.subject:
                self.finish(status)
            self.ended.append(f"pid {pid} (it outlived its parent, and has ended)")

    def finish(self, status: int | None) -> None:
        """Kill everything in the tree, then exit as the subject did (killed, when it was still running)."""
        kill_tree(os.getpid())
        if status is None:
            status = _wait_for(self.subject)
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70)


class Scratch:
    """The subject's scratch folders, the files and folders they may hold together and the bytes each
    may hold, measured about once a second from outside the submission's process."""

    def __init__(self, folders: list[str], limit: int, bytes_limit: int = 0) -> None:
        self.folders, self.limit, self.bytes_limit = folders, limit, bytes_limit
        self._turn = 0

    @classmethod
    def from_environment(cls) -> Scratch:
        folders = [f for f in os.environ.get(SCRATCH_ENV, "").split(os.pathsep) if f]
        limit, bytes_limit = os.environ.get(SCRATCH_FILES_ENV, ""), os.environ.get(SCRATCH_BYTES_ENV, "")
        return cls(folders, int(limit) if limit.isdigit() else 0, int(bytes_limit) if bytes_limit.isdigit() else 0)

    def overfull(self) -> str:
        """Which limit the folders are past ("" if none), measured on every fifth call."""
        self._turn = (self._turn + 1) % 5
        if not self.folders or self._turn:
            return ""
        return self.past_a_limit()

    def past_a_limit(self) -> str:
        files_left = self.limit + 1 if self.limit else sys.maxsize
        for folder in self.folders:
            files, size = _measure(folder, files_left)
            files_left -= files
            if self.limit and files_left <= 0:
                return f"more than {self.limit} files and folders in its scratch folders (home, tmp, cache)"
            if self.bytes_limit and size > self.bytes_limit:
                return f"more than {_in_mib(self.bytes_limit)} in one of its scratch folders (home, tmp, cache)"
        return ""

    def empty(self) -> None:
        for folder in self.folders:
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)


def _measure(folder: str, most: int) -> tuple[int, int]:
    """The files and folders in `folder` (counted up to `most`) and the bytes they take on disk."""
    if os.path.ismount(folder):  # a file system of its own: it keeps both counts
        try:
            stats = os.statvfs(folder)
        except OSError:
            return 0, 0
        return max(0, stats.f_files - stats.f_ffree - 1), (stats.f_blocks - stats.f_bfree) * stats.f_frsize
    counted, size, queue = 0, 0, [folder]
    while queue and counted < most:
        try:
            with os.scandir(queue.pop()) as entries:
                for entry in entries:
                    counted += 1
                    if entry.is_dir(follow_symlinks=False):
                        queue.append(entry.path)
                    else:  # blocks taken, not the length: a sparse file of a terabyte takes none
                        with contextlib.suppress(OSError):
                            size += entry.stat(follow_symlinks=False).st_blocks * 512
        except OSError:
            continue
    return counted, size


def _in_mib(size: int) -> str:
    return f"{size // (1 << 20)} MiB" if size >= 1 << 20 else f"{size} bytes"


def descendants(root: int) -> list[tuple[int, int]]:
    """(pid, parent) of every live process below `root`, parents first."""
    found, queue = [], [root]
    while queue:
        parent = queue.pop()
        for child in _children(parent):
            found.append((child, parent))
            queue.append(child)
    return found


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    children = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                children += [int(n) for n in listing.read().split()]
        except (OSError, ValueError):
            continue
    return children


def kill_tree(root: int, spare: frozenset[int] = frozenset()) -> int:
    """SIGKILL every process below `root` (but the trees of `spare`), again until none is left (one
    may fork while it is killed); how many were killed."""
    killed = set()
    for _ in range(100):
        live = [pid for pid, _ in _descendants_sparing(root, spare)]
        if not live:
            break
        for pid in live:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
        _reap_quietly(live)
    return len(killed)


def _descendants_sparing(root: int, spare: frozenset[int]) -> list[tuple[int, int]]:
    found, queue = [], [root]
    while queue:
        parent = queue.pop()
        for child in _children(parent):
            if child in spare:
                continue
            found.append((child, parent))
            queue.append(child)
    return found


def _reap_quietly(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass  # not ours to reap: its parent (killed too) leaves it to us or to the kernel


def _wait_for(pid: int) -> int:
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return signal.SIGKILL  # reaped already: it was killed with the tree


def describe(pid: int) -> str:
    command = " ".join(_command_line(pid))[:120] or "?"
    return f"pid {pid} ({command})"


def _command_line(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return [part.decode(errors="replace") for part in cmdline.read().split(b"\0") if part]
    except OSError:
        return []


def _prctl(option: int, value: int) -> None:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
