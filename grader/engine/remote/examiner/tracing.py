"""Calls with tracers: the subject traces, the examiner runs the program inside the check's own
transformation.

While a request is encoded inside `collecting_tracers()`, the check's tracers it holds are
collected (the sending half puts each in the message as its position in that list); the subject
traces for their abstract values and sends back a jaxpr, which `trace_in_subject` runs here on
the tracers themselves, so that the check's transformation records it.
"""

from __future__ import annotations

import contextlib
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
    the JAX settings it runs under."""

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
    reply = session.request("trace", **fields, call=blob, avals=[t.aval for t in tracers],
                            axis_env=list(_axis_env()), abstract_mesh=_abstract_mesh(), **session.context())
    with local_nodes():  # the subject built these objects already
        return _outputs(reply, tracers)


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
