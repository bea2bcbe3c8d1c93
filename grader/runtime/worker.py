"""Helper processes that run one check function with their own number of CPU devices.

`checks.on_devices` and `checks.within_seconds` ask a worker: a Python process
forked from the check process's fork server (grader.runtime.forkserver), or
started fresh where there is none. The first line a worker reads is a signing
key, read before any learner code runs; every later line is a request (a check
file, a function name, an exercise file) answered by one signed JSON line on a
private pipe, so the code under test cannot forge a pass.

What a worker does with a request is its `answer` function: here, importing the
exercise in the worker itself; the grader hands its own (the exercise imported
in a subject process of the worker's) by starting workers with another entry.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import importlib.util
import inspect
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grader.core.failures import KataFailure
from grader.runtime import forkserver

Entry = Callable[[int, int, int], None]

# --- the worker's side -----------------------------------------------------------------------------


def serve(n_devices: int, requests_fd: int, replies_fd: int,
          answer: Callable[[dict, Callable[[Any], None]], dict] | None = None) -> None:
    """Answer requests until the pipe closes: `answer(request, check)` for each (default: the
    exercise imported here)."""
    from grader.core.limits import die_with_parent
    from grader.runtime.jaxsetup import configure_jax

    die_with_parent()
    configure_jax(n_devices)
    answer = answer or answer_here
    with os.fdopen(requests_fd, "r", encoding="utf-8") as requests, \
            os.fdopen(replies_fd, "w", encoding="utf-8", buffering=1) as replies:
        key = bytes.fromhex(json.loads(requests.readline())["key"])
        for line in requests:
            request = json.loads(line)
            try:
                check = _check_function(request["check_file"], request["function"])
            except Exception as error:  # noqa: BLE001 - a broken check file is reported, not fatal
                reply = {"kind": "failure", "message": f"the check file failed to load: {error}", "code": "error"}
            else:
                reply = answer(request, check)
            replies.write(json.dumps({**reply, "mac": sign(key, reply)}) + "\n")


def answer_here(request: dict, check: Callable[[Any], None]) -> dict:
    """Run the check on a fresh import of the exercise in this process."""
    from grader.runtime.loading import load_exercise

    label = request["label"]
    return answer_of(lambda: check(load_exercise(Path(request["exercise"]), label)), label)


def answer_of(run: Callable[[], None], label: str, *, passing: tuple[type, ...] = ()) -> dict:
    """What a check function did, as a worker reports it: ok, a failure (with its code), a TODO.
    Exceptions in `passing` are raised, not reported (the grader's own failures)."""
    from grader.runtime.explain import explain, headline

    try:
        run()
    except passing:
        raise
    except KataFailure as failure:
        return {"kind": "failure", "message": str(failure), "code": failure.code}
    except NotImplementedError as error:
        return {"kind": "todo", "message": str(error)}
    except Exception as error:  # noqa: BLE001 - the learner's error is the answer
        known = explain(error)
        text = headline(error) + (f". {known.idea}" if known is not None and known.idea else "")
        return {"kind": "failure", "message": f"{label.rsplit('/', 1)[-1]} raised {text}",
                "code": known.code if known is not None else "error"}
    return {"kind": "ok"}


def _check_function(check_file: str, function: str) -> Callable[[Any], None]:
    spec = importlib.util.spec_from_file_location(f"kata_devices_check_{abs(hash(check_file))}", check_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function)


def sign(key: bytes, answer: dict) -> str:
    return hmac.new(key, json.dumps(answer, sort_keys=True).encode(), hashlib.sha256).hexdigest()


# --- the check process's side ----------------------------------------------------------------------


class Worker:
    """A helper Python process with its own number of CPU devices, running checks on request."""

    def __init__(self, n_devices: int, entry: Entry = serve) -> None:
        self.n = n_devices
        to_worker_read, self._to_worker = os.pipe()
        self._from_worker, from_worker_write = os.pipe()
        self._stderr, stderr_write = os.pipe()
        env = {**os.environ, "JAX_PLATFORMS": "cpu"}
        ends = (to_worker_read, from_worker_write, stderr_write)
        self.process = forkserver.fork(entry, [n_devices], env=env, fds=ends) or subprocess.Popen(
            [sys.executable, "-I", "-B", "-c", _START.format(module=entry.__module__, name=entry.__qualname__),
             str(n_devices), str(to_worker_read), str(from_worker_write)],
            pass_fds=(to_worker_read, from_worker_write), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=stderr_write, env=env)
        for end in ends:
            os.close(end)
        self._buffer = b""
        self._key = os.urandom(32)
        os.write(self._to_worker, (json.dumps({"key": self._key.hex()}) + "\n").encode())

    def ask(self, request: dict, seconds: float | None = None) -> dict:
        """The worker's answer; {"kind": "late"} when it has none within `seconds` (it is then stopped)."""
        os.write(self._to_worker, (json.dumps(request) + "\n").encode())
        deadline = None if seconds is None else time.monotonic() + seconds
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._from_worker], [], [], 1.0)
            if not ready:
                if self.process.poll() is not None:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    self.stop()  # stuck, perhaps in compiled code where nothing can interrupt it
                    return {"kind": "late"}
                continue
            chunk = os.read(self._from_worker, 1 << 16)
            if not chunk:
                break
            self._buffer += chunk
        if b"\n" not in self._buffer:
            self.process.wait()
            stderr = self._read_stderr().decode(errors="replace").strip().splitlines()
            return {"kind": "crash", "message": (stderr or ["no output"])[-1][:300],
                    "code": self.process.returncode}
        line, self._buffer = self._buffer.split(b"\n", 1)
        answer = json.loads(line)
        mac = answer.pop("mac", "")
        if not hmac.compare_digest(mac, sign(self._key, answer)):
            return {"kind": "crash", "message": "a forged answer came back from the helper process"}
        return answer

    def _read_stderr(self) -> bytes:
        chunks = []
        while chunk := os.read(self._stderr, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_worker, self._from_worker, self._stderr):
            try:
                os.close(fd)
            except OSError:
                pass


