"""What a function's program does: its jaxpr, its loops, its per-device parts, its compiled HLO.

Values can be produced in many ways; the program shows which. These helpers
read the traced jaxpr (nested jaxprs included) or the compiled, partitioned
HLO, so a check can prove where the work ran and which tool did it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.checks.core import DOCS, KataFailure, fail, sentence

MAPPED = ("shard_map", "xla_pmap")
COLLECTIVES = frozenset({"psum", "psum_invariant", "pmax", "pmin", "ppermute", "all_gather",
                         "all_gather_invariant", "all_to_all", "psum_scatter", "reduce_scatter"})
CALLBACKS = frozenset({"pure_callback", "io_callback"})
HLO_COLLECTIVES = ("all-reduce", "all-gather", "collective-permute", "all-to-all", "reduce-scatter")
SHARD_MAP_DOCS = f"{DOCS}/notebooks/shard_map.html"


def _all_eqns(jaxpr: Any) -> Iterator[Any]:
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(sub)


def traced_jaxpr(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """`jax.make_jaxpr` of fn(*args, **kwargs); a failure to trace becomes the lesson for that error."""
    __tracebackhide__ = True
    try:
        return jax.make_jaxpr(lambda *a: fn(*a, **kwargs))(*args)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError) as error:
        from grader.explain import explain

        known = explain(error)
        fail(sentence(f"{what} cannot be traced with abstract inputs: {known.headline}.", known.idea,
                      f"See {known.link}"), known.code)


def jaxpr_primitives(fn: Callable, *args: Any, what: str | None = None, **kwargs: Any) -> list[str]:
    """Primitive names of the traced program, nested jaxprs included, in order."""
    __tracebackhide__ = True
    return program_of(fn, *args, what=what, **kwargs).primitives()


def jaxpr_size(fn: Callable, *args: Any, **kwargs: Any) -> int:
    """How many equations the traced program holds, nested jaxprs included."""
    return len(jaxpr_primitives(fn, *args, **kwargs))


# --- a traced program and its per-device parts ----------------------------------------------


@dataclass
class MappedCall:
    """One `shard_map` (or legacy pmap) in a program: the per-device part of the work."""

    eqn: Any

    @property
    def axis_sizes(self) -> dict[str, int]:
        mesh = self.eqn.params.get("mesh")
        if mesh is not None:
            manual = self.eqn.params.get("manual_axes") or self.eqn.params.get("newly_manual_axes") \
                or frozenset(mesh.axis_names)
            return {name: size for name, size in mesh.shape.items() if name in manual}
        return {str(self.eqn.params.get("axis_name")): int(self.eqn.params.get("axis_size", 1))}

    @property
    def n_devices(self) -> int:
        return math.prod(self.axis_sizes.values())

    @property
    def body(self) -> Any:
        return self.eqn.params.get("jaxpr") or self.eqn.params.get("call_jaxpr")

    @property
    def inputs(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(global shape, per-device shape) of each operand."""
        body = getattr(self.body, "jaxpr", self.body)
        return [(tuple(outer.aval.shape), tuple(inner.aval.shape))
                for outer, inner in zip(self.eqn.invars, body.invars)]

    def primitives(self) -> list[str]:
        return [eqn.primitive.name for eqn in _all_eqns(self.body)]

    def gathered_inputs(self) -> list[tuple[int, ...]]:
        """Global shapes of the operands the per-device program all-gathers back whole.

        An operand counts when an all_gather's input is that operand's block, or a value of the
        same size computed from it (a reshape, a copy, an elementwise op): every device then holds
        the whole array again. Gathering something smaller (a gradient, a partial sum) does not count.
        """
        body = getattr(self.body, "jaxpr", self.body)
        producers = {id(out): eqn for eqn in body.eqns for out in eqn.outvars}
        operands = {id(inner): tuple(outer.aval.shape) for outer, inner in zip(self.eqn.invars, body.invars)}
        found = []
        for eqn in body.eqns:
            if eqn.primitive.name not in ("all_gather", "all_gather_invariant"):
                continue
            var = eqn.invars[0]
            while id(var) not in operands and id(var) in producers:
                size = getattr(var.aval, "size", None)
                same = [v for v in producers[id(var)].invars if getattr(getattr(v, "aval", None), "size", -1) == size]
                if not same:
                    break
                var = same[0]
            if id(var) in operands:
                found.append(operands[id(var)])
        return found


