"""Loops in a program: rolled, stopping on data, not unrolled over a batch; shared inputs not tiled
per example."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.checks.core import DOCS, fail, sentence
from grader.checks.dataflow import handed_on
from grader.checks.jitted import assert_called_as_traced
from grader.checks.nudges import values_before_and_nudged, values_of, values_over, while_trips
from grader.checks.programs import Program, assert_computes, program_of


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
    mixed: dict[int, tuple[Any, int]] = {}  # built from a shared input and others: judged by its values
    for var, source in found:
        size = math.prod(getattr(var.aval, "shape", ()))
        for index in source & names.keys():
            if sizes[index] <= 1 or size < copies * sizes[index]:  # a scalar is broadcast by every jnp op
                continue
            if len(source) == 1:
                _stacked(what, var, names[index], copies, hint, "alone")
            elif _could_stack(var.aval.shape, np.shape(leaves[index][1])):
                mixed[id(var)] = (var, index)
    for key, value in values_of(program.jaxpr, program.inputs, set(mixed)).items():
        var, index = mixed[key]
        if _stacks(value, np.asarray(leaves[index][1])):
            _stacked(what, var, names[index], copies, hint, "and other inputs that leave its values as they are")
    return program


def _stacked(what: str, var: Any, name: str, copies: int, hint: str, how: str) -> None:
    __tracebackhide__ = True
    fail(sentence(f"{what} builds {var.aval.str_short()} from {name} {how}: {copies} copies of a value every "
                  f"example shares, made before the mapped work. Mapping a stack of copies gives the same "
                  f"numbers as mapping nothing, at the cost of the copies: in_axes=None hands the one value "
                  f"to every example as it is.", hint, f"See {DOCS}/automatic-vectorization.html"), "wrong-tool")


def _could_stack(shape: tuple[int, ...], shared: tuple[int, ...]) -> bool:
    """Whether an array of `shape` can hold copies of an array of shape `shared` along one new axis, or
    end to end."""
    return (len(shape) == len(shared) + 1 and any(shape[:axis] + shape[axis + 1:] == shared
                                                  for axis in range(len(shape)))) or \
        (math.prod(shape) % max(math.prod(shared), 1) == 0)


def _stacks(value: np.ndarray, shared: np.ndarray) -> bool:
    """Whether `value` is copies of `shared` (to float32 rounding): stacked along one new axis, or end to
    end (`jnp.tile`)."""
    def close(a: np.ndarray, b: np.ndarray) -> bool:
        return a.shape == b.shape and np.allclose(a, b, rtol=1e-6, atol=1e-6 * max(1.0, float(np.max(np.abs(b), initial=0))))

    if value.ndim == shared.ndim + 1:
        for axis in range(value.ndim):
            moved = np.moveaxis(value, axis, 0)
            if moved.shape[1:] == shared.shape and close(moved, np.broadcast_to(shared, moved.shape)):
                return True
    flat, one = value.reshape(-1), shared.reshape(-1)
    return one.size > 0 and flat.size % one.size == 0 and close(flat, np.tile(one, flat.size // one.size))


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


def assert_loop_not_fed_steps(program: Program, loops: list[Any], *, what: str, tool: str, hint: str = "") -> None:
    """None of `loops` (scan equations of `program`, traced on concrete inputs) is handed an array,
    as a sequence or a constant of its step, that varies along its first axis and moves when the
    program's inputs are nudged: values computed from the inputs beside the loop, one per step,
    which the loop then only passes along or adds up (angles split into pieces it adds back, say).
    For tasks whose loop needs no per-step data: its step works on its carry. An array the inputs
    do not decide (step numbers), one value repeated (a time step broadcast) or a scalar is fine;
    one laid out otherwise (a single row of per-step values) that holds more values than the
    program's inputs do is not."""
    __tracebackhide__ = True
    for loop in loops:
        consts, first = loop.params["num_consts"], loop.params["num_consts"] + loop.params["num_carry"]
        xs = {id(v) for v in (*loop.invars[:consts], *loop.invars[first:]) if not isinstance(v, jax.extend.core.Literal)}
        before, nudged = values_before_and_nudged(program.jaxpr, program.inputs, xs, keys=True) if xs else ({}, {})
        given = sum(np.size(x) for x in program.inputs)
        fed = [k for k in xs if k in before and k in nudged and before[k].ndim
               and (len(before[k]) > 1 and not (before[k] == before[k][:1]).all()
                    or before[k].size > given and not (before[k] == before[k].flat[0]).all())
               and not np.array_equal(before[k], nudged[k], equal_nan=True)]
        if fed:
            fail(sentence(f"{what}: its {tool} is handed, step by step, values computed from the inputs before it "
                          f"runs ({len(fed)} sequence(s) that move when the inputs do): the steps are taken beside "
                          f"the loop, which only passes their results along. The step should work on the loop's "
                          f"carry, inside the loop.", hint), "wrong-tool")