# A fresh interpreter runs the entry as the fork server would: entry(n_devices, requests_fd, replies_fd).
_START = "import sys\nfrom {module} import {name}\n{name}(*(int(arg) for arg in sys.argv[1:4]))"

_WORKERS: dict[tuple[int, str], Worker] = {}
_ANSWERS: dict[tuple, dict] = {}  # one run per (device count, entry, check, exercise content)


def start_worker(n_devices: int, entry: Entry = serve) -> Worker:
    """The worker for `n_devices` (and `entry`), started now if it is not running, so that it has
    imported JAX by the time it is needed."""
    key = (n_devices, f"{entry.__module__}:{entry.__qualname__}")
    worker = _WORKERS.get(key)
    if worker is None or worker.process.poll() is not None:
        worker = _WORKERS[key] = Worker(n_devices, entry)
    return worker


@atexit.register
def stop_workers() -> None:
    for worker in _WORKERS.values():
        worker.stop()
    _WORKERS.clear()


def ask_worker(n_devices: int, check: Callable[[Any], None], exercise: Any, seconds: float | None = None,
               entry: Entry = serve, **extra: Any) -> dict:
    """The worker's answer for check(exercise), remembered per exercise content. `extra` goes with
    the request (what the grader's entry needs to start a subject of its own)."""
    source = Path(exercise.module.__file__)
    check_file = Path(inspect.getfile(check))
    key = (n_devices, entry.__module__, entry.__qualname__, str(check_file), check.__name__,
           hashlib.sha256(source.read_bytes()).hexdigest())
    if key not in _ANSWERS:
        worker = start_worker(n_devices, entry)
        try:
            _ANSWERS[key] = worker.ask({"check_file": str(check_file), "function": check.__name__,
                                        "exercise": str(source), "label": exercise.label, **extra}, seconds)
        except BaseException:
            worker.stop()  # interrupted (a timeout): the worker may be stuck in the learner's code
            raise
        if _ANSWERS[key]["kind"] in ("crash", "late"):
            worker.stop()
    return _ANSWERS[key]
