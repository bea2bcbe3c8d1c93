"""Messages between examiner and subject: length-prefixed frames on a pair of pipes.

A frame is an 8-byte little-endian length and that many bytes of a codec
message. The examiner writes one request and reads one reply; the subject
never speaks first. A reader gives up on a frame that is longer than the
limit, on a pipe that closes mid-frame and on a deadline, so a subject that
floods, dies or hangs costs the examiner one failed check, not a stuck run.

Requests (examiner to subject), each a dict with "op" and its fields:
  hello      the protocol version and device count        -> the subject's own
  load       a manifest path of the submission            -> the module's handle, or {"failure": [code, text]}
  getattr    an object's handle and a name                -> the value
  setattr    an object's handle, a name and a value       -> None
  call       a callable's handle, args, kwargs, settings  -> the value
  trace      the same, with abstract values in the args   -> {"jaxpr", "out_tree"}
  observe    a check's own function and its args          -> what it returned
  swap       a module handle, a name, a check's function  -> a token (and `unswap` with it)
  settings   names of JAX settings                        -> their values where the subject runs
  pointers   array handles                                -> each one's buffer addresses
  processes  a multi-process launch (see checks.processes) -> its results
  reset      forget the exercise and every handle         -> None
Every reply is {"ok": bool, "value" or "error", "effects"}: effects are what
the request caused (printed text, compiles, inputs deleted or changed).
"""

from __future__ import annotations

import os
import select
import struct
import time
from typing import Any

from grader.engine.remote.codec import MAX_MESSAGE_BYTES, WireError


_LENGTH = struct.Struct("<Q")


class SubjectGone(Exception):
    """The other end closed its pipe (it exited, crashed or was killed)."""


class TooSlow(Exception):
    """No complete message arrived before the deadline."""


def write_frame(fd: int, data: bytes) -> None:
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class FrameReader:
    """Reads whole frames from a pipe, one at a time, with a deadline and a size limit."""

    def __init__(self, fd: int, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.fd, self.limit = fd, limit
        self._buffer = bytearray()

    def _fill(self, want: int, deadline: float | None) -> None:
        while len(self._buffer) < want:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait if wait is None else min(wait, 1.0))
            if not ready:
                if deadline is not None and time.monotonic() >= deadline:
                    raise TooSlow()
                continue
            chunk = os.read(self.fd, max(1 << 16, min(want - len(self._buffer), 1 << 24)))
            if not chunk:
                raise SubjectGone()
            self._buffer += chunk

    def read(self, deadline: float | None = None) -> bytes:
        self._fill(_LENGTH.size, deadline)
        (size,) = _LENGTH.unpack_from(self._buffer, 0)
        if size > self.limit:
            raise WireError(f"a message of {size} bytes, over the {self.limit}-byte limit")
        self._fill(_LENGTH.size + size, deadline)
        data = bytes(self._buffer[_LENGTH.size:_LENGTH.size + size])
        del self._buffer[:_LENGTH.size + size]
        return data


# JAX settings a check may switch around a call; the subject takes the examiner's values for each request.
SETTINGS = ("jax_enable_x64", "jax_debug_nans", "jax_debug_infs", "jax_disable_jit", "jax_transfer_guard",
            "jax_transfer_guard_host_to_device", "jax_transfer_guard_device_to_host",
            "jax_transfer_guard_device_to_device", "jax_debug_key_reuse", "jax_check_tracer_leaks",
            "jax_numpy_rank_promotion", "jax_numpy_dtype_promotion", "jax_default_matmul_precision",
            "jax_default_prng_impl", "jax_threefry_partitionable", "jax_enable_checks", "jax_log_compiles",
            "jax_explain_cache_misses", "jax_softmax_custom_jvp", "jax_default_device")
# Modules shipped check code may name; the subject hands over its own copies.
SHIPPABLE_MODULES = ("jax", "jaxlib", "numpy", "ml_dtypes", "math", "re", "functools", "itertools",
                     "operator", "dataclasses", "typing", "collections", "numbers", "time", "enum",
                     "grader.checks", "grader.core.failures", "chex", "string", "textwrap", "warnings")


def hashable(value: Any) -> Any:
    """A pytree node's aux data as a key: itself where it hashes, its repr where it does not (both
    sides key a node type's stand-in by it)."""
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)
