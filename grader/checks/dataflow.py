"""Where a program's values come from: which inputs reach an equation, and through what. A tool the
task names counts only when it works on the data (`takes_inputs`), the input reaches a wrapping call
by no other way (`reaches_otherwise`), and work that no input feeds is seen (`input_free_work`)."""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.extend
import numpy as np

# Primitives that reshape, transpose, cast or copy a value: what JAX adds around an operation run op by
# op (a Python number cast on the way in), so no work of an answer's when it runs them eagerly.
RESHAPES = frozenset({"reshape", "transpose", "convert_element_type", "broadcast_in_dim", "squeeze", "expand_dims",
                      "copy", "copy_p"})
# Primitives that move, reshape, cast or reshard a value without computing with it.
MOVES = RESHAPES | {"sharding_constraint", "reshard", "mesh_cast", "device_put", "pad", "rev", "pvary", "pbroadcast"}
# Primitives that only call a body of theirs, and the parameter that holds it.
CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr", "shard_map": "jaxpr"}


def _operand(var: Any) -> bool:
    return not isinstance(var, jax.extend.core.Literal)


def reaches_otherwise(jaxpr: Any, arg: Any, call: Any) -> bool:
    """Whether `arg` flows into an operand of the equation `call` other than itself: through work done
    on it outside the call."""
    tainted = {id(arg)}
    for eqn in jaxpr.eqns:
        if eqn is call:
            return any(id(v) in tainted and v is not arg for v in eqn.invars if _operand(v))
        if any(id(v) in tainted for v in eqn.invars if _operand(v)):
            tainted.update(id(v) for v in eqn.outvars)
    return False


def _keeps_every_value(eqn: Any) -> bool:
    """A move that hands on every value of its operand (a pad that crops, with negative padding, is
    a slice)."""
    if eqn.primitive.name == "pad":
        return all(low >= 0 and high >= 0 and inner >= 0 for low, high, inner in eqn.params["padding_config"])
    return eqn.primitive.name in MOVES


def takes_inputs(closed: Any, wanted: set[int], inputs: tuple[int, ...]) -> bool:
    """Whether an equation whose id is in `wanted` takes each of the program's `inputs` (by position)
    as an operand as it came in: through moves and calls' bodies only."""

    def walk(jaxpr: Any, came: dict[int, int]) -> tuple[bool, list[int | None]]:
        for eqn in jaxpr.eqns:
            ins = [came.get(id(v)) if _operand(v) else None for v in eqn.invars]
            if id(eqn) in wanted and set(inputs) <= {i for i in ins if i is not None}:
                return True, []
            sub = eqn.params.get(CALLS.get(eqn.primitive.name, ""))
            if sub is not None:
                inner = getattr(sub, "jaxpr", sub)
                found, outs = walk(inner, {id(v): i for v, i in zip(inner.invars, ins) if i is not None})
                if found:
                    return True, []
                came.update({id(v): i for v, i in zip(eqn.outvars, outs) if i is not None})
            elif _keeps_every_value(eqn) and ins and ins[0] is not None:
                came[id(eqn.outvars[0])] = ins[0]
        return False, [came.get(id(v)) for v in jaxpr.outvars]

    jaxpr = getattr(closed, "jaxpr", closed)
    return walk(jaxpr, {id(v): i for i, v in enumerate(jaxpr.invars)})[0]


