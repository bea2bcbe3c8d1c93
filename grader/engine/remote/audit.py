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
- ctypes (raw memory and foreign calls), while submission code is on the stack;
- replacing a function's code, or making functions or code objects from scratch;
- reading, directly or through inspect or dis, the code of an exercise function while a check has
  it swapped (`SWAPPED_FUNCTION`): the one attribute that tells the swap from a real call;
- starting processes (through any library, while submission code is on the stack), sending
  signals, opening sockets, adding audit hooks, tracing;
- opening the protocol's own descriptors.

The hook judges with a private copy of this module, made when it is installed
and held by nothing the submission can reach: rewriting this module's state
(its tables, the set of exercise files, its flags) changes nothing it judges
with. The grader names each exercise file, and each exercise module's own
namespace, to the hook with an audit event of its own (`SUBMISSION_FILE`,
`SUBMISSION_NAMESPACE`), which can only add to what is refused. A frame is the
submission's when its code comes from an exercise file or it runs with an
exercise module's globals (so renaming a code object's file does not hide it).

The hook also keeps the records of `grader.runtime.witness` (a probe's calls and clock reads) in its
private copy of that module, answering each witness event: nothing the submission is handed or can
reach leads to them.

Changes this hook cannot see (Python does not audit assignments to class or
module attributes) are looked for after every return from submission code: see `tripwires.py`. Not
every way of starting a process raises an event (`_posixsubprocess.fork_exec`
does not): the subject's keeper, outside its process, counts what it started
(see subject/keeper.py).
"""

from __future__ import annotations

import os
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

import grader
from grader.runtime import witness
from grader.runtime.loading import EXERCISE_NAMESPACE, SWAPPED_FUNCTION

submission_files: set[str] = set()  # absolute paths of the exercise files imported here
submission_namespaces: dict[int, dict] = {}  # id -> the globals of an exercise module imported here
swapped_functions: dict[int, Any] = {}  # id -> an exercise function whose code a check points elsewhere now

# Events the grader raises (sys.audit) to tell the hook's private copy what it may not learn otherwise.
SUBMISSION_FILE = "katas.submission_file"  # (path,): an exercise file, about to be imported
SUBMISSION_NAMESPACE = EXERCISE_NAMESPACE  # (globals,): an exercise module's namespace, before it runs
REFUSE = "katas.refuse"  # (why,): end the subject, reported

_THIN_WRAPPERS = ("inspect.py", "traceback.py", os.sep + "ctypes" + os.sep, "<frozen importlib")
_CODE_READERS = (*_THIN_WRAPPERS, os.sep + "dis.py")  # what reads a function's code for whoever asks
_REFUSED_IMPORTS = ("grader", "pytest", "_pytest", "pluggy", "py")
# Refused whoever asks: a library can hand what it gets back to its caller (a tracer installed by
# `bdb` calls the submission's methods with every frame), and nothing an exercise runs needs them.
_ALWAYS = {"gc.get_objects": "walks the interpreter's objects (gc)",
           "gc.get_referrers": "walks the interpreter's objects (gc)",
           "gc.get_referents": "walks the interpreter's objects (gc)",
           "sys._current_frames": "walks the call stack (sys._current_frames)",
           "sys.settrace": "traces the running code", "sys.setprofile": "traces the running code"}
_FROM_SUBMISSION = {
    "sys._getframe": "walks the call stack (sys._getframe)",
    "function.__new__": "makes a function from a code object",
    "code.__new__": "makes a code object",
    "sys.addaudithook": "adds an audit hook",
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
    sys.audit(REFUSE, why)


def install(report_fd: int, protected: tuple[int, ...], compile_listener: Any = None) -> None:
    """Refuse, from now on, what an exercise never needs; report each refusal on `report_fd`. The
    hook judges with a private copy of this module, which nothing the submission can reach holds.
    `compile_listener`: the code of the grader's listener on JAX's compile events, the only code a
    compile record is taken from."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{__name__}.private", __file__)
    private = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(private)
    private.arm(report_fd, protected, compile_listener)


