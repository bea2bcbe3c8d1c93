"""Helper processes forked from a copy of the check process taken before JAX started.

Some checks need another Python with JAX: `on_devices` reruns a check with
another device count, and `run_in_processes` starts the processes of a
multi-process program. A fresh interpreter spends about a second of CPU
importing JAX each time. So the check process forks this server once, after
importing JAX and before starting it (a process can only be forked safely while
it has a single thread), and the server forks every helper from itself in a
millisecond. The server is forked before any learner code is imported, holds
none of the check process's keys, and closes every file it was not handed, so a
helper sees no more of the check process than a fresh interpreter would.

The grader runs the same server as a process of its own, `python -I -B -m
grader.runtime.forkserver --socket FD --preload MODULE:FUNCTION`, to fork a
submission's examiners (grader.engine.runner): the preload imports what every
examiner imports (JAX, pytest, the plugin, chex), once per submission instead
of once per examiner.

Linux only; where the server is missing (another OS, a process that already has
threads, or JAX started already; `KATAS_NO_FORKSERVER=1`), `fork` returns None and callers start a new
interpreter as before.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator

DISABLE_ENV = "KATAS_NO_FORKSERVER"

_client: Client | None = None


def listen_now() -> None:
    """Start the client's listening thread now, if there is a client (a process that counts its
    threads from here on counts this one among its own)."""
    if _client is not None and _client.alive():
        _client.listen()


def start() -> bool:
    """Fork the server now if it is safe (Linux, JAX not started, see forkable); True if it runs."""
    global _client
    if _client is not None and _client.alive():
        return True
    if not sys.platform.startswith("linux") or os.environ.get(DISABLE_ENV) or not forkable():
        return False
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid == 0:
        try:
            ours.close()
            _serve(theirs)
        finally:
            os._exit(0)
    theirs.close()
    _client = Client(ours, pid)
    return True


def fork(entry: Callable[..., int | None], args: list, *, env: dict, fds: tuple[int, ...] = (),
         log: str | None = None) -> Forked | None:
    """A helper forked from this process's server (see `start`); None when there is none.
    See Client.fork."""
    if _client is None:
        return None
    return _client.fork(entry, args, env=env, fds=fds, log=log)


def server_pid() -> int | None:
    """The pid of this process's fork server, if it started one."""
    return _client.pid if _client is not None else None


def forkable() -> bool:
    """No thread that a fork would cut in half: no Python thread but this one, JAX not started, and
    no named native thread (XLA and gRPC name theirs). numpy's BLAS keeps an unnamed pool that
    handles a fork itself."""
    if threading.active_count() != 1:
        return False
    try:
        from jax._src import xla_bridge

        if getattr(xla_bridge, "_backends", None):
            return False
        main = _thread_name(os.getpid())
        return all(_thread_name(int(task)) == main for task in os.listdir("/proc/self/task"))
    except (ImportError, OSError):
        return False


def _thread_name(task: int) -> str:
    with open(f"/proc/self/task/{task}/comm", encoding="utf-8", errors="replace") as file:
        return file.read().strip()


# --- the check process's side ------------------------------------------------------------------


class Forked:
    """A forked helper: the parts of subprocess.Popen its callers use."""

    def __init__(self, client: Client, pid: int) -> None:
        self.client, self.pid = client, pid

    @property
    def returncode(self) -> int | None:
        return self.client.ended.get(self.pid)

    def poll(self) -> int | None:
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def wait(self) -> int:
        with self.client.changed:
            while self.returncode is None and self.client.alive():
                self.client.changed.wait(0.5)
        return self.returncode if self.returncode is not None else -signal.SIGKILL


class Client:
    """The forking side's end of a server's socket."""

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self.sock, self.pid = sock, pid
        self.ended: dict[int, int] = {}
        self.started: list[int | None] = []
        self.changed = threading.Condition()
        self.sending = threading.Lock()
        self.listener: threading.Thread | None = None

    def alive(self) -> bool:
        return self.sock.fileno() >= 0 and (self.listener is None or self.listener.is_alive())

    def fork(self, entry: Callable[..., int | None], args: list, *, env: dict, fds: tuple[int, ...] = (),
             log: str | None = None, session: bool = False) -> Forked | None:
        """A helper forked from the server that calls `entry(*args, *fds)` and exits with what it returns.

        `entry` is a module-level function; the server imports it by name, so whoever forks decides
        what the helper runs. With `log` the helper gets a session of its own and writes its output
        there (a multi-process check's process); without it the last of `fds` becomes its stderr (a
        worker), and with `session` also its stdout, in a session of its own that ends with the
        server (an examiner). None when the server is gone."""
        if not self.alive():
            return None
        request = {"entry": f"{entry.__module__}:{entry.__qualname__}", "args": args, "env": env, "log": log,
                   "session": session}
        return self._send(request, fds)

    def close(self) -> None:
        """Let go of the server: it ends, and so do the helpers it forked with `session`."""
        self.sock.close()

    def listen(self) -> None:
        """Start the thread that hears the server's replies (once the fork is done: a thread never
        meets a fork); `_send` does it on first use."""
        if self.listener is None:
            self.listener = threading.Thread(target=self._listen, name="katas-forkserver", daemon=True)
            self.listener.start()

    def _send(self, request: dict, fds: tuple[int, ...]) -> Forked | None:
        self.listen()
        with self.sending:
            try:
                socket.send_fds(self.sock, [json.dumps(request).encode()], list(fds))
            except OSError:
                return None
            with self.changed:
                while not self.started and self.listener.is_alive():
                    self.changed.wait(0.5)
                pid = self.started.pop(0) if self.started else None
        return Forked(self, pid) if pid is not None else None

    def _listen(self) -> None:
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                break
            message = json.loads(data)
            with self.changed:
                if "started" in message:
                    self.started.append(message["started"])
                else:
                    self.ended[message["ended"]] = message["code"]
                self.changed.notify_all()
        with self.changed:
            self.started.append(None)  # the server is gone: nothing more will start
            self.changed.notify_all()


