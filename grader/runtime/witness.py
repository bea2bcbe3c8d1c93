"""A witness: a record of how code used a function and a clock it was handed, which that code cannot
reach.

A check that watches what an exercise does with objects it hands over (perf-1: a function to time and
a clock) cannot keep the record on those objects: whatever they hold, the exercise can reach and
rewrite (a bound method's `__self__`, a closure's cells, a function's `__globals__`). So the objects
`Timeline` hands out hold one number, and the record lives with whoever answers this module's audit
event. In a graded subject that is the audit hook's private copy of this module (see
engine.remote.audit), held by nothing the submission can reach; in a learner's own run, with no hook
installed, this module answers itself. Each event *is* what it records (a call of the function, a read
of the clock), so raising one by hand records the truth too; the function itself is kept with the
record, so the only way to call it is through the witness.

`Watched` does the same for a function a check hands an exercise to see how it is used (debug-1: how
often its body is traced; debug-2: whether NaN checking was on while jax.jit traced it): the function
handed out holds a number and its name, and each run of the body is recorded by the witness, with
whether it was being traced, the values of the JAX settings the check named, read then, and the shapes
of its array arguments (debug-4: how many times a host callback ran, on which shapes).

It also keeps the subject's compile records (each judged, and read, on the compile's own stack) and
the host reads `checks.host_reads` notes. No operation takes anything out of a record: a reader asks
for what came after its own place in it (a cursor it keeps), so an event any code can raise by hand
can only add to a record, which costs the raiser; the hook takes a compile event only from the
grader's listener as JAX compiles (see engine.remote.audit).
"""

from __future__ import annotations

import os
import sys
from typing import Any

EVENT = "katas.witness"  # (operation, payload, box): the answer is appended to box

_audit = sys.audit
_getframe = sys._getframe


class Timeline:
    """`f` called only through the witness, and a fake clock on which time passes only while `f`
    runs (`tick` per call). Hand out `.f` and `.clock`, which hold the timeline's number and nothing
    else (a number rebound on one of them moves its calls to another timeline, not this one's record);
    read what happened with `.reads()`."""

    def __init__(self, f: Any, tick: float) -> None:
        self._number = _ask("start", (f, float(tick)))
        self.f = _Call(self._number)
        self.clock = _Clock(self._number)

    def reads(self) -> list[tuple[int, bool, bool]]:
        """Each clock read, in order: (calls of f so far, were all their outputs finished then, was f
        compiled by then: by a call or ahead of time)."""
        return _ask("reads", (self._number,))


class _Call:
    """The function to time, as handed out: each call is a call of `f`, witnessed; so is compiling it
    ahead of time (`.lower(...).compile()`). Other attributes are `f`'s own."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _ask("call", (self.number, args, kwargs))

    def lower(self, *args: Any, **kwargs: Any) -> _Lowered:
        return _Lowered(self.number, _ask("lower", (self.number, args, kwargs)))

    def __getattr__(self, name: str) -> Any:
        return _ask("attribute", (self.number, name))


class _Lowered:
    """`f.lower(...)` as handed out: compiling it is witnessed."""

    def __init__(self, number: int, index: int) -> None:
        self.number, self.index = number, index

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        return _ask("compile", (self.number, self.index, args, kwargs))

    def __getattr__(self, name: str) -> Any:
        return _ask("lowered_attribute", (self.number, self.index, name))


class _Clock:
    """The clock, as handed out: each call is a read, witnessed."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __call__(self) -> float:
        return _ask("read", (self.number,))


class Watched:
    """`body` handed out as `.f`, which holds a number and the body's name only: each call of `.f` runs
    `body` through the witness, which records whether it was traced (an argument is a tracer of
    jax.jit's kind) and what the named JAX settings were then. Read the record with `.runs()`."""

    def __init__(self, body: Any, settings: tuple[str, ...] = ()) -> None:
        self._number = _ask("watch", (body, _tuple(str(name) for name in settings)))
        self.f = _Run(self._number, str(getattr(body, "__name__", "f")))

    def runs(self) -> list[tuple[bool, dict, tuple, bool, bool]]:
        """Each run of the body, in order: (was it traced, {setting: its value during that run}, the
        shape of each positional argument that is an array, None for any other, was it traced for a
        call of a jax.jit function, did it return)."""
        return _ask("runs", (self._number,))


def watch(body: Any, settings: tuple[str, ...] = ()) -> tuple[int, _Run]:
    """A new witnessed `body`: its number (for `runs_of`) and the function to hand out."""
    watched = Watched(body, settings)
    return watched._number, watched.f


