"""What a function's program does: its jaxpr, its per-device parts, the tools it uses.

Values can be produced in many ways; the program shows which. These helpers
read the traced jaxpr (nested jaxprs included), so a check can prove which
tool did the work. Loops are judged in `loops`, the compiled, partitioned
program in `compiled`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.checks import executables
from grader.checks.core import DOCS, KataFailure, fail, sentence
from grader.checks.dataflow import CALLS, MOVES, always_zero, grown_tables, reaches_otherwise, takes_inputs
from grader.checks.nudges import (computed_twice, loops_copying, outputs_follow, outputs_follow_constants, outputs_follow_each,
                                  still_while_outputs_move, unmoved_by_inputs)
from grader.checks.values import assert_close

MAPPED = ("shard_map", "xla_pmap")
COLLECTIVES = frozenset({"psum", "psum_invariant", "pmax", "pmin", "ppermute", "all_gather",
                         "all_gather_invariant", "all_to_all", "psum_scatter", "reduce_scatter"})
CALLBACKS = frozenset({"pure_callback", "io_callback", "buffer_callback"})  # Python run on the host, mid-program
SHARD_MAP_DOCS = f"{DOCS}/notebooks/shard_map.html"


def all_eqns(jaxpr: Any) -> Iterator[Any]:
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from all_eqns(sub)


def traced_jaxpr(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """`jax.make_jaxpr` of fn(*args, **kwargs); a failure to trace becomes the lesson for that error."""
    __tracebackhide__ = True
    try:
        return jax.make_jaxpr(lambda *a: fn(*a, **kwargs))(*args)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError) as error:
        from grader.runtime.explain import explain

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
        return [eqn.primitive.name for eqn in all_eqns(self.body)]

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

# Compiled runners of the programs checks read, by program text and constant types (`Program.values`).
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _origin(jaxpr: Any, var: Any, name: str | None = None) -> tuple[str | int, str | None]:
    """The primitive that computes `var` in `jaxpr` (seeing through checkpoint_name, copies and calls
    such as a jitted helper), and its name; the position of a jaxpr input it is (else "constant")."""
    producers = {id(out): eqn for eqn in jaxpr.eqns for out in eqn.outvars}
    while id(var) in producers:
        eqn = producers[id(var)]
        if eqn.primitive.name in CALLS and eqn.primitive.name != "shard_map":
            body = getattr(eqn.params[CALLS[eqn.primitive.name]], "jaxpr", eqn.params[CALLS[eqn.primitive.name]])
            source, name = _origin(body, body.outvars[[id(v) for v in eqn.outvars].index(id(var))], name)
            if not isinstance(source, int):
                return source, name
            var = eqn.invars[source]
            continue
        if eqn.primitive.name == "name":
            name = name or eqn.params.get("name")
        elif eqn.primitive.name not in _PASS_THROUGH:
            return eqn.primitive.name, name
        var = eqn.invars[0]
    at = [id(v) for v in jaxpr.invars]
    return (at.index(id(var)) if id(var) in at else "constant"), name


def _size(eqn: Any) -> int:
    return sum(math.prod(v.aval.shape) for v in eqn.outvars if hasattr(v.aval, "shape"))


def weighed(jaxpr: Any, weight: Callable[[Any], int], times: int = 1) -> int:
    """The sum of `weight(eqn)` over every equation, nested ones included, a scan's body once per step."""
    total = 0
    for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
        total += times * weight(eqn)
        inner = times * int(eqn.params["length"]) if eqn.primitive.name == "scan" else times
        total += sum(weighed(sub, weight, inner) for sub in jax.extend.core.jaxprs_in_params(eqn.params))
    return total


