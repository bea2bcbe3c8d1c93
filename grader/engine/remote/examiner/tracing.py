"""Calls with tracers: the subject traces, the examiner runs the program inside the check's own
transformation.

While a request is encoded inside `collecting_tracers()`, the check's tracers it holds are
collected (the sending half puts each in the message as its position in that list); the subject
traces for their abstract values and sends back a jaxpr, which `trace_in_subject` runs here on
the tracers themselves, so that the check's transformation records it.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from typing import Any, Protocol

import jax
from jax._src import core
from jax._src import mesh as mesh_lib

from grader.engine.remote import codec
from grader.engine.remote.codec import Encoder


_state = threading.local()


class Requester(Protocol):
    """What a traced call asks of the session: an encoder for its values, the request itself, and
    the JAX settings it runs under; `generation` changes with every check and every new subject."""

    generation: int
    round_trips: int

    def encoder(self) -> Encoder: ...

    def request(self, op: str, **fields: Any) -> Any: ...

    def context(self, *, full: bool = False) -> dict[str, Any]: ...


def has_tracer(tree: Any) -> bool:
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(tree))


def trace_state_clean() -> bool:
    """Whether no transformation is tracing here."""
    return codec.J.core.trace_state_clean()


def trace_in_subject(session: Requester, values: Any, **fields: Any) -> Any:
    """Send `values` (holding the check's tracers) for the subject to trace with `fields` (what to
    trace), and run the program it sends back on those tracers: the result, as the check's
    transformation sees it."""
    with collecting_tracers() as tracers:
        blob = session.encoder().dumps(values)
    request = dict(fields, call=blob, avals=[t.aval for t in tracers], axis_env=list(_axis_env()),
                   abstract_mesh=_abstract_mesh(), **session.context())
    key = _trace_key(session, request)
    kept = _traces.get(key) if key is not None else None
    if kept is not None and kept[1] == session.round_trips:
        reply = kept[0]
    else:
        reply = session.request("trace", **request)
        if key is not None:
            _traces[key] = (reply, session.round_trips)
    with local_nodes():  # the subject built these objects already
        return _outputs(reply, tracers)


# The last traces, by what was asked, each with the request count after it: readings of one call
# that follow each other with no other request between them (its program, whether it is jitted, its
# compiled layouts, the program a check's own jit runs) read one trace, so a program tied to values
# ties every one of them, and a function cannot show each reading another program by counting its
# traces. Any other request (a call, a swap, a setting) may change what a trace gives: after one,
# the subject is asked again.
_traces: dict[Any, tuple[dict, int]] = {}
_CONTAINER_ID = re.compile(rb'(\["mut",\d+,)\d+,')
_traces_owner: list[Any] = [None]


def _trace_key(session: Requester, request: dict) -> Any:
    owner = (id(session), session.generation)
    if _traces_owner[0] != owner:
        _traces.clear()
        _traces_owner[0] = owner
    if "rebuild" in request:
        return None
    fn = request.get("fn")
    try:  # a subject's function: its handle, or the exercise module's name for it (no request made)
        hid = (object.__getattribute__(fn, "_hid"), repr(object.__getattribute__(fn, "_info")),
               getattr(type(fn), "_name", None) and object.__getattribute__(fn, "_name"))
    except AttributeError:
        return None
    try:
        # A container in the arguments travels with the examiner's id of it (to mirror it back): two
        # calls with equal arguments in new containers are the same call.
        call = _CONTAINER_ID.sub(rb"\1", request["call"])
        return (hid, call, repr(request["avals"]),
                repr(request["axis_env"]), repr(request["abstract_mesh"]),
                repr(sorted((k, repr(v)) for k, v in request.items()
                            if k not in ("fn", "call", "avals", "axis_env", "abstract_mesh"))))
    except Exception:  # noqa: BLE001 - a request that cannot be keyed is simply asked again
        return None


@contextlib.contextmanager
def collecting_tracers() -> Iterator[list]:
    """The tracers met while encoding in this block, in the order they were met."""
    tracers: list[Any] = []
    _state.tracers = tracers
    try:
        yield tracers
    finally:
        _state.tracers = None


def collected_tracers() -> list | None:
    """The list `collecting_tracers` fills, or None outside one (a tracer cannot be sent then)."""
    return getattr(_state, "tracers", None)


@contextlib.contextmanager
def local_nodes() -> Iterator[None]:
    """Stand-in nodes made in this block are put together here, without asking the subject."""
    saved = getattr(_state, "local_nodes", False)
    _state.local_nodes = True
    try:
        yield
    finally:
        _state.local_nodes = saved


def building_locally() -> bool:
    """Whether this is a `local_nodes()` block."""
    return getattr(_state, "local_nodes", False)


def _axis_env() -> list[tuple[str, int]]:
    return list(core.get_axis_env().axis_sizes.items())


def _abstract_mesh() -> Any:
    abstract = mesh_lib.get_abstract_mesh()
    return None if abstract.empty else abstract


def _outputs(reply: dict, tracers: list) -> Any:
    """A traced call's result here: its program run on the check's tracers, the other leaves as they are."""
    closed = reply["jaxpr"]
    outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
    leaves = list(reply["leaves"])
    for position, value in zip(reply["traced"], outs):
        leaves[position] = value
    return jax.tree.unflatten(reply["out_tree"], leaves)