def runs_of(number: int) -> list[tuple[bool, dict, tuple, bool, bool]]:
    """The record of the witnessed body `number` (see `Watched.runs`)."""
    return _ask("runs", (number,))


class _Run:
    """A witnessed body, as handed out: each call runs it through the witness. It holds its number
    and a name, nothing else: a number rebound on it sends its calls to another record, never this
    one's, and no attribute of the body is reachable through it."""

    def __init__(self, number: int, name: str) -> None:
        self.number = number
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _ask("run", (self.number, args, kwargs))

    def __repr__(self) -> str:
        return f"<function {self.__name__}>"


def note_compile(record: tuple = ()) -> None:
    """A compile event, witnessed and judged (eager or the learner's, and what it ran) on the caller's
    stack; `record` (name, eager, input types, body), kept by the witness, eager as judged here."""
    _ask("compiled", (record,))


def compiles_since(cursor: int) -> tuple:
    """The records of the compiles witnessed from the `cursor`-th on, in order. Nothing is ever taken
    out of the witness's record: the reader keeps its own cursor, so an event raised by hand cannot
    empty what the next reader will read."""
    return _ask("compiles since", (cursor,))


def start_host_reads(restore: list) -> tuple[int, int]:
    """A `host_reads` block starts: the witness keeps what puts the watch back (`restore`, called in
    reverse order when the block stops) under a key it draws, and returns (that key, where the
    block's reads start in its record), for the block's caller alone."""
    return _ask("host reads start", (_tuple(restore),))


def note_host_read(array: Any, description: str) -> None:
    """An array's values read back to the host, kept by the witness (raised by hand, it notes a read
    that happened, or one that did not: a cost to the raiser only)."""
    _ask("host read", (array, description))


def stop_host_reads(key: int, cursor: int) -> list[str]:
    """The block with this key stops (its watch put back; a wrong key puts nothing back): the host
    reads noted from `cursor` on, in order, once per array."""
    return _ask("host reads stop", (key, cursor))


def compile_counts() -> tuple[int, int]:
    """The compile events witnessed so far: (all of them, those that were the learner's)."""
    return _ask("compiles", ())


def _ask(operation: str, payload: tuple, event: str = EVENT) -> Any:
    box: list = []
    _audit(event, operation, payload, box)  # the name bound here: a rebound `EVENT` reaches no other
    if not box:  # no hook answered: a learner's own run
        box.append(_LEDGER.answer(operation, payload))
    return box[0]


RAISER = _ask.__code__  # the code that raises every event of the witness: the hook knows its frames by it


