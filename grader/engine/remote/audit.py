"""The subject's audit hook (PEP 578): what an exercise never needs ends the subject, reported.

Installed once the subject has imported what it needs and before any
submission code runs; an audit hook cannot be removed. When code of the
submission (a frame whose file is an exercise file, or a thin standard
wrapper called from one, such as `inspect.currentframe`) does one of the
things below, the hook writes one line saying what, where, on its own pipe
to the examiner, and ends the process at once. The examiner fails the check
that was running with that reason and marks the submission for review. There
is nothing left in the subject to erase the record from.

Refused:
- importing the grader, pytest or pluggy (the grader's own code has them already);
- `gc` object walks (`get_objects`, `get_referrers`, `get_referents`), from anywhere;
- frame walking: `sys._getframe`, `sys._current_frames`, a traceback's or generator's frame;
- ctypes (raw memory and foreign calls);
- replacing a function's code, or making functions or code objects from scratch;
- starting processes (through any library, while submission code is on the stack), sending
  signals, opening sockets, adding audit hooks, tracing;
- opening the protocol's own descriptors.

Changes this hook cannot see (Python does not audit assignments to class or
module attributes) are looked for after every request: see `Tripwires`. Not
every way of starting a process raises an event (`_posixsubprocess.fork_exec`
does not): the subject's keeper, outside its process, counts what it started
(see subject/keeper.py).
"""

from __future__ import annotations

import operator
import os
import sys
import threading
from typing import Any

import grader

submission_files: set[str] = set()  # absolute paths of the exercise files imported here

_THIN_WRAPPERS = ("inspect.py", "traceback.py", os.sep + "ctypes" + os.sep, "<frozen importlib")
_REFUSED_IMPORTS = ("grader", "pytest", "_pytest", "pluggy", "py")
_ALWAYS = {"gc.get_objects": "walks the interpreter's objects (gc)",
           "gc.get_referrers": "walks the interpreter's objects (gc)",
           "gc.get_referents": "walks the interpreter's objects (gc)"}
_FROM_SUBMISSION = {
    "sys._getframe": "walks the call stack (sys._getframe)",
    "sys._current_frames": "walks the call stack (sys._current_frames)",
    "function.__new__": "makes a function from a code object",
    "code.__new__": "makes a code object",
    "sys.addaudithook": "adds an audit hook",
    "sys.settrace": "traces the running code", "sys.setprofile": "traces the running code",
    "subprocess.Popen": "starts a process", "os.system": "runs a shell command",
    "os.posix_spawn": "starts a process", "os.fork": "starts a process", "os.forkpty": "starts a process",
    "os.kill": "sends a signal", "os.killpg": "sends a signal", "signal.pthread_kill": "sends a signal",
    "pty.spawn": "starts a process",
}
# Called by the submission itself (importing a module runs its code with exec, from importlib).
_FROM_SUBMISSION_DIRECTLY = {"exec": "runs code made from a string", "compile": "compiles code from a string"}
_FROM_SUBMISSION_PREFIXES = {"os.exec": "replaces the process", "os.spawn": "starts a process",
                             "socket.": "opens a network connection", "ctypes.": "uses ctypes (raw memory)"}
_WATCHED_ATTRIBUTES = {"tb_frame": "walks the call stack (a traceback's frame)",
                       "gi_frame": "walks the call stack (a generator's frame)",
                       "cr_frame": "walks the call stack (a coroutine's frame)",
                       "ag_frame": "walks the call stack (a generator's frame)"}

_state = threading.local()
_report_fd: int | None = None


def refuse_now(why: str) -> None:
    """Report `why` and end the subject (for what the hook cannot see as it happens)."""
    if _report_fd is not None:
        _refuse(_report_fd, why)


def install(report_fd: int, protected: tuple[int, ...]) -> None:
    """Refuse, from now on, what an exercise never needs; report each refusal on `report_fd`."""
    global _report_fd
    _report_fd = report_fd
    protected_fds = frozenset(protected)

    def hook(event: str, args: tuple) -> None:
        judged = _judged.get(event)
        if judged is None:
            judged = _is_judged(event)
            if len(_judged) < _MAX_KNOWN_EVENTS:  # `sys.audit` takes any name: the table stays bounded
                _judged[event] = judged
        if not judged or getattr(_state, "busy", False):
            return  # most events (`id()` above all) are never refused; the hook's own frame reads raise some
        _state.busy = True
        try:
            why = _judge(event, args, protected_fds)
            if why:
                _refuse(report_fd, why)
        finally:
            _state.busy = False

    sys.addaudithook(hook)


# event name -> whether `_judge` looks at it. Every `id()` call raises an event (the codec and JAX's
# tracing make tens of thousands per check), so the others must cost one lookup, not a judgement.
_judged: dict[str, bool] = {}
_MAX_KNOWN_EVENTS = 4096
_JUDGED_EVENTS = frozenset({"import", "open", "object.__getattr__", "object.__setattr__", *_ALWAYS,
                            *_FROM_SUBMISSION, *_FROM_SUBMISSION_DIRECTLY})


def _is_judged(event: str) -> bool:
    return event in _JUDGED_EVENTS or event.startswith(tuple(_FROM_SUBMISSION_PREFIXES))