def assert_loop_returns(program: Program, primitives: set[str] | frozenset[str], *, what: str, tool: str,
                        steps: tuple[int, ...] = (), walks: dict[int, tuple[str, int]] | None = None,
                        trips: tuple[int, int] | None = None, hint: str = "") -> None:
    """Every output of the program is a result of a loop of these primitives that the outputs follow
    (`Program.live`), handed on as it came (moved, reshaped, cast or sliced): the loop computed it.
    A result computed beside the loop, with the loop's own folded in where it cancels (`+ (final -
    seed - 2 * n)` of a loop that counts up from `seed` by 2), is not the loop's; nor is one the loop
    was handed, on the data it ran on: a stacked output equal to a sequence it scanned over, a final
    carry equal to its start or to the last element scanned (a result computed beside the loop and
    passed through it, `(a + b) / 2` of two copies). `steps`: the lengths a scan that returns them may
    have, one step per element (a scan of one step over the whole series is not the loop asked for).
    `walks`: the data the loop walks, by position among the program's inputs -> (its name, the axis
    of its steps): the loop's own input for a step (an element of a sequence it scans, a constant
    it indexes, its carry's start) depends on that step of the data alone, so two steps nudged apart
    move none of the same values, and no start; a sequence computed beside the loop (a cumulative
    sum, a matrix of weights, a closed form) moves from a step on, rescaled, reshaped or not.
    `trips`: the fewest and most trips each such loop makes on this data, counted where the check
    runs (a loop of one trip that adds a precomputed total is not the loop asked for)."""
    __tracebackhide__ = True
    origins = handed_on(program.jaxpr, {id(eqn) for eqn in program.live(*primitives)})
    which = [k for k, origin in enumerate(origins) if origin is None]
    named = "its result" if len(origins) == 1 else f"its output{'s' if len(which) > 1 else ''} {which}"
    if which:
        fail(sentence(f"{what}: {named} is not what its {tool} hands back but is computed after it or "
                      f"beside it, with the loop's result folded in. The task asks {tool} to compute "
                      f"the result: return what the loop returns (its carry or its stacked outputs), "
                      f"reshaped or sliced at most.", hint, f"See {DOCS}/control-flow.html"), "wrong-tool")
    lengths = sorted({int(eqn.params["length"]) for eqn, _ in origins if eqn.primitive.name == "scan"})
    if steps and any(n not in steps for n in lengths):
        fail(sentence(f"{what}: its {tool} runs {' or '.join(map(str, lengths))} step(s), not one step per "
                      f"element ({' or '.join(map(str, steps))}): the work is done inside one step over "
                      f"the whole series, not by the loop, one element at a time.", hint,
                      f"See {DOCS}/_autosummary/jax.lax.scan.html"), "wrong-tool")
    loops = list({id(eqn): eqn for eqn, _ in origins}.values())
    for loop in loops if trips is not None else ():
        made = int(loop.params["length"]) if loop.primitive.name == "scan" else \
            while_trips(program.jaxpr, program.inputs, loop)
        if made is not None and not trips[0] <= made <= trips[1]:
            asked = str(trips[0]) if trips[0] == trips[1] else f"{trips[0]} to {trips[1]}"
            fail(sentence(f"{what}: its {tool} makes {made} trip(s) on this data, where the task's loop makes "
                          f"{asked}, one per step of the work: the work is done beside the loop, or inside "
                          f"fewer trips than it takes.", hint, f"See {DOCS}/control-flow.html"), "wrong-tool")
    if walks:
        beside = _steps_computed_beside(program, loops, walks)
        if beside:
            fail(sentence(f"{what}: its {tool} is handed {beside}: values computed from the data beside the loop "
                          f"(a step's from other steps, a start from steps still to come), which the loop only "
                          f"passes along. The loop's own input for a step should be that step of the data; the "
                          f"running value belongs in its carry, computed step by step.", hint,
                          f"See {DOCS}/control-flow.html"), "wrong-tool")
    handed = [k for k, origin in enumerate(origins) if _was_handed(program, *origin)]
    if handed:
        named = "its result" if len(origins) == 1 else f"its output{'s' if len(handed) > 1 else ''} {handed}"
        fail(sentence(f"{what}: {named} is what its {tool} was handed, passed through it unchanged on "
                      f"this data (a sequence it scanned over, or its carry's start): the values were "
                      f"computed beside the loop. The task asks {tool} to compute them, step by step.",
                      hint, f"See {DOCS}/control-flow.html"), "wrong-tool")