class Ledger:
    """The records, and the answer to each operation. Everything it calls is bound when its module
    is run, so a private copy looks nothing up where the submission could have replaced it."""

    def __init__(self, is_eager: Any = None, body_of: Any = None) -> None:
        self.timelines: dict[int, dict] = {}
        self.watched: dict[int, dict] = {}
        self.is_eager = is_eager  # the compile count's judge, bound by whoever keeps this ledger
        self.body_of = body_of  # the reader of what a compile runs, from its stack (the same)
        self.compiles = [0, 0]  # compile events witnessed: all of them, those that were the learner's
        self.compile_records: list = []  # what the grader's listener saw of each, in order, for good
        self.reads: list = []  # (id, description) of each host read noted, in order, for good
        self.holding: list = []  # the arrays read since the last block started: their ids stay theirs
        self.blocks: dict[int, tuple] = {}  # key -> what puts a host_reads block's watch back

    def compiled(self, frame: Any, record: tuple) -> None:
        """One compile event, raised under `frame` (the compile's own stack: whoever raised it cannot
        choose it), judged here: eager or the learner's, and what program it compiles (its input
        types and its equations, read from that stack; the raiser's say is ignored). Its record is
        kept here, out of the submission's reach (a list of the listener's own is reachable through
        the listener JAX keeps), with these verdicts in it."""
        self.compiles[0] += 1
        eager = self.is_eager(frame) if self.is_eager is not None else bool(record and record[1])
        if not eager:
            self.compiles[1] += 1
        if _len(record) == 4:
            read = self.body_of(frame) if self.body_of is not None else (record[2], record[3])
            signature, body = read if read is not None else (None, None)
            self.compile_records.append((record[0], eager, signature, body))

    def host_read(self, payload: tuple) -> None:
        """An array's values read back to the host (payload: the array, its description). The array is
        held until the next block starts, so that its id is not another's while the block lasts."""
        if _type(payload) is _tuple and _len(payload) == 2 and _type(payload[1]) is _str:  # nothing of the raiser's runs here
            self.holding.append(payload[0])
            self.reads.append((_id(payload[0]), payload[1]))

    def host_reads_since(self, cursor: Any) -> list[str]:
        seen, ids = [], set()
        for key, description in self.reads[_cursor(cursor):]:
            if key not in ids:
                ids.add(key)
                seen.append(description)
        return seen

    def answer(self, operation: str, payload: tuple) -> Any:
        if operation == "compiles":
            return _tuple(self.compiles)
        if operation == "compiled":
            return self.compiled(_getframe(2), payload[0] if payload else ())  # past answer and _ask: the raiser's
        if operation == "compiles since":
            return _tuple(self.compile_records[_cursor(payload[0] if payload else 0):])
        if operation == "host reads start":
            key = _int_from(_urandom(8), "big")
            self.blocks[key] = _tuple(payload[0]) if payload and _type(payload[0]) is _tuple else ()
            self.holding = []
            return key, _len(self.reads)
        if operation == "host read":
            return self.host_read(payload)
        if operation == "host reads stop":
            key = payload[0] if payload and _type(payload[0]) is int else None
            for undo in reversed(self.blocks.pop(key, ())):
                undo()
            return self.host_reads_since(payload[1] if _len(payload) > 1 else 0)
        if operation in ("watch", "run", "runs"):
            return self._watched(operation, payload)
        if operation == "start":
            number = _len(self.timelines) + 1
            self.timelines[number] = {"f": payload[0], "tick": payload[1], "outputs": [], "reads": [],
                                      "lowered": [], "compiled": False}
            return number
        if operation not in _TIMELINE_OPERATIONS:
            raise _LookupError(f"no operation {operation!r}")
        timeline = self.timelines.get(payload[0]) if payload and _type(payload[0]) is int else None
        if timeline is None:
            raise _LookupError("no such timeline")
        f, outputs = timeline["f"], timeline["outputs"]
        if operation == "call":
            out = f(*_plain(payload[1], payload[2]))
            outputs.append(out)
            timeline["compiled"] = True
            return out
        if operation == "read":
            ready = _all(_type(leaf) is not _ArrayImpl or _is_ready(leaf) for out in outputs for leaf in _leaves(out))
            timeline["reads"].append((_len(outputs), ready, timeline["compiled"]))
            return timeline["tick"] * _len(outputs)
        if operation == "reads":
            return _list(timeline["reads"])
        if operation == "lower":
            timeline["lowered"].append(f.lower(*_plain(payload[1], payload[2], _SHAPES)))
            return _len(timeline["lowered"]) - 1
        if operation == "compile":
            compiled = timeline["lowered"][payload[1]].compile(*payload[2], **payload[3])
            timeline["compiled"] = True
            return compiled
        if operation == "attribute":
            return _getattr(f, payload[1])
        if operation == "lowered_attribute":
            return _getattr(timeline["lowered"][payload[1]], payload[2])
        raise _LookupError(f"no operation {operation!r}")


    def _watched(self, operation: str, payload: tuple) -> Any:
        if operation == "watch":
            number = _len(self.watched) + 1
            self.watched[number] = {"body": payload[0], "settings": _tuple(payload[1]), "runs": []}
            return number
        watched = self.watched.get(payload[0]) if _type(payload[0]) is int else None
        if watched is None:
            raise _LookupError("no such watched function")
        if operation == "runs":
            return [(traced, _dict(values), shapes, by_jit, returned, checkified)
                    for traced, values, shapes, by_jit, returned, checkified in watched["runs"]]
        args, kwargs = payload[1], payload[2]
        if _type(args) is not tuple or _type(kwargs) is not dict:
            raise _TypeError("a watched function takes arguments")
        # Exact types only: nothing of the caller's runs here, and a look-alike tracer is no tracer.
        traced = _any(_type(arg) is _JaxprTracer for arg in (*args, *kwargs.values()))
        run = [traced, {name: _setting(name) for name in watched["settings"]}, _tuple(_shape(arg) for arg in args),
               traced and _under_a_jit_call(_getframe(1)), False, traced and _under_checkify(_getframe(1))]
        watched["runs"].append(run)  # recorded as it starts; whether it returned, once it has
        out = watched["body"](*args, **kwargs)
        run[4] = True
        return out


def _under_a_jit_call(frame: Any) -> bool:
    """Whether a call of a jax.jit function is on the stack, tracing on a cache miss: a trace for
    make_jaxpr, eval_shape or `.lower` runs nothing, and leaves no such frame. A frame's code is the
    code that runs in it: only calling the jitted function makes one with jit's own."""
    if _JIT_CALL is None:  # a JAX whose jit this witness does not know: every trace counts
        return True
    while frame is not None:
        if frame.f_code is _JIT_CALL:
            return True
        frame = frame.f_back
    return False