@dataclass(frozen=True)
class StoredValue:
    """One array a forward scan keeps per step (`Program.stored_per_step()`).

    `source` is the primitive that computes it in the loop body ("input" for a
    value the step received, e.g. the carry); `name` is the name given to it
    with `jax.ad_checkpoint.checkpoint_name`, if any.
    """

    shape: tuple[int, ...]
    dtype: str
    source: str
    name: str | None = None

    def describe(self) -> str:
        what = "the step's input" if self.source == "input" else f"a {self.source} result"
        named = f" named {self.name!r}" if self.name else ""
        return f"{self.dtype}{list(self.shape)} ({what}{named})"


# Primitives that only pass a value through on its way to being saved.
_PASS_THROUGH = ("reduce_precision", "copy", "copy_p", "optimization_barrier")


def _origin(jaxpr: Any, var: Any) -> tuple[str, str | None]:
    """The primitive that computes `var` in `jaxpr` (seeing through checkpoint_name and copies)."""
    producers = {id(out): eqn for eqn in jaxpr.eqns for out in eqn.outvars}
    inputs = {id(v) for v in jaxpr.invars} | {id(v) for v in jaxpr.constvars}
    name = None
    while id(var) in producers:
        eqn = producers[id(var)]
        if eqn.primitive.name == "name":
            name = name or eqn.params.get("name")
        elif eqn.primitive.name not in _PASS_THROUGH:
            return eqn.primitive.name, name
        var = eqn.invars[0]
    return ("input" if id(var) in inputs else "constant"), name


_KEEPS_ZERO = frozenset({"broadcast_in_dim", "convert_element_type", "reshape", "squeeze", "expand_dims",
                         "transpose", "copy"})


def _always_zero(jaxpr: Any) -> set[int]:
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


@dataclass
class Program:
    """A traced program: `program_of(fn, *args)`."""

    jaxpr: Any

    def primitives(self) -> list[str]:
        return [eqn.primitive.name for eqn in _all_eqns(self.jaxpr)]

    def has(self, *names: str) -> bool:
        return bool(set(names) & set(self.primitives()))

    def mapped_calls(self) -> list[MappedCall]:
        return [MappedCall(eqn) for eqn in _all_eqns(self.jaxpr) if eqn.primitive.name in MAPPED]

    def outside_mapped(self) -> list[str]:
        """Primitives that run outside every shard_map/pmap body (on whole, global arrays)."""
        found: list[str] = []

        def walk(jaxpr: Any) -> None:
            for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
                found.append(eqn.primitive.name)
                if eqn.primitive.name not in MAPPED:
                    for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                        walk(sub)

        walk(self.jaxpr)
        return found

    def loops(self) -> list[Any]:
        """The scan and while equations, nested ones included."""
        return [eqn for eqn in _all_eqns(self.jaxpr) if eqn.primitive.name in ("scan", "while")]

    def find(self, *names: str) -> list[Any]:
        """The equations of these primitives (e.g. "remat2", "custom_jvp_call"), nested ones included."""
        return [eqn for eqn in _all_eqns(self.jaxpr) if eqn.primitive.name in names]

    def live(self, *names: str) -> list[Any]:
        """The equations of these primitives whose results the program's outputs depend on, nested ones
        included. A scan, scatter or checkpoint computed and then thrown away (a decoy beside the real
        work, which XLA deletes), or multiplied by zero, is not among them."""
        found: list[Any] = []

        def walk(jaxpr: Any) -> None:
            jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
            needed = {id(v) for v in jaxpr.outvars}
            zeros = _always_zero(jaxpr)
            for eqn in reversed(jaxpr.eqns):
                if not any(id(v) in needed for v in eqn.outvars) or id(eqn.outvars[0]) in zeros:
                    continue  # unused, or zero whatever its inputs are
                needed.update(id(v) for v in eqn.invars)
                if eqn.primitive.name in names:
                    found.append(eqn)
                for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                    walk(sub)

        walk(self.jaxpr)
        return found

    def wraps(self, *names: str) -> bool:
        """Whether one equation of these primitives takes the program's first input and returns its
        first output (seen through nested jit calls): the function *is* that call (say, a
        custom_jvp_call), not a decoy applied to some other value beside or around the real work."""

        def walk(jaxpr: Any, arg: Any, out: Any) -> bool:
            for eqn in jaxpr.eqns:
                ins = [i for i, v in enumerate(eqn.invars) if v is arg]
                outs = [i for i, v in enumerate(eqn.outvars) if v is out]
                if not ins or not outs:
                    continue
                if eqn.primitive.name in names:
                    return True
                sub = eqn.params.get("jaxpr")
                inner = getattr(sub, "jaxpr", sub)
                if (eqn.primitive.name in ("jit", "pjit") and inner is not None
                        and walk(inner, inner.invars[ins[0]], inner.outvars[outs[0]])):
                    return True
            return False

        jaxpr = getattr(self.jaxpr, "jaxpr", self.jaxpr)
        return bool(jaxpr.invars and jaxpr.outvars) and walk(jaxpr, jaxpr.invars[0], jaxpr.outvars[0])

    def transfers(self) -> list[tuple[tuple[int, ...], set[int] | None, set[int]]]:
        """Every explicit copy (device_put) in the program, in order, as (shape moved, ids of the
        devices it came from or None for host data, ids of the devices it went to). Traced with the
        arrays closed over (`program_of(lambda: f(a, b))`), it lists every copy the call makes, not
        only the first one a transfer guard would stop, and whatever guard the code sets itself."""
        found = []
        for eqn in self.find("device_put"):
            for var, source, target in zip(eqn.invars, eqn.params.get("srcs", ()), eqn.params.get("devices", ())):
                ids = lambda s: {d.id for d in s.device_set} if hasattr(s, "device_set") else (  # noqa: E731
                    {s.id} if hasattr(s, "id") else None)
                if target is None:
                    continue
                found.append((tuple(getattr(var.aval, "shape", ())), ids(source) if source is not None else None,
                              ids(target)))
        return found

    def host_constants(self, min_size: int = 2) -> list[tuple[int, ...]]:
        """Shapes of the NumPy arrays (not jax.Arrays) the program holds as constants, of at least
        `min_size` values: data computed on the host and baked into the program."""
        consts = getattr(self.jaxpr, "consts", ())
        return [tuple(np.shape(c)) for c in consts
                if not isinstance(c, jax.Array) and np.size(c) >= min_size]

    def largest_value(self) -> Any:
        """The abstract value (shape, dtype) of the biggest array any equation produces, loop bodies
        included (per iteration): what the program must hold in memory at once, at least."""
        avals = [v.aval for eqn in _all_eqns(self.jaxpr) for v in eqn.outvars if hasattr(v.aval, "shape")]
        return max(avals, key=lambda a: a.size * a.dtype.itemsize, default=None)

    def stored_per_step(self) -> list[StoredValue]:
        """What every forward scan (reverse=False) stacks per step, besides its carry.

        Traced under jax.grad, a scan's stacked outputs include the residuals
        its backward pass reads: one array per step (per layer, for a scan over
        layers) for each value saved instead of recomputed. jax.checkpoint and
        its policies decide which values these are.
        """
        stored: list[StoredValue] = []
        for eqn in self.find("scan"):
            if eqn.params.get("reverse"):
                continue
            body = eqn.params["jaxpr"].jaxpr
            seen: set[int] = set()
            for var in body.outvars[eqn.params["num_carry"]:]:
                if id(var) in seen:
                    continue
                seen.add(id(var))
                source, name = _origin(body, var)
                stored.append(StoredValue(tuple(var.aval.shape), str(var.aval.dtype), source, name))
        return stored