def _steps_computed_beside(program: Program, loops: list[Any], walks: dict[int, tuple[str, int]]) -> str:
    """What of `loops`' inputs carries one step of the walked data into others (see
    `assert_loop_returns`), said in words; empty if nothing does. Two steps two apart are nudged, each
    on its own: the values each moves in an input that is step by step (however it is laid out:
    reshaped, padded, reversed, paired with the step before) are apart; in one computed beside the
    loop (a running sum, a matrix of weights) the first nudge moves the second's values too."""
    inputs = list(program.inputs)
    length = min(np.shape(inputs[i])[axis] for i, (_, axis) in walks.items())
    if length < 5:
        return ""
    middle = length // 2
    sets = [inputs] + [_nudged_at(inputs, walks, step) for step in (middle, middle + 2)]
    operands = {id(v): v for eqn in loops for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)}
    before, *after = values_over(program.jaxpr, sets, set(operands))
    said = []
    for eqn in loops:
        params = eqn.params
        if eqn.primitive.name == "scan":
            consts, carry = params["num_consts"], params["num_carry"]
            roles = ["constant"] * consts + ["carry's start"] * carry + ["sequence"] * (len(eqn.invars) - consts - carry)
        else:
            skip, consts = params["cond_nconsts"], params["body_nconsts"]
            roles = ["constant"] * (skip + consts) + ["carry's start"] * (len(eqn.invars) - skip - consts)
        for var, role in zip(eqn.invars, roles):
            old, first, second = before.get(id(var)), after[0].get(id(var)), after[1].get(id(var))
            if old is None or first is None or second is None or not np.shape(old) == np.shape(first) == np.shape(second):
                continue
            moved, also = _moved_where(old, first), _moved_where(old, second)
            if role == "carry's start" and moved.any():
                said.append(f"a carry's start {var.aval.str_short()} that moves when step {middle} of the data does")
            elif (moved & also).any():
                said.append(f"a {role} {var.aval.str_short()} of which {int((moved & also).sum())} value(s) move "
                            f"both when step {middle} of the data does and when step {middle + 2} does")
    names = ", ".join(name for name, _ in walks.values())
    return f"{'; '.join(said)} (nudging {names})" if said else ""