def handed_on(closed: Any, wanted: set[int]) -> list[tuple[Any, int] | None]:
    """For each of the program's outputs, the equation whose id is in `wanted` (at any call depth) and
    the position of its result that the output is, handed on through moves, slices and calls' bodies
    only, or joined (concatenated) with the program's inputs as they came in: never computed with on
    the way. None for an output that is not such a result."""

    def walk(jaxpr: Any, came: dict[int, Any]) -> list[Any]:
        for eqn in jaxpr.eqns:
            sub = eqn.params.get(CALLS.get(eqn.primitive.name, ""))
            ins = [came.get(id(v)) if _operand(v) else None for v in eqn.invars]
            if id(eqn) in wanted:
                came.update((id(v), (eqn, k)) for k, v in enumerate(eqn.outvars))
            elif sub is not None:
                inner = getattr(sub, "jaxpr", sub)
                outs = walk(inner, {id(i): mark for i, mark in zip(inner.invars, ins) if mark})
                came.update((id(v), mark) for v, mark in zip(eqn.outvars, outs) if mark)
            elif (_keeps_every_value(eqn) or eqn.primitive.name in ("slice", "dynamic_slice")) and ins and ins[0]:
                came[id(eqn.outvars[0])] = ins[0]
            elif eqn.primitive.name == "concatenate" and all(ins) and any(mark != "input" for mark in ins):
                came[id(eqn.outvars[0])] = next(mark for mark in ins if mark != "input")
        return [came.get(id(v)) if _operand(v) else None for v in jaxpr.outvars]

    jaxpr = getattr(closed, "jaxpr", closed)
    return [None if mark == "input" else mark for mark in walk(jaxpr, {id(v): "input" for v in jaxpr.invars})]


def grown_tables(closed: Any, min_size: int) -> list[Any]:
    """The equations, calls' bodies included, that compute (not merely move or cast) an array of at
    least `min_size` values out of inputs, constants and literals all smaller than that: a table
    grown from a shape or a few numbers, not one the program holds whole and combines. Whether the
    program's inputs feed it is for the values to say (`nudges.unmoved_by_inputs`)."""
    found: list[Any] = []

    def size(var: Any) -> int:
        return math.prod(getattr(getattr(var, "aval", None), "shape", ()) or ())

    def walk(jaxpr: Any, seeds: dict[int, int]) -> list[int]:
        def seed(var: Any) -> int:
            return size(var) if not _operand(var) else seeds.get(id(var), size(var))

        for eqn in jaxpr.eqns:
            grown = max((seed(v) for v in eqn.invars), default=0)
            sub = eqn.params.get(CALLS.get(eqn.primitive.name, ""))
            if sub is not None:
                inner = getattr(sub, "jaxpr", sub)
                out_seeds = walk(inner, {id(v): seed(o) for v, o in zip(inner.invars, eqn.invars)})
                seeds.update({id(v): s for v, s in zip(eqn.outvars, out_seeds)})
                continue
            if eqn.primitive.name not in MOVES and grown < min_size and any(size(v) >= min_size for v in eqn.outvars):
                found.append(eqn)
            seeds.update({id(v): grown if eqn.primitive.name in MOVES else max(grown, size(v)) for v in eqn.outvars})
        return [seed(v) for v in jaxpr.outvars]

    jaxpr = getattr(closed, "jaxpr", closed)
    walk(jaxpr, {id(v): size(v) for v in (*jaxpr.constvars, *jaxpr.invars)})
    return found


def output_sources(closed: Any) -> list[set[int]]:
    """For each output of a jaxpr, the positions of the inputs it is computed from (any path through
    its equations, nested bodies taken whole)."""
    jaxpr = getattr(closed, "jaxpr", closed)
    sources: dict[int, set[int]] = {id(v): {i} for i, v in enumerate(jaxpr.invars)}
    for eqn in jaxpr.eqns:
        used = set().union(*(sources.get(id(v), set()) for v in eqn.invars if _operand(v)))
        for v in eqn.outvars:
            sources[id(v)] = used
    return [set(sources.get(id(v), set())) if _operand(v) else set() for v in jaxpr.outvars]


_KEEPS_ZERO = frozenset({"broadcast_in_dim", "convert_element_type", "reshape", "squeeze", "expand_dims",
                         "transpose", "copy"})


def always_zero(jaxpr: Any) -> set[int]:
    """The variables of one jaxpr level that are zero whatever its inputs: literal zeros, their
    broadcasts, casts and reshapes, and products with one (`0 * decoy`)."""
    zeros: set[int] = set()

    def is_zero(var: Any) -> bool:
        if isinstance(var, jax.extend.core.Literal):
            value = np.asarray(var.val)
            return value.size > 0 and not value.any()
        return id(var) in zeros

    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if (name in _KEEPS_ZERO and eqn.invars and is_zero(eqn.invars[0])) or (
                name == "mul" and any(is_zero(v) for v in eqn.invars)):
            zeros.update(id(v) for v in eqn.outvars)
    return zeros