def program_of(fn: Callable, *args: Any, what: str | None = None, **kwargs: Any) -> Program:
    """The traced program of fn(*args, **kwargs), for the helpers below or a check's own questions."""
    __tracebackhide__ = True
    return Program(traced_jaxpr(fn, *args, what=what or getattr(fn, "__name__", "the function"), **kwargs))


# --- shared inputs stay shared -------------------------------------------------------------------


def _input_sources(jaxpr: Any, sources_in: list[frozenset[int]], found: list[tuple[Any, frozenset[int]]]) \
        -> list[frozenset[int]]:
    """Which program inputs each output of `jaxpr` is computed from, given the inputs of its own inputs;
    every equation result is added to `found` with its sources (call-like bodies seen through)."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    sources = {id(v): s for v, s in zip(jaxpr.invars, sources_in)}

    def of(var: Any) -> frozenset[int]:
        return frozenset() if isinstance(var, jax.extend.core.Literal) else sources.get(id(var), frozenset())

    for eqn in jaxpr.eqns:
        ins = [of(v) for v in eqn.invars]
        subs = list(jax.extend.core.jaxprs_in_params(eqn.params))
        body = getattr(subs[0], "jaxpr", subs[0]) if len(subs) == 1 else None
        if body is not None and len(body.invars) == len(ins) and len(body.outvars) == len(eqn.outvars) \
                and eqn.primitive.name not in ("scan", "while", "cond"):
            outs = _input_sources(body, ins, found)
        else:
            every = frozenset().union(*ins)
            outs = [every] * len(eqn.outvars)
        for var, source in zip(eqn.outvars, outs):
            sources[id(var)] = source
            found.append((var, source))
    return [of(v) for v in jaxpr.outvars]


def assert_no_stacked_copies(fn: Callable, *args: Any, shared: dict[str, str], copies: int, what: str,
                             hint: str = "", **kwargs: Any) -> Program:
    """No input that every example (member, device) shares is copied once per example in the program:
    an array computed from that input alone, `copies` times its size or more (a tile, a broadcast to
    the batch), is a stack of copies the mapped function should never need.

    vmap's in_axes=None hands the one value to every example; tiling it to the batch and mapping it
    gives the same numbers while building (and reading) a copy per example.

    Args:
      shared: the shared inputs, by their path in `args` as `jax.tree_util.keystr` writes it
        ("[0]['b']" for args[0]["b"], "[1]" for args[1]) -> how the message names them.
      copies: the number of examples.
    Scalars are not judged: jnp broadcasts a scalar operand to the other's shape in any program.
    Returns:
      The program, for further questions.
    """
    __tracebackhide__ = True
    program = program_of(fn, *args, what=what, **kwargs)
    leaves = jax.tree_util.tree_flatten_with_path(args)[0]
    names = {i: shared[jax.tree_util.keystr(path)] for i, (path, _) in enumerate(leaves)
             if jax.tree_util.keystr(path) in shared}
    sizes = {i: math.prod(np.shape(leaf)) for i, (_, leaf) in enumerate(leaves)}
    jaxpr = getattr(program.jaxpr, "jaxpr", program.jaxpr)
    found: list[tuple[Any, frozenset[int]]] = []
    _input_sources(jaxpr, [frozenset({i}) for i in range(len(jaxpr.invars))], found)
    for var, source in found:
        if len(source) != 1 or next(iter(source)) not in names:
            continue
        (index,) = source
        size = math.prod(getattr(var.aval, "shape", ()))
        if sizes[index] > 1 and size >= copies * sizes[index]:  # a scalar is broadcast by every jnp op
            fail(sentence(f"{what} builds {var.aval.str_short()} from {names[index]} alone: {copies} copies "
                          f"of a value every example shares, made before the mapped work. Mapping a "
                          f"stack of copies gives the same numbers as mapping nothing, at the cost of the "
                          f"copies: in_axes=None hands the one value to every example as it is.", hint,
                          f"See {DOCS}/automatic-vectorization.html"), "wrong-tool")
    return program


# --- loops ------------------------------------------------------------------------------------


def assert_not_unrolled(sizes: dict[int, int], *, what: str, hint: str = "") -> None:
    """The jaxpr has the same size whatever the trip count.

    Args:
      sizes: trip count -> jaxpr size, e.g. {10: 12, 1000: 12}.
    """
    __tracebackhide__ = True
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{n} steps -> {s} equations" for n, s in sorted(sizes.items()))
        fail(sentence(f"{what}: the traced program grows with the number of steps ({listed}). A Python "
                      f"loop over traced values is unrolled into the jaxpr, one copy of the body per step.",
                      hint, f"See {DOCS}/control-flow.html"), "unrolled")


def assert_loops_rolled(program: Program, *, what: str, max_unroll: int = 1, hint: str = "") -> None:
    """Every scan/fori_loop in the program runs its body as a loop, not `unroll=`-copied.

    Counting equations does not see `unroll=`: a scan unrolled 1000 times has a
    one-equation jaxpr but a program with 1000 copies of its body.
    """
    __tracebackhide__ = True
    for eqn in program.loops():
        unroll = eqn.params.get("unroll", 1)
        factor = eqn.params.get("length", 1) if unroll is True else int(unroll)
        if factor > max_unroll:
            fail(sentence(f"{what}: a {eqn.primitive.name} in the program is unrolled {factor} times "
                          f"(unroll={unroll!r}), so the compiled program holds {factor} copies of the "
                          f"loop body. A rolled loop keeps one copy whatever the trip count.",
                          hint, f"See {DOCS}/control-flow.html"), "unrolled")


def _counted_only(eqn: Any) -> bool:
    """Whether a while loop's condition reads only counters (a carry the body steps by a constant)
    and values the body passes through unchanged: a fixed number of trips, decided before it starts."""
    cond, body = eqn.params["cond_jaxpr"].jaxpr, eqn.params["body_jaxpr"].jaxpr
    cond_n, body_n = eqn.params["cond_nconsts"], eqn.params["body_nconsts"]
    producers = {id(out): e for e in cond.eqns for out in e.outvars}
    read: set[int] = set()
    pending = list(cond.outvars)
    while pending:
        var = pending.pop()
        if id(var) in producers:
            pending += [v for v in producers[id(var)].invars if not isinstance(v, jax.extend.core.Literal)]
        else:
            read.add(id(var))
    carried = [i for i, v in enumerate(cond.invars[cond_n:]) if id(v) in read]
    body_producers = {id(out): e for e in body.eqns for out in e.outvars}
    for i in carried:
        before, after = body.invars[body_n + i], body.outvars[i]
        if after is before:
            continue  # passed through: a bound fixed before the loop started
        step = body_producers.get(id(after))
        if step is not None and step.primitive.name in ("add", "sub") and before in step.invars and all(
                v is before or isinstance(v, jax.extend.core.Literal) or v in body.invars[:body_n]
                for v in step.invars):
            continue  # a counter: before plus a constant
        return False
    return True


def assert_loop_stops_on_data(program: Program, *, what: str, hint: str = "") -> None:
    """Some while loop in the program decides when to stop from the values it computes, not only
    from a counter against a bound fixed before it started (a fori_loop with a traced but
    data-independent bound, `100 + 0 * tol`, runs every trip and masks the late ones)."""
    __tracebackhide__ = True
    loops = [eqn for eqn in program.live("while")]
    if loops and all(_counted_only(eqn) for eqn in loops):
        fail(sentence(f"{what}: its while loop stops on a step count alone (its condition reads a counter "
                      f"and a bound fixed before the loop started), so it runs the same number of trips "
                      f"whatever the values: a fori_loop in a while_loop's clothing, with the late steps "
                      f"masked out. The condition must test what the loop computes.", hint,
                      f"See {DOCS}/_autosummary/jax.lax.while_loop.html"), "wrong-tool")


def assert_not_unrolled_over_batch(fn: Callable, make_args: Callable[[int], tuple], batch_sizes: tuple[int, ...],
                                   *, what: str, hint: str = "") -> None:
    """Tracing `fn(*make_args(b))` gives a program of the same size for every batch size `b`.

    A Python loop or comprehension over the examples is unrolled into one copy of
    the per-example work per example; `jax.vmap` (or batched jnp code) traces to
    the same program whatever the batch size.
    """
    __tracebackhide__ = True
    sizes = {b: jaxpr_size(fn, *make_args(b)) for b in batch_sizes}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"batch {b} -> {s} equations" for b, s in sorted(sizes.items()))
        fail(sentence(f"{what}: the traced program grows with the batch size ({listed}). A Python loop or "
                      f"comprehension over the examples is unrolled, one copy of the work per example; "
                      f"a mapped function traces to the same program whatever the batch size.",
                      hint, f"See {DOCS}/automatic-vectorization.html"), "unrolled")


# --- the tool the task names ------------------------------------------------------------------


def assert_uses(program: Program, primitives: set[str] | frozenset[str], *, what: str, tool: str,
                hint: str = "") -> None:
    """The program's outputs depend on one of `primitives`: the tool the task names did the work.

    A call whose result is thrown away (a decoy beside the real work, which XLA
    deletes) does not count (`Program.live`).

    Args:
      tool: how the learner spells it, e.g. "lax.scan".
    """
    __tracebackhide__ = True
    found = set(program.primitives())
    if not found & set(primitives):
        fail(sentence(f"{what} does not use {tool}: its program has no {' or '.join(sorted(primitives))} "
                      f"(it holds {', '.join(sorted(found)) or 'nothing'}). The task is about {tool}; "
                      f"the same numbers computed another way do not practise it.", hint), "wrong-tool")
    if not program.live(*primitives):
        fail(sentence(f"{what} calls {tool}, but nothing it returns depends on that call: its result "
                      f"is thrown away (XLA deletes it) and the values come from other work. The task "
                      f"is about {tool} producing the result.", hint), "wrong-tool")


def assert_not_uses(program: Program, primitives: set[str] | frozenset[str], *, what: str, why: str,
                    code: str = "wrong-tool") -> None:
    """The program contains none of `primitives` (e.g. host callbacks, a cumsum that replaces a scan)."""
    __tracebackhide__ = True
    found = sorted(set(program.primitives()) & set(primitives))
    if found:
        fail(sentence(f"{what}: its program contains {', '.join(found)}.", why), code)


def assert_no_callbacks(program: Program, *, what: str) -> None:
    """No host callback (`pure_callback`, `io_callback`) does the work behind JAX's back."""
    __tracebackhide__ = True
    assert_not_uses(program, CALLBACKS, what=what, code="host-transfer",
                    why="A host callback runs Python/NumPy on the CPU host in the middle of the "
                        "program: the work is not done by JAX at all. Write it with jax.numpy/lax.")