@dataclass
class Program:
    """A traced program: `program_of(fn, *args)`.

    `inputs` are the concrete values it was traced with (flattened), `out_tree` the structure of
    what it returns; both are empty for a program made from a bare jaxpr (`Program(jaxpr)`).
    """

    jaxpr: Any
    inputs: tuple = ()
    out_tree: Any = None

    def values(self) -> Any:
        """What the program computes on the inputs it was traced with, computed where the check
        runs, by JAX there: under the grader the examiner runs the program the subject traced,
        so the values are the examiner's own, never the subject's word."""
        if self.out_tree is None or any(isinstance(leaf, jax.ShapeDtypeStruct) for leaf in self.inputs):
            raise TypeError("Program.values() needs a program traced by program_of with concrete inputs")
        closed = self.jaxpr
        said = executables.describe(closed)
        if any(isinstance(c, jax.Array) for c in closed.consts):
            # Arrays the program closed over keep their devices as constants (as arguments, arrays on
            # different devices could not enter one program).
            outs, _ = executables.run(jax.extend.core.jaxpr_as_fun(closed), tuple(self.inputs),
                                      None if said is None else ("values, constants inside", said.text, said.constants))
            return jax.tree.unflatten(self.out_tree, outs)
        outs, _ = executables.run(lambda consts, args: jax.extend.core.jaxpr_as_fun(
            jax.extend.core.ClosedJaxpr(closed.jaxpr, consts))(*args), (list(closed.consts), list(self.inputs)),
            None if said is None else ("values", said.text))
        return jax.tree.unflatten(self.out_tree, outs)

    def text(self) -> str:
        """The program as text, object addresses masked: two traces of one computation read the same."""
        return _ADDRESS.sub("0x?", str(getattr(self.jaxpr, "jaxpr", self.jaxpr)))

    def same_as(self, other: Program) -> bool:
        """Whether `other` is this program: the same equations, literals and constants. JAX compiles
        one program for both (given the same function object); any difference is a new program."""
        mine, theirs = getattr(self.jaxpr, "consts", ()), getattr(other.jaxpr, "consts", ())
        return self.text() == other.text() and len(mine) == len(theirs) and all(
            np.shape(a) == np.shape(b) and np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
            for a, b in zip(mine, theirs))

    def primitives(self) -> list[str]:
        return [eqn.primitive.name for eqn in all_eqns(self.jaxpr)]

    def has(self, *names: str) -> bool:
        return bool(set(names) & set(self.primitives()))

    def mapped_calls(self) -> list[MappedCall]:
        return [MappedCall(eqn) for eqn in all_eqns(self.jaxpr) if eqn.primitive.name in MAPPED]

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
        return [eqn for eqn in all_eqns(self.jaxpr) if eqn.primitive.name in ("scan", "while")]

    def find(self, *names: str) -> list[Any]:
        """The equations of these primitives (e.g. "remat2", "custom_jvp_call"), nested ones included."""
        return [eqn for eqn in all_eqns(self.jaxpr) if eqn.primitive.name in names]

    def live(self, *names: str) -> list[Any]:
        """The equations of these primitives whose results the program's outputs depend on, nested ones
        included. Not among them: one thrown away (XLA deletes it) or multiplied by zero; in a program
        traced with concrete inputs, one whose results the outputs do not follow (run with its results
        nudged, the program returns the same values: `+ jnp.minimum(decoy, 0)` of a decoy never
        negative, a `where` that always picks the other side); a loop whose step only hands on what it
        is given (carry or element, unchanged); a loop whose followed results stay as they are when the
        inputs move (keys too) while the outputs move (a carry from 0, multiplied each step)."""
        found = self._linked(names)
        if found and self.out_tree is not None and self.inputs is not None and not any(
                isinstance(leaf, jax.ShapeDtypeStruct) for leaf in self.inputs):
            def before() -> list:
                return jax.tree.leaves(self.values())

            if len(found) <= 4:
                follows = outputs_follow_each(self.jaxpr, self.inputs, before, [({id(eqn)}, None) for eqn in found])
                found = [eqn for eqn, followed in zip(found, follows) if followed]
            elif not outputs_follow(self.jaxpr, self.inputs, before, {id(eqn) for eqn in found}):  # one run for all
                found = []
            # A loop whose step only hands on what it was given (`carry + 0 * x`, the finished result
            # of work done beside it) is on the outputs' path, but loops over nothing.
            loops = [eqn for eqn in found if eqn.primitive.name in ("scan", "while")]
            if loops:
                copying = loops_copying(self.jaxpr, self.inputs, loops, before)
                found = [eqn for eqn in found if id(eqn) not in copying]
                # A loop kept at a value nothing moves (a carry from 0, multiplied each step) while
                # the outputs move with the inputs: a decoy beside the work, however it is folded in.
                kept = [eqn for eqn in found if eqn.primitive.name in ("scan", "while")]
                still = {id(eqn) for eqn in still_while_outputs_move(self.jaxpr, self.inputs, kept, before)}
                found = [eqn for eqn in found if id(eqn) not in still]
        return found

    def follows_constants(self, picked: Callable[[np.ndarray], Any],
                          expected: Callable[[list[np.ndarray]], list] | None = None) -> bool | None:
        """Whether the outputs follow the data the check handed the function, closed over by the trace
        (`program_of(lambda: fn(data))`): run again where the check runs, with the constants that
        `picked` chooses nudged (as `live` nudges results; a boolean mask from `picked` nudges only
        those elements), they move, and with `expected` (the nudged constants -> the outputs' leaves)
        they come out as the task's computation on the nudged data would. None when the program holds
        no such constant: the host computed with the data before JAX saw it. An answer that keeps the
        data only as a decoy (`host_result + 0 * jnp.sum(data)`) gives the same values, and fails; one
        that adds a term zero on the data (`host_result + jnp.sum(data) - host_sum`) fails `expected`."""
        return outputs_follow_constants(self.jaxpr, self.inputs, lambda: jax.tree.leaves(self.values()), picked,
                                        expected)

    def _linked(self, names: tuple[str, ...]) -> list[Any]:
        """`live`'s equations by the program's dataflow alone."""
        found: list[Any] = []

        def walk(jaxpr: Any) -> None:
            jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
            needed = {id(v) for v in jaxpr.outvars}
            zeros = always_zero(jaxpr)
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
        first output (seen through nested jit calls), and the input reaches that equation by no other
        way: the function *is* that call (say, a custom_jvp_call), not a decoy applied to some other
        value beside or around the real work, nor a pass-through handed the result computed outside it
        (`rule(x, result_of(x))`)."""

        def walk(jaxpr: Any, arg: Any, out: Any) -> bool:
            for eqn in jaxpr.eqns:
                ins = [i for i, v in enumerate(eqn.invars) if v is arg]
                outs = [i for i, v in enumerate(eqn.outvars) if v is out]
                if not ins or not outs:
                    continue
                if eqn.primitive.name in names:
                    return not reaches_otherwise(jaxpr, arg, eqn)
                sub = eqn.params.get("jaxpr")
                inner = getattr(sub, "jaxpr", sub)
                if (eqn.primitive.name in ("jit", "pjit") and inner is not None
                        and walk(inner, inner.invars[ins[0]], inner.outvars[outs[0]])):
                    return True
            return False

        jaxpr = getattr(self.jaxpr, "jaxpr", self.jaxpr)
        return bool(jaxpr.invars and jaxpr.outvars) and walk(jaxpr, jaxpr.invars[0], jaxpr.outvars[0])

    def applies_to_inputs(self, names: set[str] | frozenset[str], inputs: tuple[int, ...]) -> bool:
        """Whether an equation of these primitives, one the outputs follow (`live`), takes each of the
        program's `inputs` (by position) as an operand as it came in: moved, reshaped, cast or
        resharded on the way, never computed with. The tool then does the work on the data, not a
        pass of its own over results computed beside it (a 1-tap identity convolution, say)."""
        return takes_inputs(self.jaxpr, {id(eqn) for eqn in self.live(*names)}, inputs)

    def computed_twice(self) -> list[tuple[str, str]]:
        """(first, again): primitives of equations whose results the program computes a second time,
        however spelled (`x1 * x2 ** -1` after `x1 / x2`); see nudges.computed_twice."""
        pairs = computed_twice(self.jaxpr, self.inputs, frozenset(MOVES | {*_PASS_THROUGH, "convert_element_type"}))
        return [(a.primitive.name, b.primitive.name) for a, b in pairs]

    def input_free_work(self, min_size: int) -> list[str]:
        """The primitives of equations that build an array of at least `min_size` values out of smaller
        inputs, constants and literals, and whose values no input moves (nudged, the program's inputs
        leave them as they are): work that depends on the shape only, redone at run time (or folded
        by XLA), however an input is threaded through it in name."""
        grown = grown_tables(self.jaxpr, min_size)
        return [eqn.primitive.name for eqn in unmoved_by_inputs(self.jaxpr, self.inputs, grown)] if grown else []

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
        """Shapes of the NumPy arrays (not jax.Arrays) the program and its nested programs hold as constants,
        of at least `min_size` values: data computed on the host and baked into the program."""
        consts = [*getattr(self.jaxpr, "consts", ()), *(c for eqn in all_eqns(self.jaxpr) for sub in
                                                         jax.extend.core.jaxprs_in_params(eqn.params) for c in getattr(sub, "consts", ()))]
        return [tuple(np.shape(c)) for c in consts
                if not isinstance(c, jax.Array) and np.size(c) >= min_size]

    def times(self, *names: str, elements: bool = False) -> int:
        """How many times equations of these primitives run: nested jaxprs included, a scan's body once
        per step (lax.map too), a while loop's body once (its trip count is not in the program).
        `elements`: the values they compute instead, so that runs batched by vmap count too."""
        return weighed(self.jaxpr, lambda eqn: (_size(eqn) if elements else 1) if eqn.primitive.name in names else 0)

    def work(self) -> int:
        """Elements of every array the program creates, counted as `times` counts runs: what its
        passes cost, at once (vmap) or one after another (a Python loop, lax.map). Ask `has("while")` first."""
        return weighed(self.jaxpr, _size)

    def largest_value(self) -> Any:
        """The abstract value (shape, dtype) of the biggest array any equation produces, loop bodies
        included (per iteration): what the program must hold in memory at once, at least."""
        avals = [v.aval for eqn in all_eqns(self.jaxpr) for v in eqn.outvars if hasattr(v.aval, "shape")]
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
                stored.append(StoredValue(tuple(var.aval.shape), str(var.aval.dtype),
                                          "input" if isinstance(source, int) else source, name))
        return stored


def program_of(fn: Callable, *args: Any, what: str | None = None, **kwargs: Any) -> Program:
    """The traced program of fn(*args, **kwargs), for the helpers below or a check's own questions.

    With concrete args, `assert_computes` can tie what the check reads in the program to what
    the task asks it to compute."""
    __tracebackhide__ = True
    out_tree = []

    def flat(*a: Any) -> list:  # the output's structure, without unflattening it around abstract values
        leaves, tree = jax.tree.flatten(fn(*a, **kwargs))
        out_tree.append(tree)
        return leaves

    jaxpr = traced_jaxpr(flat, *args, what=what or getattr(fn, "__name__", "the function"))
    return Program(jaxpr, tuple(jax.tree.leaves(args)), out_tree[-1])


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
        fail(sentence(f"{what} calls {tool}, but what it returns does not follow that call: its result "
                      f"is thrown away (XLA deletes it), or folded in where it can never change the values, "
                      f"or the call only hands on values computed beside it, and the values come from other "
                      f"work. The task is about {tool} producing the result.", hint), "wrong-tool")


def assert_not_uses(program: Program, primitives: set[str] | frozenset[str], *, what: str, why: str,
                    code: str = "wrong-tool") -> None:
    """The program contains none of `primitives` (e.g. host callbacks, a cumsum that replaces a scan)."""
    __tracebackhide__ = True
    found = sorted(set(program.primitives()) & set(primitives))
    if found:
        fail(sentence(f"{what}: its program contains {', '.join(found)}.", why), code)


def assert_real_valued(program: Program, *, what: str, why: str = "") -> None:
    """No equation of the program makes a complex value, where the task computes with real numbers: a
    derivative taken by the complex step (the imaginary part of f(x + ih) / h) is a numerical derivative,
    as exact as float rounding, not one JAX's autodiff took."""
    __tracebackhide__ = True
    found = sorted({str(v.aval.dtype) for eqn in all_eqns(program.jaxpr) for v in eqn.outvars
                    if getattr(getattr(v, "aval", None), "dtype", None) is not None
                    and jax.numpy.issubdtype(v.aval.dtype, jax.numpy.complexfloating)})
    if found:
        fail(sentence(f"{what} computes with complex numbers ({', '.join(found)}) where everything is real: "
                      f"the complex step, the imaginary part of f(x + ih) / h, is a numerical derivative "
                      f"(finite differences without the subtraction), not one JAX's autodiff takes from f's "
                      f"program.", why), "wrong-tool")