# --- the server --------------------------------------------------------------------------------


def _serve(sock: socket.socket) -> None:
    import gc
    import select

    # Objects of the check process that wrap files closed below must never be finalised here:
    # their descriptor numbers are reused for the helpers' pipes.
    gc.freeze()
    _die_with_parent()
    _keep_only(sock.fileno())
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wake-up fd hears of exits
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the check process's to handle
    while True:
        readable, _, _ = select.select([sock, wake_read], [], [])
        if wake_read in readable:
            os.read(wake_read, 4096)
            _report_ended(sock)
        if sock in readable:
            try:
                data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 16)
            except OSError:
                return
            if not data:
                return  # the check process has ended
            pid = os.fork()
            if pid == 0:
                try:
                    signal.set_wakeup_fd(-1)
                    os.close(wake_read)
                    os.close(wake_write)
                    _run(json.loads(data), sock, fds)
                finally:
                    os._exit(70)
            for fd in fds:
                os.close(fd)
            sock.send(json.dumps({"started": pid}).encode())
            _report_ended(sock)


def _report_ended(sock: socket.socket) -> None:
    for pid, code in ended_children():
        sock.send(json.dumps({"ended": pid, "code": code}).encode())


def ended_children() -> Iterator[tuple[int, int]]:
    """Reap the children that ended: (pid, exit code as `subprocess` gives it) for each, without waiting."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, os.waitstatus_to_exitcode(status)


def _die_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:
        os._exit(0)  # the parent ended before the line above


def _keep_only(*keep: int) -> None:
    """Standard streams on /dev/null and every other descriptor closed, except `keep`."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    last = 3
    for fd in sorted(set(keep) | {os.sysconf("SC_OPEN_MAX")}):
        os.closerange(last, fd)
        last = fd + 1


def renumber(fds: tuple[int, ...] | list[int], numbers: list[int]) -> None:
    """Move each of `fds` to the descriptor number at the same place in `numbers` (a descriptor
    received over a socket gets whatever number is free; its sender may know it by another)."""
    import fcntl

    above = max([*fds, *numbers], default=2) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, above) for fd in fds]  # clear of every number involved
    for fd in fds:
        os.close(fd)
    for fd, number in zip(moved, numbers):
        os.dup2(fd, number)
        os.close(fd)


def _as_fresh_process(env: dict) -> None:
    """Undo what the check process had set up by the time it forked the server."""
    import atexit
    import faulthandler
    import weakref

    # The check process's exit handlers are not this process's (a test suite's may delete its files),
    # so all go; JAX's, registered when the check process imported it, are done again with its
    # public calls, in the order an interpreter would run them.
    atexit._clear()
    atexit.register(_wait_for_effects)
    atexit.register(_shut_down_distributed)
    for pending in list(getattr(weakref.finalize, "_registry", ())):  # the check process's temporary folders
        pending.atexit = False
    weakref.finalize._registered_with_atexit = False  # this process's own finalizers still run
    faulthandler.disable()
    for number in signal.valid_signals():
        if callable(signal.getsignal(number)):
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.environ.clear()
    os.environ.update(env)
    sys.meta_path[:] = [finder for finder in sys.meta_path
                        if not type(finder).__module__.startswith(("_pytest", "pytest"))]
    tempfile.tempdir = None  # found again in the new environment's TMPDIR
    sys.dont_write_bytecode = True
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)


def _wait_for_effects() -> None:
    import jax

    jax.effects_barrier()


def _shut_down_distributed() -> None:
    import jax

    jax.distributed.shutdown()  # with its barrier: a process done first waits for its peers


def _run(request: dict, sock: socket.socket, fds: list[int]) -> None:
    import importlib

    sock.close()
    if request["log"] is None:
        *handed, stderr_fd = fds
        _keep_only(*fds)
        os.dup2(stderr_fd, 2)
        if request.get("session"):
            os.setsid()
            os.dup2(stderr_fd, 1)
            _die_with_parent()
        os.close(stderr_fd)
    else:
        os.setsid()
        handed = []
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND)
        _keep_only(log)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
    _as_fresh_process(request["env"])
    module, name = request["entry"].split(":")
    code = getattr(importlib.import_module(module), name)(*request["args"], *handed)
    os._exit(code if isinstance(code, int) else 0)



# --- the server as a process of its own ---------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Preload, then serve the socket at --socket until its other end closes. Exits at once where a
    fork would not be safe after the preload (the client's forks then return None)."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(prog="python -m grader.runtime.forkserver")
    parser.add_argument("--socket", type=int, required=True, help="a connected SOCK_SEQPACKET socket's descriptor")
    parser.add_argument("--preload", default=None, metavar="MODULE:FUNCTION",
                        help="called once before serving: imports what every helper needs")
    args = parser.parse_args(argv)
    sock = socket.socket(fileno=args.socket)
    if args.preload:
        module, name = args.preload.split(":")
        getattr(importlib.import_module(module), name)()
    if forkable():
        _serve(sock)


if __name__ == "__main__":
    main()
