"""Reads of a jax.Array's values back to the host: `host_reads`.

A CPU's transfer guard never sees a device-to-host copy (the memory is the
host's already, so JAX hands NumPy the buffer itself), so the watch sits where
the values leave the array, on every path JAX has:

- `ArrayImpl._value`, which printing, str/repr/format, float(), int(), bool(),
  an index, .tolist(), .tobytes(), pickling, `jax.device_get` and `__array__`
  go through;
- the buffer protocol, which NumPy tries before `__array__` (np.asarray,
  np.array, .item(), np.mean(x), memoryview...), on one device's array above
  all (a shard's `.data`): switched off inside the block, so NumPy asks
  `__array__`, which reads `_value`;
- DLPack (`np.from_dlpack(x)`, `x.__dlpack__()`);
- `copy_to_host_async`, which starts that copy with no one waiting for it (in
  the C entry it calls where no host copy is cached yet);
- jaxlib's C entries to an array's memory: the copy `_value` makes (and its
  asynchronous start), the raw
  buffer address (`unsafe_buffer_pointer()`, which NumPy copies from through an
  `__array_interface__`), `__cuda_array_interface__`, DLPack's capsule.

The watch points each function on those paths (Python's own, and a Python
wrapper put around each C entry before the submission is imported) at a
recording trampoline for the block, keeping its identity, so a reference taken
at import is watched too. A read the grader makes itself (sending a result
back from the subject) is not the exercise's and is not noted. What is not
watched: the buffer protocol where this Python's type layout is not the one
known (a note in `BUFFER_PROTOCOL_WATCHED`), and a C function of jaxlib's that
hands out memory other than those wrapped.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from grader.checks import site


@contextlib.contextmanager
def host_reads() -> Iterator[list[str]]:
    """Every jax.Array whose values are read back to the host inside the block, once each, as
    "float32[3]": printed, formatted, converted (float(), int(), .item(), .tolist()), handed to
    NumPy (np.asarray, np.array, a NumPy function), a shard's `.data` read the same ways, DLPack,
    jax.device_get. Where the exercise runs in another process (under the grader), it is watched
    there."""
    where = site.current()
    if where is not None:  # the reads happen where the exercise runs
        seen: list[str] = []
        block = where.run(start_host_reads)  # the block's key and place in the witness's record, kept here
        try:
            yield seen
        finally:
            seen.extend(where.run(stop_host_reads, block))
        return
    seen = []
    block = start_host_reads()
    try:
        yield seen
    finally:
        seen.extend(stop_host_reads(block))

def call_on_device(fn: Callable, *args: Any, what: str, why: str = "", **kwargs: Any) -> Any:
    """`fn(*args)`, called on arrays with every read of an array's values back to the host watched: a
    call that copies its inputs to NumPy, computes there and hands only the result back to JAX fails,
    whatever its values (the honest answer's work stays in JAX's arrays). Returns what it returned."""
    __tracebackhide__ = True
    from grader.checks.core import fail, sentence

    with host_reads() as reads:
        out = fn(*args, **kwargs)
    if reads:
        fail(sentence(f"{what} read {len(reads)} array(s) back to the host ({', '.join(reads[:3])}): the "
                      f"work ran on NumPy copies, and only the result went back to JAX.", why), "host-transfer")
    return out


# jaxlib's entries that hand out an array's memory, written in C: one held from before a block (taken
# at import) could not be watched, so each is wrapped once, before any submission code runs, in a
# Python function whose code a block points elsewhere (`install_entries`). The owner is ArrayImpl's
# name, or "_jax" for jaxlib's module.
_C_ENTRIES = (("ArrayImpl", "_single_device_array_to_np_array_did_copy"), ("ArrayImpl", "unsafe_buffer_pointer"),
              ("ArrayImpl", "_copy_single_device_array_to_host_async"), ("_jax", "buffer_to_dlpack_managed_tensor"))
_C_PROPERTIES = ("__cuda_array_interface__",)  # the device pointer, on a GPU
# The slot where `_value` keeps what it copied to the host: read directly (`x._npy_value`), it hands out
# values an earlier read left there, the grader's own included, through no function of JAX's.
_CACHED_VALUE = "_npy_value"
_ENTRIES: list[types.FunctionType] = []  # the wrappers installed, whose code stays the grader's


def install_entries() -> None:
    """Put a Python function in place of each of jaxlib's C entries to an array's memory (`_C_ENTRIES`,
    `_C_PROPERTIES`), for good: the subject calls it before the submission is imported, so whatever
    the submission holds is a function a block can watch. Idempotent."""
    from jax._src import array
    from jax._src.lib import _jax

    owners = {"ArrayImpl": array.ArrayImpl, "_jax": _jax}
    for owner, name in _C_ENTRIES:
        entry = vars(owners[owner]).get(name)
        if entry is not None and not isinstance(entry, types.FunctionType):
            _ENTRIES.append(_python_entry(entry, name, array.__file__))
            setattr(owners[owner], name, _ENTRIES[-1])
    for name in (*_C_PROPERTIES, _CACHED_VALUE):
        held = vars(array.ArrayImpl).get(name)
        if isinstance(held, property) and not isinstance(held.fget, types.FunctionType):
            _ENTRIES.append(_python_entry(held.fget, name, array.__file__))
            setattr(array.ArrayImpl, name, property(_ENTRIES[-1], held.fset if name == _CACHED_VALUE else None))


def guard_entries() -> None:
    """Tell the audit hook (once it is installed) that the wrapped entries' code is the grader's: the
    submission may never read it (it holds the C entry)."""
    from grader.runtime.loading import SWAPPED_FUNCTION

    for entry in _ENTRIES:
        sys.audit(SWAPPED_FUNCTION, entry, True)


def _python_entry(entry: Any, name: str, filename: str) -> types.FunctionType:
    """A Python function that calls `entry` (one of its code's constants, so only `__code__`, whose
    reading the audit hook refuses while a block swaps it, leads there), placed in JAX's file: a
    host read's frame walk to its first caller outside JAX passes over it."""
    from grader.checks.values import trampoline

    def template(self: Any, /, *args: Any, **kwargs: Any) -> Any: ...

    code = trampoline(template.__code__, entry).replace(co_name=name, co_qualname=name, co_filename=filename)
    return types.FunctionType(code, {"__builtins__": builtins}, name)


