"""Calls with tracers: the subject traces, the examiner runs the program inside the check's own
transformation."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import jax
from jax._src import core
from jax._src import mesh as mesh_lib

from grader.engine.remote import codec
from grader.engine.remote.codec import Encoder


if TYPE_CHECKING:
    from grader.engine.remote.examiner.proxies import RemoteObject


_tracing = threading.local()


# --- calls with tracers: the subject traces, the examiner runs the program --------------------------


def _axis_env() -> list[tuple[str, int]]:

    return list(core.get_axis_env().axis_sizes.items())


def _abstract_mesh() -> Any:

    abstract = mesh_lib.get_abstract_mesh()
    return None if abstract.empty else abstract


def _trace_state_clean() -> bool:
    return codec.J.core.trace_state_clean()


def _has_tracer(tree: Any) -> bool:
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(tree))


def _traced_call(fn: RemoteObject, args: tuple, kwargs: dict) -> Any:

    session = fn._session
    tracers: list[Any] = []
    _tracing.tracers = tracers
    try:
        call = Encoder(session._refer, session._ship_fallback, session.plain_types)
        blob = call.dumps((args, kwargs))
    finally:
        _tracing.tracers = None
    reply = session.request("trace", fn=fn, call=blob, avals=[t.aval for t in tracers],
                            axis_env=list(_axis_env()), abstract_mesh=_abstract_mesh(), **session.context())
    with local_nodes():  # the subject built these objects already
        return _outputs(reply, tracers)


def _outputs(reply: dict, tracers: list) -> Any:
    """A traced call's result here: its program run on the check's tracers, the other leaves as they are."""

    closed = reply["jaxpr"]
    outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
    leaves = list(reply["leaves"])
    for position, value in zip(reply["traced"], outs):
        leaves[position] = value
    return jax.tree.unflatten(reply["out_tree"], leaves)


@contextlib.contextmanager
def local_nodes() -> Iterator[None]:
    """Stand-in nodes made in this block are put together here, without asking the subject."""
    saved = getattr(_tracing, "local_nodes", False)
    _tracing.local_nodes = True
    try:
        yield
    finally:
        _tracing.local_nodes = saved
