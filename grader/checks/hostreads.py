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
- DLPack (`np.from_dlpack(x)`, `x.__dlpack__()`).

A read the grader makes itself (sending a result back from the subject) is
not the exercise's and is not noted. What is not watched: jaxlib's private
`_single_device_array_to_np_array_did_copy` called by hand (the grader's own
reads go through it, and the subject refuses a change to it), and the buffer
protocol where this Python's type layout is not the one known (a note in
`BUFFER_PROTOCOL_WATCHED`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
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
        where.run(start_host_reads)
        try:
            yield seen
        finally:
            seen.extend(where.run(stop_host_reads))
        return
    start_host_reads()
    seen = _HOST_READS["seen"]
    try:
        yield seen
    finally:
        stop_host_reads()


_HOST_READS: dict[str, Any] = {"original": None, "seen": [], "restore": []}


def start_host_reads() -> None:
    """Note every read of an array's values to the host from now on (but the grader's own)."""
    from jax._src import array, dlpack

    impl = array.ArrayImpl
    if _HOST_READS["original"] is not None:
        return
    original = _HOST_READS["original"] = impl.__dict__["_value"]
    seen = _HOST_READS["seen"] = []
    noted: dict[int, Any] = {}  # id -> the array (kept, so an id is never reused while watching)
    inside = threading.local()  # a read made by a read (a sharded array's shards) is that one read

    def note(self: Any, frame: Any, read_by_the_grader: Any = _read_by_the_grader, /) -> None:
        if id(self) not in noted and not read_by_the_grader(frame):
            noted[id(self)] = self
            seen.append(f"{self.dtype}{list(self.shape)}")

    def watched(self: Any) -> Any:
        if getattr(inside, "reading", False):
            return original.fget(self)
        note(self, sys._getframe(1))  # bound: a frame is never handed to a name looked up
        inside.reading = True
        try:
            return original.fget(self)
        finally:
            inside.reading = False

    to_dlpack = dlpack.to_dlpack

    def watched_dlpack(x: Any, *args: Any, **kwargs: Any) -> Any:
        note(x, sys._getframe(1))
        return to_dlpack(x, *args, **kwargs)

    restore = _HOST_READS["restore"] = []
    impl._value = property(watched)
    restore.append(lambda: setattr(impl, "_value", original))
    # `ArrayImpl.__dlpack__` imports it from the module at each call: the class itself stays as it was.
    dlpack.to_dlpack = watched_dlpack
    restore.append(lambda: setattr(dlpack, "to_dlpack", to_dlpack))
    slot = _buffer_slot(impl)
    if slot is not None:
        import ctypes

        getbuffer = ctypes.c_void_p.from_address(slot).value
        ctypes.c_void_p.from_address(slot).value = None  # NumPy then asks __array__, which reads _value
        restore.append(lambda: setattr(ctypes.c_void_p.from_address(slot), "value", getbuffer))


def stop_host_reads() -> list[str]:
    if _HOST_READS["original"] is not None:
        for undo in reversed(_HOST_READS["restore"]):
            undo()
        _HOST_READS["restore"] = []
        _HOST_READS["original"] = None
    return list(_HOST_READS["seen"])


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


def _read_by_the_grader(frame: Any) -> bool:
    """Whether the read comes from the grader's protocol (sending a result back): the first caller
    outside JAX and NumPy is the grader's wire code, not a submission's print or float()."""
    import jax
    import numpy

    libraries = tuple(os.path.dirname(os.path.abspath(m.__file__)) for m in (jax, numpy))
    for _ in range(16):
        if frame is None:
            return False
        filename = frame.f_code.co_filename
        if not filename.startswith(libraries) and not filename.startswith("<"):
            return site.is_protocol(filename)
        frame = frame.f_back
    return False