def _read_functions() -> list[types.FunctionType]:
    """Every Python function a read of an array's values passes through, at the lowest level there is
    one: `_value`'s own body (under its profiler wrapper), DLPack's, and the wrapped C entries."""
    from jax._src import array, dlpack
    from jax._src.lib import _jax

    value = vars(array.ArrayImpl)["_value"].fget
    while not isinstance(value, types.FunctionType) or hasattr(value, "__wrapped__"):
        value = value.__wrapped__
    found = [value, dlpack.to_dlpack]
    owners = {"ArrayImpl": array.ArrayImpl, "_jax": _jax}
    found += [vars(owners[owner]).get(name) for owner, name in _C_ENTRIES]
    found += [getattr(vars(array.ArrayImpl).get(name), "fget", None) for name in _C_PROPERTIES]
    return [fn for fn in found if isinstance(fn, types.FunctionType)]


def _cached_value_getter() -> types.FunctionType | None:
    """The Python function `install_entries` put in front of the cached host copy's slot."""
    from jax._src import array

    getter = getattr(vars(array.ArrayImpl).get(_CACHED_VALUE), "fget", None)
    return getter if isinstance(getter, types.FunctionType) else None


def start_host_reads() -> tuple[int, int]:
    """Note every read of an array's values to the host from now on (but the grader's own); returns
    the block's key and its place in the witness's record, for `stop_host_reads`.

    Each function of `_read_functions` keeps its identity and has its code pointed at a trampoline
    that notes the read (as `checks.swap_function` does), so a reference taken before the block
    (`type(x)._value.fget`, `x.unsafe_buffer_pointer` held at import) is watched too. What puts each
    one back is handed to the witness, under a key only the block's caller gets: nothing the
    submission can reach ends the watch early."""
    from jax._src import array

    from grader.runtime import witness

    impl = array.ArrayImpl
    install_entries()  # in this process, where no subject did it first
    inside = threading.local()  # a read made by a read (a sharded array's shards) is that one read

    # Bound once, when the block starts: a read happens often, and a list the submission could reach
    # (the protocol's folders) must not decide, changed for the length of a call, whose a read is.
    libraries, trusted, protocol = _library_folders(), _trusted_folders(), site.protocol_folders()

    def note(self: Any, frame: Any, read_by_the_grader: Any = _read_by_the_grader,
             noted: Any = witness.note_host_read, /) -> None:
        if not read_by_the_grader(frame, libraries, trusted, protocol):
            noted(self, f"{self.dtype}{list(self.shape)}")  # kept by the witness, once per array

    def watching(still_original: Callable) -> Callable:
        def watched(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            if getattr(inside, "reading", False):
                return still_original(self, *args, **kwargs)
            note(self, sys._getframe(1))  # bound: a frame is never handed to a name looked up
            inside.reading = True
            try:
                return still_original(self, *args, **kwargs)
            finally:
                inside.reading = False
        return watched

    def watching_the_cache(still_original: Callable) -> Callable:
        """JAX looks at the slot to know whether it copied already: only a look from outside JAX and
        NumPy that finds values there is a read."""
        def watched(self: Any, /) -> Any:
            value = still_original(self)
            if value is not None and not getattr(inside, "reading", False):
                caller = sys._getframe(2)  # past the trampoline, which stands at JAX's file
                if not caller.f_code.co_filename.startswith(libraries):
                    note(self, caller)
            return value
        return watched

    restore = []
    for function in _read_functions():
        restore.append(_point_at(function, watching))
    cached = _cached_value_getter()
    if cached is not None:
        restore.append(_point_at(cached, watching_the_cache))
    slot = _buffer_slot(impl)
    if slot is not None:
        import ctypes

        getbuffer = ctypes.c_void_p.from_address(slot).value
        ctypes.c_void_p.from_address(slot).value = None  # NumPy then asks __array__, which reads _value
        restore.append(lambda: setattr(ctypes.c_void_p.from_address(slot), "value", getbuffer))
    return witness.start_host_reads(restore)


def _point_at(function: types.FunctionType, watching: Callable) -> Callable[[], None]:
    """Point `function`'s code at a trampoline to `watching(a copy of function)`; what puts it back.
    The audit hook hears of it as of a swapped function: the submission may not read that code."""
    from grader.checks.values import trampoline
    from grader.runtime.loading import SWAPPED_FUNCTION

    saved = function.__code__
    still_original = types.FunctionType(saved, function.__globals__, function.__name__, function.__defaults__,
                                        function.__closure__)
    still_original.__kwdefaults__ = function.__kwdefaults__
    function.__code__ = trampoline(saved, watching(still_original))
    sys.audit(SWAPPED_FUNCTION, function, True)

    def put_back() -> None:
        function.__code__ = saved
        if function not in _ENTRIES:  # an entry's code stays unreadable (`guard_entries`)
            sys.audit(SWAPPED_FUNCTION, function, False)
    return put_back


def stop_host_reads(block: Any = (0, 0)) -> list[str]:
    """End the block `start_host_reads` returned (its key and place): the watch is put back and the
    reads noted since are returned."""
    from grader.runtime import witness

    key, start = block
    return [str(read) for read in witness.stop_host_reads(int(key), int(start))]


# CPython's type object up to `tp_as_buffer`, on a 64-bit build without reference tracing: the
# offsets of tp_name, tp_basicsize and tp_as_buffer (the same from 3.8 to 3.13).
_TP_NAME, _TP_BASICSIZE, _TP_AS_BUFFER = 24, 32, 160
BUFFER_PROTOCOL_WATCHED = {"yes": False, "why": "not looked at yet"}


def _buffer_slot(kind: type) -> int | None:
    """The address of `kind`'s `bf_getbuffer` (the buffer protocol's entry), or None where this
    interpreter's type layout is not the one known (checked on `kind` and on two built-in types)."""
    import ctypes

    def field(kind: type, offset: int, ctype: Any) -> Any:
        return ctype.from_address(id(kind) + offset).value

    try:
        known = (ctypes.sizeof(ctypes.c_void_p) == 8 and not hasattr(sys, "getobjects")
                 and all(field(t, _TP_BASICSIZE, ctypes.c_ssize_t) == t.__basicsize__ for t in (kind, bytes, int))
                 and (field(kind, _TP_NAME, ctypes.c_char_p) or b"").decode().endswith(kind.__name__)
                 and field(bytes, _TP_AS_BUFFER, ctypes.c_void_p) and not field(int, _TP_AS_BUFFER, ctypes.c_void_p))
        procs = field(kind, _TP_AS_BUFFER, ctypes.c_void_p) if known else None
    except (ValueError, OSError, AttributeError):
        procs = None
    if not procs or not ctypes.c_void_p.from_address(procs).value:
        BUFFER_PROTOCOL_WATCHED.update(yes=False, why="this interpreter's type layout is not the one known")
        return None
    BUFFER_PROTOCOL_WATCHED.update(yes=True, why="")
    return procs


def _library_folders() -> tuple[str, ...]:
    import jax
    import numpy

    return tuple(os.path.dirname(os.path.abspath(m.__file__)) for m in (jax, numpy))


def _trusted_folders() -> tuple[str, ...]:
    """Where the grader's, JAX's, NumPy's and the standard library's code lives."""
    import grader

    return (*_library_folders(), os.path.dirname(os.path.abspath(grader.__file__)),
            os.path.dirname(os.path.abspath(os.__file__)), "<frozen ")


def _read_by_the_grader(frame: Any, libraries: tuple[str, ...], trusted: tuple[str, ...],
                        protocol: tuple[str, ...]) -> bool:
    """Whether the read comes from the grader's protocol (sending a result back): the first caller
    outside JAX and NumPy is the grader's wire code, not a submission's print or float(), and no code
    but the grader's, JAX's, NumPy's and the standard library's is on the stack around it (the
    submission handing an array to the wire code itself is its own read)."""
    for _ in range(16):
        if frame is None:
            return False
        filename = frame.f_code.co_filename
        if not filename.startswith(libraries) and not filename.startswith("<"):
            return bool(protocol) and filename.startswith(protocol) and _only_trusted_code_from(frame, trusted)
        frame = frame.f_back
    return False


def _only_trusted_code_from(frame: Any, trusted: tuple[str, ...]) -> bool:
    while frame is not None:
        if not frame.f_code.co_filename.startswith(trusted):
            return False
        frame = frame.f_back
    return True