def _under_checkify(frame: Any) -> bool:
    """Whether checkify's transformation is on the stack: the body is traced for checkify's own checks
    (nan_checks and the rest), whatever else also checks it."""
    while frame is not None:
        if frame.f_code.co_filename == _CHECKIFY_FILE:
            return True
        frame = frame.f_back
    return False


def _setting(name: str) -> Any:
    """A JAX setting's value now, read with JAX's own getter (as bound when this module ran)."""
    state = _config_states.get(name)
    value = _config_value(state) if state is not None else None
    return value if _type(value) in (bool, int, float, str, _NoneType) else _repr(value)


def _shape(arg: Any) -> tuple | None:
    """An array argument's shape (a NumPy array, as a host callback gets, or a JAX array), or a jax.jit
    tracer's (a symbolic dimension, as `jax.export` traces with, by its text: "2*k"); None for
    anything else, whose `shape` would be the caller's code."""
    if _type(arg) in _ARRAYS:
        return _tuple(_int(n) for n in arg.shape)
    if _type(arg) is _JaxprTracer:
        return _tuple(n if _type(n) is int else _str(n) for n in arg.aval.shape)
    return None


def _plain(args: tuple, kwargs: dict, also: tuple[type, ...] = ()) -> tuple:
    """The arguments, if they are arrays or numbers: nothing of the caller's runs in the witness."""
    if kwargs or _type(args) is not tuple or _any(_type(arg) not in _PLAIN and _type(arg) not in also for arg in args):
        raise _TypeError(
            "the function to time takes the arrays it was given, positionally; it was called with "
            f"({', '.join(_type(a).__name__ for a in args)}{', keywords' if kwargs else ''}). Call f itself "
            "on the input you were handed: f is already jitted, and a jax.jit (or vmap, grad) wrapper "
            "around it traces it into a different program")
    return args


def _plain_types() -> tuple[type, ...]:
    import numpy as np
    from jax._src.array import ArrayImpl

    return (ArrayImpl, np.ndarray, int, float, bool)


def _shape_type() -> type:
    import jax

    return jax.ShapeDtypeStruct


def _array_type() -> type:
    from jax._src.array import ArrayImpl

    return ArrayImpl


def _leaves_of() -> Any:
    import jax

    return jax.tree_util.tree_leaves


def _jit_call_code() -> Any:
    """The code jax.jit's C++ call runs in Python when its cache has no program for the arguments
    (pjit's `cache_miss`, made in `_cpp_pjit`); None where this JAX has no such function."""
    import types

    from jax._src import pjit

    made_by = getattr(pjit, "_cpp_pjit", None)
    consts = made_by.__code__.co_consts if isinstance(made_by, types.FunctionType) else ()
    return next((c for c in consts if isinstance(c, types.CodeType) and c.co_name == "cache_miss"), None)


def _checkify_file() -> str:
    from jax._src import checkify

    return checkify.__file__


def _jax_internals() -> tuple:
    from jax._src import config
    from jax._src.interpreters import partial_eval

    getter = next(vars(kind)["value"] for kind in type(config.config_states["jax_enable_x64"]).__mro__
                  if "value" in vars(kind)).fget
    return partial_eval.DynamicJaxprTracer, dict(config.config_states), getter  # a copy: the dict JAX keeps can be refilled


_len, _type, _any, _all, _list, _getattr, _id = len, type, any, all, list, getattr, id
_int_from, _urandom = int.from_bytes, os.urandom


_TIMELINE_OPERATIONS = frozenset({"call", "read", "reads", "lower", "compile", "attribute", "lowered_attribute"})


def _cursor(value: Any) -> int:
    """A reader's place in a record: an exact int, never negative (a raiser's own object runs nothing)."""
    return value if _type(value) is int and value >= 0 else 0
_tuple, _dict, _repr, _str, _NoneType = tuple, dict, repr, str, type(None)
_LookupError, _TypeError = LookupError, TypeError
_JaxprTracer, _config_states, _config_value = _jax_internals()
_JIT_CALL = _jit_call_code()
_CHECKIFY_FILE = _checkify_file()
_PLAIN = frozenset(_plain_types())
_ARRAYS = frozenset(_plain_types()[:2])  # ArrayImpl, np.ndarray: their shapes are C attributes
_int = int
_SHAPES = (_shape_type(),)
_ArrayImpl = _array_type()
_is_ready, _leaves = _ArrayImpl.is_ready, _leaves_of()
_LEDGER = Ledger()