def _nudged_at(inputs: list, walks: dict[int, tuple[str, int]], step: int) -> list:
    """The inputs with one step of each walked array moved."""
    nudged = list(inputs)
    for i, (_, axis) in walks.items():
        data = np.array(inputs[i], copy=True)
        at = (slice(None),) * axis + (step,)
        data[at] = data[at] + 1 if np.issubdtype(data.dtype, np.integer) else data[at] * 1.5 + 0.75
        nudged[i] = jax.numpy.asarray(data)
    return nudged


def _moved_where(old: Any, new: Any) -> np.ndarray:
    old, new = np.asarray(old), np.asarray(new)
    if np.issubdtype(old.dtype, np.inexact):
        return ~np.isclose(old, new, rtol=1e-6, atol=0, equal_nan=True)
    return old != new


def _was_handed(program: Program, eqn: Any, k: int) -> bool:
    """Whether result `k` of loop `eqn`, on the data the program ran on, equals what the loop was
    handed: for a scan, a stacked output one of its sequences, a final carry its start or the last
    element of a sequence; for a while loop, a final carry its start."""
    params = eqn.params
    operands = [v for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)]
    found = values_of(program.jaxpr, program.inputs, {id(v) for v in operands} | {id(eqn.outvars[k])}, keys=True)
    result = found.get(id(eqn.outvars[k]))
    if result is None:
        return False
    if eqn.primitive.name == "scan":
        first, n_carry = params["num_consts"], params["num_carry"]
        starts, sequences = eqn.invars[first:first + n_carry], eqn.invars[first + n_carry:]
        at = 0 if params.get("reverse") else -1
        handed = ([found.get(id(v)) for v in sequences] if k >= n_carry else
                  [found.get(id(v)) for v in starts[k:k + 1]] + [
                      found[id(v)][at] for v in sequences if found.get(id(v)) is not None and len(found[id(v)])])
    else:
        handed = [found.get(id(v)) for v in eqn.invars[params["cond_nconsts"] + params["body_nconsts"]:][k:k + 1]]
    return any(value is not None and np.shape(value) == np.shape(result) and np.array_equal(value, result)
               for value in handed)


def assert_not_unrolled_over_batch(fn: Callable, make_args: Callable[[int], tuple], batch_sizes: tuple[int, ...],
                                   *, what: str, hint: str = "", expected: Callable[..., Any] | None = None,
                                   rtol: float = 1e-5, atol: float = 1e-6) -> dict[int, Program]:
    """Tracing `fn(*make_args(b))` gives a program of the same size for every batch size `b`.

    A Python loop or comprehension over the examples is unrolled into one copy of
    the per-example work per example; `jax.vmap` (or batched jnp code) traces to
    the same program whatever the batch size.

    Args:
      expected: what fn returns for a batch's arguments (`expected(*make_args(b))`). Every
        program read here then must compute it (`assert_computes`): a function that shows a
        mapped program only when traced, and computes its values another way, fails.
    Returns:
      The program read for each batch size, for further questions.
    """
    __tracebackhide__ = True
    args = {b: make_args(b) for b in batch_sizes}
    programs = {b: program_of(fn, *args[b], what=what) for b in batch_sizes}
    sizes = {b: len(program.primitives()) for b, program in programs.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"batch {b} -> {s} equations" for b, s in sorted(sizes.items()))
        fail(sentence(f"{what}: the traced program grows with the batch size ({listed}). A Python loop or "
                      f"comprehension over the examples is unrolled, one copy of the work per example; "
                      f"a mapped function traces to the same program whatever the batch size.",
                      hint, f"See {DOCS}/automatic-vectorization.html"), "unrolled")
    for b, program in programs.items() if expected is not None else ():
        assert_computes(program, expected(*args[b]), what=f"{what} with a batch of {b}", rtol=rtol, atol=atol)
    # All of the above read traces: a call on arrays must run what they show (not a Python loop over
    # the examples when handed arrays, the mapped program only when traced).
    largest = max(batch_sizes)
    assert_called_as_traced(fn, *args[largest], what=f"{what} with a batch of {largest}", program=programs[largest],
                            nothing_else=True)
    return programs