# --- where the work ran ---------------------------------------------------------------------------


def assert_runs_on_devices(fn: Callable, *args: Any, what: str, n_devices: int | None = None,
                           work: tuple[str, ...] = (), split: tuple[tuple[int, ...], ...] = (),
                           collectives: tuple[str, ...] = (), no_collectives: tuple[str, ...] | bool = (),
                           no_gather: tuple[tuple[int, ...], ...] | None = None, hint: str = "",
                           **kwargs: Any) -> Program:
    """The work of fn(*args) runs per device, inside a shard_map (or pmap), not before or after it.

    Placement of a result proves nothing about where it was computed: a result
    computed on one device and moved with `device_put` lands in the same place.
    This reads the program. A host callback anywhere in it fails: that work ran
    on no device.

    Args:
      n_devices: how many devices the mapped part must span (default: all).
      work: primitives that must run inside the per-device part and nowhere
        else, e.g. ("conv_general_dilated",).
      split: global shapes of arrays each device must see only its share of
        (a device given the whole batch is not data parallel).
      collectives: collectives that must appear in the per-device part (any one of them), with
        the outputs depending on one (a collective whose result is thrown away does not count).
      no_collectives: collectives that must not appear (True: none at all).
      no_gather: global shapes of split inputs that no device may collect back whole inside the
        per-device program (a device that gathers the whole batch computes on all of it): an
        all_gather of the input's block, or any collective whose result is as large as the whole
        input (a psum of one-hot-placed blocks). Default: the `split` shapes; pass () to allow it
        (e.g. weights gathered on purpose).
    Returns:
      The program, for further questions.
    """
    __tracebackhide__ = True
    n = n_devices or jax.device_count()
    program = program_of(fn, *args, what=what, **kwargs)
    assert_no_callbacks(program, what=what)  # work done on the host ran on no device
    calls = program.mapped_calls()
    if not calls:
        top = getattr(program.jaxpr, "jaxpr", program.jaxpr)
        results = {id(v) for v in top.outvars}
        moved_after = any(eqn.primitive.name == "device_put" and any(id(v) in results for v in eqn.outvars)
                          for eqn in top.eqns)
        if not moved_after and program.has("device_put", "sharding_constraint", "reshard"):
            # The data was given a sharding and jit's compiler split the work: on the devices, but
            # with no per-device program written.
            fail(sentence(f"{what} has no pmap or shard_map: the data was given a sharding and jit left "
                          f"it to the compiler to split the work. The task asks for the per-device "
                          f"program itself.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-tool")
        moved = " The result was moved into place afterwards by device_put." if moved_after else ""
        fail(sentence(f"{what} ran on one device: its program has no pmap or shard_map, so one device "
                      f"computed everything.{moved} Put the work, not just the result, on the devices.",
                      hint, f"See {SHARD_MAP_DOCS}"), "not-distributed")
    wide = [c for c in calls if c.n_devices == n]
    if not wide:
        sizes = sorted({c.n_devices for c in calls})
        fail(sentence(f"{what} maps its work over {sizes} device(s); expected all {n}. The number of "
                      f"devices comes from jax.device_count() (or the mesh you are given), never a "
                      f"fixed number.", hint), "device-count")
    outside = set(program.outside_mapped())
    inside = {p for c in wide for p in c.primitives()}
    for name in work:
        if name not in inside:
            fail(sentence(f"{what}: the {name} work does not run inside the per-device program; "
                          f"each device should do its own share of it.", hint,
                          f"See {SHARD_MAP_DOCS}"), "not-distributed")
        if name in outside:
            fail(sentence(f"{what}: {name} also runs outside the per-device program, on the whole "
                          f"array: that part of the work is not spread over the devices.", hint),
                 "not-distributed")
    for shape in split:
        entering = [(g, d) for c in wide for g, d in c.inputs if g == tuple(shape)]
        whole = [d for g, d in entering if math.prod(d) * n != math.prod(g)]
        if not entering or whole:
            per = whole[0] if whole else None
            fail(sentence(f"{what}: the shape-{tuple(shape)} input "
                          + (f"reaches every device whole (each device sees shape {per})"
                             if per is not None else "does not enter the per-device program split")
                          + f"; expected each of the {n} devices to get its own 1/{n} of it, so each "
                            f"computes on its shard only.", hint, f"See {SHARD_MAP_DOCS}"), "not-distributed")
    for shape in (split if no_gather is None else no_gather):
        whole = math.prod(shape)
        big = sorted({e.primitive.name for c in wide for e in _all_eqns(c.body) if e.primitive.name in COLLECTIVES
                      and any(math.prod(getattr(v.aval, "shape", ())) >= whole for v in e.outvars)})
        gathered = any(tuple(shape) in c.gathered_inputs() for c in wide)
        if gathered or big:
            how = ("all-gathers the shape-{} input back whole".format(tuple(shape)) if gathered else
                   f"collects as much data as the whole shape-{tuple(shape)} input (its {big[0]} returns "
                   f"that many values)")
            fail(sentence(f"{what}: the per-device program {how}, so every device computes on all of "
                          f"it: the work is repeated on each of "
                          f"the {n} devices instead of split between them. Each device should compute on "
                          f"its own block and combine only results.", hint, f"See {SHARD_MAP_DOCS}"),
                 "not-distributed")
    used = {p for p in inside if p in COLLECTIVES}
    if collectives and not used & set(collectives):
        fail(sentence(f"{what}: the per-device program uses {sorted(used) or 'no collective'}; expected "
                      f"{' or '.join(collectives)} to combine the devices' results.", hint,
                      f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    if collectives and not program.live(*collectives):
        fail(sentence(f"{what}: the per-device program calls {' or '.join(sorted(used & set(collectives)))}, "
                      f"but nothing it returns depends on that call: its result is thrown away and the "
                      f"values come from other work. The devices' results should be combined by the "
                      f"collective.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    banned = used if no_collectives is True else used & set(no_collectives or ())
    if banned:
        fail(sentence(f"{what}: the per-device program uses {', '.join(sorted(banned))}, which this "
                      f"task avoids.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    return program


@dataclass
class CompiledProgram:
    """The optimised, partitioned HLO of a jitted call: what each device actually runs."""

    text: str
    executable: Any = None  # the jax Compiled object: call it, or read its memory_analysis()

    def memory(self) -> Any:
        """XLA's memory analysis of the compiled program (bytes): .temp_size_in_bytes (intermediates
        live during the run), .argument_size_in_bytes, .output_size_in_bytes, .alias_size_in_bytes."""
        return self.executable.memory_analysis()

    def collectives(self) -> Counter:
        """HLO collective ops (all-reduce, all-gather, collective-permute, ...) and how many of each."""
        found = Counter()
        for line in self.text.splitlines():
            # The op name follows the result type, which may be a tuple with spaces inside
            # ("(f32[2,1], f32[2,1]) all-to-all(...)"): match the op by what surrounds it.
            match = re.search(r"=.*?[\s)}](" + "|".join(HLO_COLLECTIVES) + r")(-start)?\(", line)
            if match:
                found[match.group(1)] += 1
        return found

    def collective_shapes(self) -> list[tuple[str, tuple[int, ...]]]:
        """(op, per-device result shape) of each HLO collective, e.g. ("all-gather", (8, 16)): what
        was gathered or reduced, so a check can tell an operand gathered whole from a small result."""
        found = []
        for line in self.text.splitlines():
            match = re.search(r"=\s*\w+\[([0-9,]*)\][^\s]*\s+(" + "|".join(HLO_COLLECTIVES) + r")(-start)?\(", line)
            if match:
                found.append((match.group(2), tuple(int(d) for d in match.group(1).split(",") if d)))
        return found

    def received(self) -> list[tuple[str, tuple[int, ...], float]]:
        """What each device receives through collectives while the program runs, as (op, per-device
        result shape, bytes received), loop bodies counted once per trip (a loop whose trip count XLA
        does not know counts 1000 trips): the measure of how much data the devices exchange,
        whatever collectives, reshards or hand-made rings moved it."""
        computations, entry = _hlo_computations(self.text)
        default_group = int(m.group(1)) if (m := re.search(r"num_partitions=(\d+)", self.text)) else 1
        memo: dict[str, list[tuple[str, tuple[int, ...], float]]] = {}

        def of(name: str, depth: int = 0) -> list[tuple[str, tuple[int, ...], float]]:
            if name in memo or depth > 50:
                return memo.get(name, [])
            found: list[tuple[str, tuple[int, ...], float]] = []
            for line in computations.get(name, []):
                op = re.search(r"=\s*(\(.*?\)|\w+\[[0-9,]*\]\S*)\s+(" + "|".join(HLO_COLLECTIVES)
                               + r")(-start)?\(", line)
                if op:
                    shapes = re.findall(r"(\w+)\[([0-9,]*)\]", op.group(1))
                    dtype, dims = shapes[-1]
                    shape = tuple(int(d) for d in dims.split(",") if d)
                    size = math.prod(shape) * _HLO_BYTES.get(dtype, 4)
                    group = _group_size(line) or default_group
                    share = {"collective-permute": 1.0, "reduce-scatter": group - 1.0}.get(op.group(2),
                                                                                          (group - 1) / group)
                    found.append((op.group(2), shape, size * share))
                trips = 1
                if " while(" in line:
                    count = re.search(r'"known_trip_count":\{"n":"(\d+)"\}', line)
                    trips = int(count.group(1)) if count else 1000
                branches = re.search(r"branch_computations=\{([^}]*)\}", line)
                if branches:
                    options = [of(b.strip().lstrip("%"), depth + 1) for b in branches.group(1).split(",")]
                    found += max(options, key=lambda got: sum(b for _, _, b in got), default=[])
                for callee in re.findall(r"(?:calls|to_apply|body)=%([\w.\-]+)", line):
                    found += [(o, s, b * trips) for o, s, b in of(callee, depth + 1)]
            memo[name] = found
            return found

        return of(entry) if entry else []

    def parameter_shapes(self) -> list[tuple[int, ...]]:
        """Per-device shapes of the entry computation's parameters."""
        entry = self.text[self.text.find("ENTRY"):]
        shapes = []
        for match in re.finditer(r"=\s*\w+\[([0-9,]*)\][^\n]*?parameter\((\d+)\)", entry.split("\n}\n")[0]):
            shapes.append((int(match.group(2)), tuple(int(d) for d in match.group(1).split(",") if d)))
        return [shape for _, shape in sorted(shapes)]


_HLO_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
              "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}


def _hlo_computations(text: str) -> tuple[dict[str, list[str]], str | None]:
    """The HLO module's computations by name (their instruction lines), and the entry's name."""
    computations: dict[str, list[str]] = {}
    entry, current = None, None
    for line in text.splitlines():
        head = re.match(r"^(ENTRY )?%([\w.\-]+) \(.*\{\s*$", line)
        if head:
            current = head.group(2)
            computations[current] = []
            entry = current if head.group(1) else entry
        elif line.startswith("}"):
            current = None
        elif current is not None:
            computations[current].append(line)
    return computations, entry


def _group_size(line: str) -> int | None:
    """How many devices one group of this collective spans, from its replica_groups."""
    listed = re.search(r"replica_groups=\{\{([0-9,]*)\}", line)
    if listed:
        return len(listed.group(1).split(","))
    iota = re.search(r"replica_groups=\[([0-9,]+)\]<=", line)
    if iota:
        return int(iota.group(1).split(",")[-1])
    mesh = re.search(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}", line)
    if mesh:
        sizes = dict(re.findall(r"'(\w+)'=(\d+)", mesh.group(1)))
        return math.prod(int(sizes.get(axis.strip().strip("'"), 1)) for axis in mesh.group(2).split(","))
    return None


def assert_receives_at_most(fn: Callable, *args: Any, limit: float, what: str, allowed: str,
                            hint: str = "", **kwargs: Any) -> CompiledProgram:
    """Each device receives at most `limit` bytes through collectives while fn(*args) runs.

    A spelling-based check ("no all_gather") misses a gather built another way:
    n-1 ppermutes, a psum of one-hot-placed blocks, a reshard to replicated
    beside a decoy collective, a gather under a transposed shape. The bytes each
    device receives count them all: read from the compiled, partitioned program.

    Args:
      limit: bytes per device, e.g. one block of the input.
      allowed: what the task lets a device receive, for the message, e.g. "one block (24 bytes)".
    """
    __tracebackhide__ = True
    program = compiled_program(fn, *args, what=what, **kwargs)
    received = program.received()
    total = sum(b for _, _, b in received)
    if total > limit:
        biggest = sorted(received, key=lambda r: -r[2])[:3]
        listed = ", ".join(f"{op} of {list(shape)} ({b:.0f} bytes)" for op, shape, b in biggest)
        fail(sentence(f"{what}: each device receives about {total:.0f} bytes from the others while it "
                      f"runs ({listed}); the task needs at most {allowed}. The whole array (or most of "
                      f"it) is being collected on every device, whatever the collective that does it.",
                      hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    return program


def compiled_program(fn: Callable, *args: Any, what: str, **kwargs: Any) -> CompiledProgram:
    """Lower and compile fn(*args) with the arguments' shardings; the per-device HLO."""
    __tracebackhide__ = True
    try:
        compiled = jax.jit(lambda *a: fn(*a, **kwargs)).lower(*args).compile()
    except KataFailure:
        raise
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError):
        traced_jaxpr(fn, *args, what=what, **kwargs)  # fails with the lesson for the error
        raise
    return CompiledProgram(compiled.as_text(), compiled)


def per_device_shape(shape: tuple[int, ...], spec: Any, mesh: Any) -> tuple[int, ...]:
    """The shard shape of a global `shape` laid out as `spec` over `mesh` (for messages and checks)."""
    from jax.sharding import NamedSharding

    return tuple(NamedSharding(mesh, spec).shard_shape(tuple(shape)))