def assert_computes(program: Program, expected: Any, *, what: str, rtol: float = 1e-5, atol: float = 1e-6,
                    hint: str = "", effects: bool = False) -> None:
    """The program a check reads computes the values the task asks for, on the inputs it was traced
    with, run where the check runs (under the grader: by the examiner, from the program alone).

    What a check reads in a program (its scan, its collective) then belongs to the program that
    does the work: a program with the right tool whose values come from elsewhere fails here.
    Host callbacks are refused first, since their values are computed outside the program; with
    `effects`, only those whose results the outputs depend on (a callback that prints is the task).
    """
    __tracebackhide__ = True
    if not effects:
        assert_no_callbacks(program, what=what)
    elif program.live(*CALLBACKS):
        fed = ", ".join(sorted({eqn.primitive.name for eqn in program.live(*CALLBACKS)}))
        fail(f"{what} computes its result through a host callback ({fed}): Python on the host does the "
             f"work in the middle of the program. A callback may show a value; the value itself must be "
             f"computed by JAX.", "host-transfer")
    try:
        assert_close(program.values(), expected, what=f"the program traced for {what}", rtol=rtol, atol=atol,
                     hint=sentence(hint, _TRACE_TIME_CAUSE))
    except KataFailure as failure:
        fail(failure.message, "program-differs")


# Why a program can compute other values than the same function called eagerly, said only as a condition.
_TRACE_TIME_CAUSE = ("If calling it gives the right values, its program differs from the call: a traced "
                     "program holds what the function read while it was traced (a global, a NumPy "
                     "random draw, a Python value) as a constant, and nothing it does outside JAX.")


def assert_no_callbacks(program: Program, *, what: str) -> None:
    """No host callback (`pure_callback`, `io_callback`, `buffer_callback`) does the work behind JAX's back,
    and no part of the program is computed on the host (`compute_on("device_host")`)."""
    __tracebackhide__ = True
    assert_not_uses(program, CALLBACKS, what=what, code="host-transfer", why="A host callback runs Python/NumPy on the "
                    "CPU host in the middle of the program: the work is not done by JAX at all. Write it with jax.numpy/lax.")
    if on_host := sorted({e.primitive.name for e in all_eqns(program.jaxpr) if e.ctx.compute_type == "device_host"}):
        fail(f"{what}: part of its program is computed on the host ({', '.join(on_host[:4])} under compute_on('device_host'"
             f")): the values go to host memory and back mid-program, a round trip through the host however it is "
             f"spelled. Compute it on the devices. See {DOCS}/notebooks/host-offloading.html", "host-transfer")