def _judge(event: str, args: tuple, protected: frozenset[int]) -> str:
    if event in _ALWAYS:
        return _ALWAYS[event]
    if event == "import":
        name = str(args[0]) if args else ""
        top = name.split(".")[0]
        if top in _REFUSED_IMPORTS and not _from_grader():
            return f"imports {name}, which an exercise never needs (the grader and the test framework)"
        return ""
    if event == "open":
        target = args[0] if args else None
        if isinstance(target, int) and target in protected:
            return "opens the grader's own descriptors"
        if isinstance(target, str) and target.startswith(("/proc/self/fd/", "/dev/fd/")):
            try:
                if int(target.rsplit("/", 1)[-1]) in protected:
                    return "opens the grader's own descriptors"
            except ValueError:
                pass
        return ""
    if event == "object.__getattr__":
        name = args[1] if len(args) > 1 else ""
        if name in _WATCHED_ATTRIBUTES and _from_submission():
            return _WATCHED_ATTRIBUTES[name]
        return ""
    if event == "object.__setattr__":
        name = args[1] if len(args) > 1 else ""
        if _from_submission():
            return f"replaces {name} of an object the grader relies on" if name != "__code__" else \
                "replaces a function's code"
        return ""
    if event in _FROM_SUBMISSION_DIRECTLY:
        frame = _caller_frames()
        return _FROM_SUBMISSION_DIRECTLY[event] if frame is not None and _is_submission(frame.f_code.co_filename) else ""
    why = _FROM_SUBMISSION.get(event)
    if why is None:
        why = next((text for prefix, text in _FROM_SUBMISSION_PREFIXES.items() if event.startswith(prefix)), None)
    if why in _PROCESS_STARTS:  # by any library on the submission's behalf (subprocess, multiprocessing, pty)
        return why if _submission_on_stack() else ""
    if why and _from_submission():
        return why
    return ""


_PROCESS_STARTS = ("starts a process", "runs a shell command", "replaces the process")


def _submission_on_stack() -> bool:
    frame = _caller_frames()
    while frame is not None:
        if _is_submission(frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


def _caller_frames():
    """The frames outside this module, innermost first (the audited call's caller comes first)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return frame


def _from_submission() -> bool:
    """Whether the audited call comes from the submission: its caller is an exercise file (or code the
    submission compiled), or a thin standard wrapper (inspect, traceback, ctypes) called from one."""
    frame = _caller_frames()
    while frame is not None and any(part in frame.f_code.co_filename for part in _THIN_WRAPPERS):
        frame = frame.f_back
    return frame is not None and _is_submission(frame.f_code.co_filename)


def _is_submission(filename: str) -> bool:
    return filename in submission_files


def _from_grader() -> bool:
    """Whether an import is the grader's own (a lazy import inside its modules)."""
    frame = _caller_frames()
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    if frame is None:
        return True
    filename = frame.f_code.co_filename
    package = os.path.dirname(os.path.abspath(grader.__file__))
    return filename.startswith(package + os.sep) and not _is_submission(filename)


def _refuse(report_fd: int, why: str) -> None:
    """Write what was refused and where, then end the subject: nothing is left to undo the record."""
    where = ""
    frame = _caller_frames()
    while frame is not None:
        if _is_submission(frame.f_code.co_filename):
            where = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
            break
        frame = frame.f_back
    line = (why + (f" (at {where})" if where else "")).replace("\n", " ")[:500] + "\n"
    try:
        os.write(report_fd, line.encode())
    finally:
        os._exit(86)


REFUSED_EXIT = 86


class Tripwires:
    """What submission code may change without an audit event (Python does not audit assignments to
    module or class attributes), among what the subject's answers are made with. Snapshotted before
    the first request and compared after each, by identity."""

    def __init__(self, owners: list[Any]) -> None:
        # One flat list of (where to look, name, value then): compared in C after every request.
        self._lookups, self._names, self._before, self._owners = [], [], [], []
        for owner in owners:
            space = vars(owner)  # a module's own dict, or a live view of a class's
            kept = {name: value for name, value in space.items()
                    if callable(value) and not isinstance(value, type(sys))}
            self._lookups += [space.get] * len(kept)
            self._names += kept
            self._before += kept.values()
            self._owners += [getattr(owner, "__name__", owner)] * len(kept)
        from jax._src import monitoring

        self._listeners = list(getattr(monitoring, "_event_duration_secs_listeners", []))

    @staticmethod
    def of_grader_and_jax() -> Tripwires:
        """What the subject's own answers are made with: the grader's modules (the server, the codec,
        the checks a probe runs), JAX's compile-event machinery and its array and tracer classes. (The
        examiner computes every expected value with its own copies: patching NumPy or jax.numpy here
        changes nothing it judges with.)"""
        import jax
        from jax._src import array, core, monitoring

        grader = [module for name, module in sys.modules.items()
                  if module is not None and (name == "grader" or name.startswith("grader."))]
        return Tripwires(grader + [jax, jax.monitoring, monitoring, jax.Array, array.ArrayImpl, core.Tracer])

    def changed(self) -> str:
        now = list(map(operator.call, self._lookups, self._names))
        if any(map(operator.is_not, now, self._before)):
            at = next(i for i, (a, b) in enumerate(zip(now, self._before)) if a is not b)
            return f"replaced {self._owners[at]}.{self._names[at]}"
        from jax._src import monitoring

        listeners = getattr(monitoring, "_event_duration_secs_listeners", [])
        if any(listener not in listeners for listener in self._listeners):
            return "removed the grader's watch on JAX's compile events"
        return ""