def arm(report_fd: int, protected: tuple[int, ...], compile_listener: Any = None) -> None:
    """Install the hook, judging with this module's state (in the private copy `install` made)."""
    global _report_fd, _INSTALLED, _ARMED_AT
    _report_fd = report_fd
    import time

    _INSTALLED = tuple(sorted({os.path.realpath(p) + os.sep for p in
                               (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}))
    _ARMED_AT = time.time()
    protected_fds = frozenset(protected)
    _note_frame_readers()
    from grader.checks.compiles import compile_body_reader, is_eager

    ledger, witnessed, frame_of = _private_witness().Ledger(is_eager, compile_body_reader()), witness.EVENT, sys._getframe
    genuine = _compile_event_chain(compile_listener)

    def hook(event: str, args: tuple) -> None:
        if event == witnessed:  # the witness's records live here, out of the submission's reach
            # Exact types: an operation that is a str subclass could answer one comparison one way and
            # the next another.
            if len(args) == 3 and type(args[0]) is str and type(args[1]) is tuple and type(args[2]) is list \
                    and not args[2]:
                if args[0] == "compiled":  # judged on the raiser's own stack, read by the hook alone
                    _state.busy = True  # only while the hook reads frames itself
                    try:
                        raiser = frame_of(1)
                        chain = genuine(raiser)
                    finally:
                        _state.busy = False
                    if not chain:
                        _refuse(report_fd, "raised the grader's compile event itself, as no compile of "
                                           "JAX's does, which an exercise never needs")
                    record = args[1][0] if args[1] else ()
                    # Not busy: an object of the submission's that the judgement touches (a jitted
                    # callable's attributes) runs judged, as anywhere.
                    args[2].append(ledger.compiled(raiser, record if type(record) is tuple else ()))
                    return
                args[2].append(ledger.answer(args[0], args[1]))
            return
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


def _compile_event_chain(listener: Any) -> Callable[[Any], bool]:
    """Whether a compile event was raised by the grader's listener, called by JAX's monitoring as XLA
    compiles (`pxla._cached_compilation`, the one place JAX reports a compile): the frames from the
    raiser down are those codes, by identity. A record raised by hand, by a listener of the
    submission's own (even one that calls the grader's), or by JAX's timing context entered by hand
    is not a compile's; the witness would judge it on a real compile's stack and count it twice."""
    import gc

    from jax._src import dispatch, monitoring
    from jax._src.interpreters import pxla

    compiling = next((f.__code__ for f in gc.get_referents(pxla._cached_compilation)
                      if isinstance(f, types.FunctionType) and f.__name__ == "_cached_compilation"), None)
    chain = (witness.RAISER, witness.note_compile.__code__, listener,
             monitoring.record_event_duration_secs.__code__, dispatch.LogElapsedTimeContextManager.__exit__.__code__,
             compiling)
    if listener is None or compiling is None:  # no listener of the grader's, or a JAX laid out otherwise
        return lambda frame: True

    def genuine(frame: Any, /) -> bool:
        for code in chain:
            if frame is None or frame.f_code is not code:
                return False
            frame = frame.f_back
        return True

    return genuine


def _private_witness() -> Any:
    """A copy of grader.runtime.witness of the hook's own: its ledger, and all it calls, are held by
    nothing the submission can reach."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{witness.__name__}.private", witness.__file__)
    private = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(private)
    return private


# event name -> whether `_judge` looks at it. Every `id()` call raises an event (the codec and JAX's
# tracing make tens of thousands per check), so the others must cost one lookup, not a judgement.
_judged: dict[str, bool] = {}
_MAX_KNOWN_EVENTS = 4096
_JUDGED_EVENTS = frozenset({"import", "open", "object.__getattr__", "object.__setattr__", *_ALWAYS,
                            *_FROM_SUBMISSION, *_FROM_SUBMISSION_DIRECTLY,
                            SUBMISSION_FILE, SUBMISSION_NAMESPACE, SWAPPED_FUNCTION, REFUSE})


def _note_file(args: tuple) -> str:
    submission_files.add(str(args[0]))
    return ""


def _note_namespace(args: tuple) -> str:
    if isinstance(args[0], dict):
        submission_namespaces[id(args[0])] = args[0]  # kept: its id is never another dict's
    return ""


def _note_swap(args: tuple) -> str:
    """A check swapped an exercise function (True), or put it back (False: heard from the grader only)."""
    if len(args) == 2 and isinstance(args[0], types.FunctionType) and args[1] is True:
        swapped_functions[id(args[0])] = args[0]  # kept: its id is never another object's meanwhile
    elif len(args) == 2 and args[1] is False and _from_grader():
        swapped_functions.pop(id(args[0]), None)
    return ""


def _refusal(args: tuple) -> str:
    return str(args[0]) if args else "asked to end"


# Anyone may raise these: each can only add to what is refused.
_FROM_GRADER = {SUBMISSION_FILE: _note_file, SUBMISSION_NAMESPACE: _note_namespace, SWAPPED_FUNCTION: _note_swap,
                REFUSE: _refusal}


# Where the installed interpreter, its libraries and the environment's packages live, and when the hook
# was armed: a native extension loaded from elsewhere, or written there since, is the submission's own.
_INSTALLED: tuple[str, ...] = ()
_ARMED_AT = 0.0


def _foreign_native(path: str) -> bool:
    """Whether a library about to load as an extension module (its file `path`, whatever its name
    ends with: the import machinery's event for a dynamic load names no search path) is not one
    installed before the subject started: outside the interpreter's and the environment's folders, or
    written, linked or touched since (a file's change time, which no call sets back)."""
    real = os.path.realpath(path)
    if not real.startswith(_INSTALLED):
        return True
    try:
        found = os.stat(real)
    except OSError:
        return True
    return max(found.st_mtime, found.st_ctime) > _ARMED_AT


def _is_judged(event: str) -> bool:
    return event in _JUDGED_EVENTS or event.startswith(tuple(_FROM_SUBMISSION_PREFIXES))


def _judge(event: str, args: tuple, protected: frozenset[int]) -> str:
    if event in _FROM_GRADER:
        return _FROM_GRADER[event](args)
    if event in _ALWAYS:
        return _ALWAYS[event]
    if event == "import":
        name = str(args[0]) if args else ""
        top = name.split(".")[0]
        if top in _REFUSED_IMPORTS and not _from_grader():
            return f"imports {name}, which an exercise never needs (the grader and the test framework)"
        if len(args) > 2 and type(args[1]) is str and args[2] is None and _foreign_native(args[1]):
            return (f"loads native code from a file of its own ({os.path.basename(args[1])}), which an exercise "
                    f"never needs: compiled code can undo everything the grader watches")
        return ""
    if event == "open":
        target = args[0] if args else None
        if isinstance(target, int) and target in protected:
            return "opens the grader's own descriptors"
        if isinstance(target, str) and target.startswith(("/proc/self/fd/", "/dev/fd/")):
            number = target.rsplit("/", 1)[-1]
            if number.isdigit() and int(number) in protected:
                return "opens the grader's own descriptors"
        return ""
    if event == "object.__getattr__":
        name = args[1] if len(args) > 1 else ""
        if name in _WATCHED_ATTRIBUTES and (_from_submission() or _on_a_thread_of_its_own()):
            return _WATCHED_ATTRIBUTES[name]
        if name == "__code__" and args and id(args[0]) in swapped_functions and (
                _from_submission(_CODE_READERS) or _on_a_thread_of_its_own()):
            return (f"reads the code of {args[0].__name__}, which the grader has pointed elsewhere (a function "
                    f"a check swapped, to tell a swap from a call, or one of the grader's own watches)")
        return ""
    if event == "object.__setattr__":
        name = args[1] if len(args) > 1 else ""
        if _from_submission():
            return f"replaces {name} of an object the grader relies on" if name != "__code__" else \
                "replaces a function's code"
        return ""
    if event in _FROM_SUBMISSION_DIRECTLY:
        frame = _caller_frames()
        return _FROM_SUBMISSION_DIRECTLY[event] if frame is not None and _is_submission(frame) else ""
    if event == "sys._getframe":
        return _FROM_SUBMISSION[event] if _frame_for_submission() else ""
    why = _FROM_SUBMISSION.get(event)
    if why is None:
        why = next((text for prefix, text in _FROM_SUBMISSION_PREFIXES.items() if event.startswith(prefix)), None)
    if why in _ON_ITS_BEHALF:  # by any library on the submission's behalf (subprocess, multiprocessing, pty;
        # functools.singledispatch calling ctypes for it; a thread whose target is ctypes itself)
        return why if _submission_on_stack() or _on_a_thread_of_its_own() else ""
    if why and _from_submission():
        return why
    return ""


_PROCESS_STARTS = ("starts a process", "runs a shell command", "replaces the process")
# Refused with the submission anywhere on the stack: any Python frame of a library it calls through is
# a caller of its own (a `functools.singledispatch` wrapper handing ctypes the submission's arguments).
_ON_ITS_BEHALF = _PROCESS_STARTS + ("uses ctypes (raw memory)",)


def _on_a_thread_of_its_own() -> bool:
    """Whether this thread is one the submission started, where no frame of its own need do the
    reading: no Python frame at all (a C callable handed to `_thread.start_new_thread`), or a thread
    `threading` started with no grader frame on its stack (a pool's worker calling what the submission
    queued, `operator.attrgetter("tb_frame")`). The grader's threads run its own code; XLA's threads
    enter Python through JAX's callbacks, not through `threading`."""
    frame = _caller_frames()
    if frame is None:
        return True
    package = os.path.dirname(os.path.abspath(grader.__file__)) + os.sep
    while frame.f_back is not None:
        if frame.f_code.co_filename.startswith(package) and not _is_submission(frame):
            return False
        frame = frame.f_back
    return frame.f_code.co_filename == threading.__file__


def _submission_on_stack() -> bool:
    frame = _caller_frames()
    while frame is not None:
        if _is_submission(frame):
            return True
        frame = frame.f_back
    return False


def _frame_for_submission() -> bool:
    """Whether a frame asked for now may reach the submission: asked for with the submission's code on
    the stack and no known reader of frames in between. A library function that returns the frame it
    got (`logging.currentframe`) or runs code it is handed (`code.InteractiveInterpreter`) is no wall:
    what decides is whether a reader that keeps the frame to itself (the grader's own code, `logging`
    finding its caller, `namedtuple` its module) asked first."""
    frame = _caller_frames()
    while frame is not None:
        code = frame.f_code
        if id(code) in _frame_readers or (code.co_filename, code.co_name) in _frame_reader_sites:
            return False
        if _is_submission(frame):
            return True
        frame = frame.f_back
    return False


_frame_readers: dict[int, Any] = {}  # id -> code: functions that read a frame and hand none of it on
# (file, function) of such readers in libraries that JAX may import only while the submission runs
# (exporting imports scipy, whose module code builds named tuples through typing_extensions); named
# by the file the import system would load, found without importing it: a look-alike file the
# submission writes elsewhere is not the same site.
_frame_reader_sites: set[tuple[str, str]] = set()
_LAZY_FRAME_READERS = (("typing_extensions", "typing_extensions.py", "_caller"),
                       ("typing_extensions", "typing_extensions.py", "_has_generic_or_protocol_as_origin"),
                       ("scipy", os.path.join("_lib", "_bunch.py"), "_make_tuple_bunch"))


def _note_frame_readers() -> None:
    import collections
    import enum
    import logging
    import typing
    import warnings

    readers: list[Any] = [logging.Logger.findCaller, collections.namedtuple, getattr(typing, "_caller", None),
                          getattr(enum.EnumType, "_create_", None), warnings.warn]
    for name, where in (("jax._src.lazy_loader", "attach"), ("numpy.lib._index_tricks_impl", "AxisConcatenator"),
                        ("numpy.matrixlib.defmatrix", "bmat")):
        module = sys.modules.get(name)
        readers.append(getattr(module, where, None))
    package = os.path.dirname(os.path.abspath(grader.__file__)) + os.sep
    readers += [module for module in list(sys.modules.values())  # the grader's (its `-m` __main__ too)
                if str(getattr(module, "__file__", None) or "").startswith(package)]
    for reader in readers:
        _note_code_of(reader, "", depth=0)
    for top, relative, function in _LAZY_FRAME_READERS:
        _note_reader_site(top, relative, function)


def _note_reader_site(top: str, relative: str, function: str) -> None:
    import importlib.util

    try:
        spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    except (ImportError, ValueError):
        return
    if spec is None or spec.origin is None:
        return
    folder = os.path.dirname(spec.origin)
    _frame_reader_sites.add((os.path.join(folder, relative), function))


def _note_code_of(obj: Any, owner: str, depth: int) -> None:
    """The code of a function (and of what it wraps), of a class's functions, of a module's own."""
    if depth > 3:
        return
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        for part in (obj.fget, obj.fset, obj.fdel):
            _note_code_of(part, owner, depth + 1)
    elif isinstance(obj, types.FunctionType):
        _note_nested(obj.__code__)
        _note_code_of(vars(obj).get("__wrapped__"), owner, depth + 1)
    elif isinstance(obj, types.ModuleType):
        for value in list(vars(obj).values()):
            if isinstance(value, (types.FunctionType, type)) and value.__module__ == obj.__name__:
                _note_code_of(value, obj.__name__, depth + 1)
    elif isinstance(obj, type):
        for value in list(vars(obj).values()):
            _note_code_of(value, owner, depth + 1)


def _note_nested(code: Any) -> None:
    _frame_readers[id(code)] = code
    for const in code.co_consts:
        if isinstance(const, type(code)):
            _note_nested(const)


def _caller_frames():
    """The frames outside this module, innermost first (the audited call's caller comes first)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return frame


def _from_submission(wrappers: tuple[str, ...] = _THIN_WRAPPERS) -> bool:
    """Whether the audited call comes from the submission: its caller is an exercise file (or code the
    submission compiled), or a thin standard wrapper (inspect, traceback, ctypes) called from one."""
    frame = _caller_frames()
    while frame is not None and not _is_submission(frame) and \
            any(part in frame.f_code.co_filename for part in wrappers):
        frame = frame.f_back
    return frame is not None and _is_submission(frame)


def _is_submission(frame: Any) -> bool:
    """Code from an exercise file, or any code running with an exercise module's globals."""
    return frame.f_code.co_filename in submission_files or id(frame.f_globals) in submission_namespaces


def _from_grader() -> bool:
    """Whether an import is the grader's own (a lazy import inside its modules)."""
    frame = _caller_frames()
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    if frame is None:
        return True
    filename = frame.f_code.co_filename
    package = os.path.dirname(os.path.abspath(grader.__file__))
    return filename.startswith(package + os.sep) and not _is_submission(frame)


def _refuse(report_fd: int, why: str) -> None:
    """Write what was refused and where, then end the subject: nothing is left to undo the record."""
    where = ""
    frame = _caller_frames()
    while frame is not None:
        if _is_submission(frame):
            where = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
            break
        frame = frame.f_back
    line = (why + (f" (at {where})" if where else "")).replace("\n", " ")[:500] + "\n"
    try:
        os.write(report_fd, line.encode())
    finally:
        os._exit(86)


REFUSED_EXIT = 86
