"""Whether a program's outputs follow the results of some of its equations: the program run again,
where the check runs, with those results nudged within their range (`Program.live` asks it of the
tool a task names, so that a decoy folded in where it never changes the values does not count)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.checks import executables
from grader.checks.dataflow import output_sources

# Primitives that only call a jaxpr of theirs, which `outputs_follow` runs equation by equation.
_CALL_JAXPRS = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
                "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr", "checkpoint": "jaxpr",
                "remat": "jaxpr"}


def _nudged(value: Any) -> Any:
    """`value` moved within its range (see `outputs_follow`), or `value` itself where it has none (a key)."""
    if jax.dtypes.issubdtype(value.dtype, jax.dtypes.extended):
        return value
    dtype = np.dtype(value.dtype)
    if dtype == np.bool_:
        return ~value
    if np.issubdtype(dtype, np.signedinteger):
        return value + np.asarray(1, dtype)
    if np.issubdtype(dtype, np.unsignedinteger):
        return value ^ np.asarray(1 << (8 * dtype.itemsize - 1), dtype)
    if np.issubdtype(dtype, np.inexact):
        # Up by 1/64 to 3/64 of its size and as much again, element by element: never across zero
        # from above, and no scale and shift that a normalisation downstream would undo.
        steps = ((np.arange(math.prod(value.shape)) % 3 + 1) / 64).reshape(value.shape).astype(dtype)
        xp = np if isinstance(value, np.ndarray) else jax.numpy  # a constant stays NumPy, its dtype kept
        return value + (xp.abs(value) + 1) * steps
    return value


def outputs_follow(closed: Any, inputs: Any, before: Callable[[], list], targets: set[int],
                   only: set[int] | None = None) -> bool:
    """Whether the outputs of the program `closed`, run on `inputs` (`before()` gives its outputs' leaves
    unnudged), change when the results of the equations whose ids are `targets` are nudged within the
    range they have: a float a little larger (by 1/64 to 3/64 of its size, and as much again, varying
    from element to element), a signed integer one more, the top bit of an unsigned one (random bits)
    flipped, a bool flipped. Work that follows a result changes with
    it; a decoy folded in so that it never counts (`+ jnp.minimum(decoy, 0)` of a decoy never
    negative, a `where` that always picks the other side) gives the same outputs. Computed where the
    check runs. An equation that cannot be reached by running the program's calls one equation at a
    time (it sits inside a loop's or a branch's body), or whose results are all keys, is taken to be
    followed, as its dataflow says. `only`: nudge just these results (by position) of each target."""
    return outputs_follow_each(closed, inputs, before, [(targets, only)])[0]


def outputs_follow_each(closed: Any, inputs: Any, before: Callable[[], list],
                        nudges: list[tuple[set[int], set[int] | None]]) -> list[bool]:
    """`outputs_follow` for each (targets, only) of `nudges`, the program run once per nudge inside one
    compiled program (each compile costs more than a run of these small programs)."""
    if not nudges:
        return []
    reached = [False] * len(nudges)

    def other_for(n: int) -> Callable[..., Any]:
        only = nudges[n][1]

        def other(value: Any, k: int = 0) -> Any:
            if only is not None and k not in only:
                return value
            nudged = _nudged(value)
            if nudged is not value:
                reached[n] = True
            return nudged
        return other

    def runs(consts: list, args: list) -> list:
        return [_run(closed.jaxpr, consts, args, targets, other_for(n)) for n, (targets, _) in enumerate(nudges)]

    try:
        what = _stated(closed, lambda said: ("outputs_follow_each", said.text, [
            (said.positions(targets), None if only is None else sorted(only)) for targets, only in nudges]))
        changed, reached[:] = executables.run(runs, (list(closed.consts), list(inputs)), what, lambda: list(reached))
    except Exception:  # noqa: BLE001 - a program that cannot be run this way keeps its dataflow's word
        return [True] * len(nudges)
    if not any(reached):
        return [True] * len(nudges)
    try:
        unnudged = before()
    except Exception:  # noqa: BLE001 - a program whose values cannot be had here keeps its dataflow's word
        return [True] * len(nudges)
    return [not reached[n] or any(_moved(np.asarray(a), np.asarray(b)) for a, b in zip(unnudged, outs))
            for n, outs in enumerate(changed)]


def values_of(closed: Any, inputs: Any, wanted: set[int], mapped: bool = False,
              keys: bool = False) -> dict[int, np.ndarray]:
    """The values of the program's variables whose ids are in `wanted` (results of equations at any call
    depth, loop and branch bodies excepted), the program run on `inputs` where the check runs; empty if
    it cannot be run this way. `mapped`: a shard_map's body is run too, and a value inside it comes back
    as every device's, stacked on a new first axis. `keys`: a key comes back as its data, to be
    compared (without it a program whose wanted values hold a key shows none: callers that run code
    on the values want keys, not their words)."""
    return values_over(closed, [inputs], wanted, mapped, keys)[0]


def values_over(closed: Any, input_sets: list, wanted: set[int], mapped: bool = False,
                keys: bool = False) -> list[dict[int, np.ndarray]]:
    """`values_of` for each of `input_sets`, in one compiled program; all empty if it cannot be run."""
    found: dict[int, Any] = {}
    order: list[list[int]] = []

    def keep(var: Any, value: Any) -> None:
        if id(var) in wanted:
            found[id(var)] = value

    def values(consts: list, sets: list) -> list[list[Any]]:
        order.clear()
        held = []
        for args in sets:
            found.clear()
            _run(closed.jaxpr, consts, args, set(), lambda value, k=0: value, keep, wanted if mapped else None)
            # Lists in the order the program reaches them, not dicts keyed by ids: ids differ from run
            # to run, and outputs reordered with them would miss the persistent compilation cache.
            order.append(list(found))
            held.append([_key_data(v) for v in found.values()] if keys else list(found.values()))
        return held

    said = executables.describe(closed)
    try:
        what = None if said is None else ("values_over", said.text, said.positions(wanted), mapped, keys)
    except executables.Unstated:
        what = None

    def reached() -> list[list[int]]:  # what the trace reached, by position, to be found again by id
        return [[said.position[i] for i in ids] for ids in order] if what is not None else []

    try:
        held, positions = executables.run(values, (list(closed.consts), [list(inputs) for inputs in input_sets]),
                                          what, reached)
        if what is not None:
            by_position = {n: i for i, n in said.position.items()}
            order[:] = [[by_position[n] for n in ns] for ns in positions]
        return [{k: np.asarray(v) for k, v in zip(ids, outs)} for ids, outs in zip(order, held)]
    except Exception:  # noqa: BLE001 - a program that cannot be run this way (or whose values hold a key,
        return [{} for _ in input_sets]  # without `keys`) shows no values


def values_before_and_nudged(closed: Any, inputs: Any, wanted: set[int], mapped: bool = False,
                             keys: bool = False) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """`values_of` on `inputs` and on `inputs` nudged (as `outputs_follow` nudges results; a key folded
    with a constant, which starts another stream), in one compiled program."""
    moved = [_nudged_like(x) if hasattr(x, "dtype") or isinstance(x, (int, float)) else x for x in inputs]
    return tuple(values_over(closed, [inputs, moved], wanted, mapped, keys))


def _run(jaxpr: Any, consts: list, args: list, targets: set[int], other: Callable[..., Any],
         seen: Callable[[Any, Any], None] | None = None, mapped: set[int] | None = None,
         constant: Callable[[Any], Any] = lambda c: c) -> list:
    """The program run equation by equation (calls' bodies too, as JAX's own eval_jaxpr would), the
    results of the equations whose ids are in `targets` replaced by `other` of them; `seen(var, value)`
    hears every result. `mapped`: the variables of a shard_map's body `seen` hears as well (stacked).
    `constant`: what the calls' own constants are replaced by (the caller passes `consts` as it wants)."""
    env: dict[int, Any] = {}

    def read(var: Any) -> Any:
        return var.val if isinstance(var, jax.extend.core.Literal) else env[id(var)]

    for var, value in (*zip(jaxpr.constvars, consts), *zip(jaxpr.invars, args)):
        env[id(var)] = value
        if seen is not None:
            seen(var, value)
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        inner = eqn.params.get(_CALL_JAXPRS.get(eqn.primitive.name, ""))
        if inner is not None and id(eqn) not in targets:
            outs = _run(getattr(inner, "jaxpr", inner), [constant(c) for c in getattr(inner, "consts", ())], ins,
                        targets, other, seen, mapped, constant)
        elif mapped and seen is not None and eqn.primitive.name == "shard_map" and id(eqn) not in targets and \
                _reached(eqn.params["jaxpr"], mapped):
            outs = _run_mapped(eqn, ins, seen, mapped)
        else:
            with eqn.ctx.manager:  # as JAX's own eval_jaxpr binds it
                outs = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
            outs = list(outs) if eqn.primitive.multiple_results else [outs]
            if id(eqn) in targets:
                outs = [other(out, k) for k, out in enumerate(outs)]
        for var, value in zip(eqn.outvars, outs):
            env[id(var)] = value
            if seen is not None:
                seen(var, value)
    return [read(v) for v in jaxpr.outvars]


def _reached(jaxpr: Any, wanted: set[int]) -> list[Any]:
    """The variables in `wanted` that `_run` reaches in `jaxpr` (calls' and shard_maps' bodies, not
    loops' or branches'), in order."""
    found = []
    for eqn in jaxpr.eqns:
        found += [v for v in eqn.outvars if id(v) in wanted]
        inner = eqn.params.get(_CALL_JAXPRS.get(eqn.primitive.name, "")) if eqn.primitive.name != "shard_map" \
            else eqn.params["jaxpr"]
        if inner is not None:
            found += _reached(getattr(inner, "jaxpr", inner), wanted)
    return found


def _run_mapped(eqn: Any, ins: list, seen: Callable[[Any, Any], None], wanted: set[int]) -> list:
    """A shard_map run with its body run by `_run`: the values in `wanted` its body reaches come out
    too, each device's stacked on a new first axis, for `seen`."""
    from jax.sharding import PartitionSpec

    params = eqn.params
    body, mesh = params["jaxpr"], params["mesh"]
    axes = tuple(name for name in mesh.axis_names if name in params["newly_manual_axes"])
    inside = _reached(body, wanted)

    def per_device(*args: Any) -> tuple[list, list]:
        heard: dict[int, Any] = {}
        outs = _run(body, [], list(args), set(), lambda value, k=0: value,
                    lambda var, value: heard.__setitem__(id(var), value), wanted)
        return outs, [jax.numpy.expand_dims(heard[id(v)], 0) for v in inside]

    outs, stacked = jax.shard_map(per_device, mesh=mesh, in_specs=tuple(params["in_specs"]),
                                  out_specs=(list(params["out_specs"]), [PartitionSpec(axes)] * len(inside)),
                                  axis_names=set(axes), check_vma=False)(*ins)
    for var, value in zip(inside, stacked):
        seen(var, value)
    return list(outs)


def _moved(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether an output moved with a nudge: any change of an integer or a bool; for floats, a change
    of at least 1/10000 of the output's largest magnitude (a decoy scaled down to vanish, `+ 1e-9 *
    decoy`, moves it less than rounding would)."""
    if before.shape != after.shape:
        return True
    if not np.issubdtype(before.dtype, np.inexact):
        return not np.array_equal(before, after)
    a, b = before.astype(np.float64), after.astype(np.float64)
    if not np.array_equal(np.isnan(a), np.isnan(b)) or not np.array_equal(np.isinf(a), np.isinf(b)):
        return True
    finite = np.isfinite(a)
    scale = np.max(np.abs(a[finite]), initial=0.0)
    return bool(np.max(np.abs(a[finite] - b[finite]), initial=0.0) > 1e-4 * max(scale, 1e-6))


def outputs_follow_constants(closed: Any, inputs: Any, before: Callable[[], list], picked: Callable[[Any], Any],
                             expected: Callable[[list[np.ndarray]], list] | None = None) -> bool | None:
    """Whether the outputs of the program `closed`, run on `inputs`, change when the constants it holds
    that `picked` chooses (the data a check handed the function, a table built while tracing), at
    any call depth, are nudged as `outputs_follow` nudges results; None when no constant is chosen
    (the data never reached the program: the host computed with it first). `picked` may answer with
    a boolean mask: only those elements are nudged. With `expected` (the chosen constants, nudged,
    in order -> the outputs' leaves the task's computation gives on them) the outputs must also come
    out as it says: a result that moves, but not as the task's computation would (a host result
    plus a term that is zero on the data), does not follow. A program that cannot be run here
    keeps its dataflow's word (True)."""
    nudged: dict[int, np.ndarray] = {}
    for c in _constants(closed):
        if jax.dtypes.issubdtype(jax.typeof(c).dtype, jax.dtypes.extended):
            continue
        value = np.asarray(c)
        mask = picked(value)
        if isinstance(mask, np.ndarray) and mask.shape == value.shape:
            if mask.any():
                nudged[id(c)] = np.where(mask, _nudged(value), value).astype(value.dtype)
        elif mask:
            nudged[id(c)] = _nudged(value)
    if not nudged:
        return None

    def constant(c: Any) -> Any:
        return nudged.get(id(c), c)

    try:
        changed = jax.jit(lambda cs, args: _run(closed.jaxpr, cs, args, set(), lambda value, k=0: value,
                                                constant=constant))([constant(c) for c in closed.consts], list(inputs))
        unnudged = before()
    except Exception:  # noqa: BLE001 - a program that cannot be run this way keeps its dataflow's word
        return True
    if not any(_moved(np.asarray(a), np.asarray(b)) for a, b in zip(unnudged, changed)):
        return False
    if expected is None:
        return True
    def alike(got: Any, want: Any) -> bool:  # integers exactly; floats to float32's rounding of the work
        got, want = np.asarray(got), np.asarray(want)
        if not np.issubdtype(got.dtype, np.inexact) and not np.issubdtype(want.dtype, np.inexact):
            return got.shape == want.shape and np.array_equal(got, want)
        return np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-4, atol=1e-6)

    wanted = expected(list(nudged.values()))
    return len(wanted) == len(changed) and all(alike(a, b) for a, b in zip(changed, wanted))


def _constants(closed: Any) -> list[Any]:
    """The constants of a program and of the calls `_run` runs equation by equation, in order."""
    found = list(getattr(closed, "consts", ()))
    for eqn in getattr(closed, "jaxpr", closed).eqns:
        inner = eqn.params.get(_CALL_JAXPRS.get(eqn.primitive.name, ""))
        if inner is not None:
            found += _constants(inner)
    return found


def loops_copying(closed: Any, inputs: Any, loops: list[Any], before: Callable[[], list]) -> set[int]:
    """The ids of the `loops` (scan and while equations the program reaches) whose step, run once on
    its first operands each moved apart (a carry, an element), returns only copies of what it was
    given in every result the program's outputs follow: each floating result (each result but a step
    counter, where none is floating) equals one of its inputs, or the outputs do not follow it (a
    carry ticking beside the copies). A step that works on its data computes something new from
    them; one that hands on a result computed beside the loop (`carry + 0 * x`) does not. A loop the
    program cannot be run to is taken to work."""
    wanted = {id(v) for eqn in loops for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)}
    found = values_of(closed, inputs, wanted)
    judged: dict[int, list[int]] = {}  # loop id -> the results whose nudges decide it
    for eqn in loops:
        operands = [np.asarray(v.val, dtype=v.aval.dtype) if isinstance(v, jax.extend.core.Literal) else found.get(id(v))
                    for v in eqn.invars]
        if any(value is None for value in operands):
            continue
        # The first step and the second: a step may treat the first element apart (taking it as the start).
        steps = [step for step in (_first_step(eqn, operands, k) for k in (0, 1)) if step is not None]
        if not steps:
            continue
        new = set().union(*(_new_results(*step) for step in steps))
        judged[id(eqn)] = sorted(new | _carried_into(eqn, new))  # and the results a new carry reaches later
    nudges = [(loop, k) for loop, ks in judged.items() for k in ks]
    follows = outputs_follow_each(closed, inputs, before, [({loop}, {k}) for loop, k in nudges])
    return {loop for loop in judged if not any(f for (other, _), f in zip(nudges, follows) if other == loop)}


def while_trips(closed: Any, inputs: Any, eqn: Any, cap: int = 1 << 20) -> int | None:
    """How many trips while loop `eqn` (an equation the program reaches) makes on `inputs`: its own
    condition and body run where the check runs, with a counter beside them (at most `cap` trips);
    None if the loop cannot be run this way."""
    wanted = {id(v) for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)}
    found = values_of(closed, inputs, wanted)
    operands = [np.asarray(v.val, dtype=v.aval.dtype) if isinstance(v, jax.extend.core.Literal) else found.get(id(v))
                for v in eqn.invars]
    if any(value is None for value in operands):
        return None
    params = eqn.params
    n_cond, n_body = params["cond_nconsts"], params["body_nconsts"]
    cond, body = jax.extend.core.jaxpr_as_fun(params["cond_jaxpr"]), jax.extend.core.jaxpr_as_fun(params["body_jaxpr"])

    def count(*ops: Any) -> Any:
        cond_consts, body_consts, carry = ops[:n_cond], ops[n_cond:n_cond + n_body], ops[n_cond + n_body:]
        return jax.lax.while_loop(
            lambda state: jax.numpy.logical_and(cond(*cond_consts, *state[1])[0], state[0] < cap),
            lambda state: (state[0] + 1, list(body(*body_consts, *state[1]))),
            (jax.numpy.int32(0), list(carry)))[0]

    parts = [_stated(params[name], lambda said: (said.text, said.constants)) for name in ("cond_jaxpr", "body_jaxpr")]
    what = None if None in parts else ("while_trips", cap, *parts)
    try:
        trips, _ = executables.run(count, tuple(operands), what)
    except Exception:  # noqa: BLE001 - a loop that cannot be run alone is not counted
        return None
    return int(trips)


def _carried_into(eqn: Any, slots: set[int]) -> set[int]:
    """The results of a loop that the carries in `slots` feed on later steps (through the step's
    dataflow, carry after carry)."""
    params = eqn.params
    if eqn.primitive.name == "scan":
        body, first, n_carry = params["jaxpr"], params["num_consts"], params["num_carry"]
    else:
        body, first = params["body_jaxpr"], params["body_nconsts"]
        n_carry = len(getattr(body, "jaxpr", body).outvars)
    sources = output_sources(body)
    reached, frontier = set(), {k for k in slots if k < n_carry}
    while frontier:
        fed = {j for j, used in enumerate(sources) if any(first + k in used for k in frontier)}
        frontier = {j for j in fed - reached if j < n_carry}
        reached |= fed
    return reached


def _first_step(eqn: Any, operands: list, index: int = 0) -> tuple[list, list] | None:
    """A loop's step run once: its data inputs (moved apart) and its results; None if it cannot be.
    `index`: which element of a scan's sequences the step takes (0: the first the scan visits)."""
    params = eqn.params
    if eqn.primitive.name == "scan":
        body, n_consts, n_carry = params["jaxpr"], params["num_consts"], params["num_carry"]
        if params.get("length", 0) < index + 1:
            return None
        at = -1 - index if params.get("reverse") else index
        consts, data = operands[:n_consts], operands[n_consts:n_consts + n_carry] + [
            x[at] for x in operands[n_consts + n_carry:]]
    else:
        if index:
            return None  # a while loop's step takes no element: its first is the one to run
        body, skip, n_consts = params["body_jaxpr"], params["cond_nconsts"], params["body_nconsts"]
        consts, data = operands[skip:skip + n_consts], operands[skip + n_consts:]
    data = [_apart(np.asarray(value), k) for k, value in enumerate(data)]
    try:
        what = _stated(body, lambda said: ("first_step", said.text, said.constants))
        outs, _ = executables.run(jax.extend.core.jaxpr_as_fun(body), (*consts, *data), what)
    except Exception:  # noqa: BLE001 - a step that cannot be run alone is taken to work
        return None
    return data, [np.asarray(out) for out in outs]


def _apart(value: np.ndarray, k: int) -> np.ndarray:
    """`value` moved by an amount of its own, the k-th input's: no two inputs of a step stay equal."""
    if np.issubdtype(value.dtype, np.inexact):  # infinities stay (moved, -inf would become nan)
        return np.where(np.isfinite(value), value + ((np.abs(value) + 1) * (0.11 + 0.07 * k)).astype(value.dtype), value)
    if np.issubdtype(value.dtype, np.integer) and value.dtype != np.bool_:
        return value + np.asarray(k + 3, value.dtype)
    return value


def _new_results(data: list, outs: list) -> set[int]:
    """The positions of a step's results that are not copies of its inputs: floating ones (every one
    but a step counter, where none is floating)."""
    def same(a: np.ndarray, b: np.ndarray) -> bool:
        return a.shape == b.shape and a.dtype == b.dtype and np.allclose(a, b, rtol=1e-6, atol=0, equal_nan=True)

    def counter(k: int, out: np.ndarray) -> bool:  # a loop's own step count: its carry, one more each step
        # (the carry in the same place: a running total that happens to be one more than the count is none)
        return np.issubdtype(out.dtype, np.integer) and k < len(data) and data[k].dtype == out.dtype and \
            same(out, (data[k] + 1).astype(out.dtype))

    floating = [k for k, out in enumerate(outs) if np.issubdtype(out.dtype, np.inexact)]
    judged = floating or [k for k, out in enumerate(outs) if not counter(k, out)]
    return {k for k in judged if not any(same(outs[k], value) for value in data)}


def unmoved_by_inputs(closed: Any, inputs: Any, eqns: list[Any], mapped: bool = False) -> list[Any]:
    """Those of `eqns` whose results stay the same when the program's inputs are nudged (as
    `outputs_follow` nudges results): work that depends on no input's values, however its dataflow
    runs (`x * 0 + 1` feeds in name only). Empty if the program cannot be run this way. `mapped`: an
    equation inside a shard_map is judged too, by every device's results."""
    first, second = values_before_and_nudged(closed, inputs, {id(v) for eqn in eqns for v in eqn.outvars}, mapped)
    if not first or not second:
        return []
    return [eqn for eqn in eqns if all(id(v) in first and id(v) in second
                                       and np.array_equal(first[id(v)], second[id(v)], equal_nan=True)
                                       for v in eqn.outvars)]


def computed_twice(closed: Any, inputs: Any, moves: frozenset[str]) -> list[tuple[Any, Any]]:
    """Pairs of equations, at any call depth `_run` reaches, the second of which computes the values the
    first did (a shared piece computed again, however it is spelled: `x1 * x2 ** -1` after `x1 / x2`):
    floating results of at least two different values, equal to float32's rounding; a primitive in
    `moves` (a reshape, a copy) or a call only hands values on and never counts. Empty where the values
    cannot be had."""
    eqns: list[Any] = []

    def walk(jaxpr: Any) -> None:
        for eqn in jaxpr.eqns:
            inner = eqn.params.get(_CALL_JAXPRS.get(eqn.primitive.name, ""))
            if inner is not None:
                walk(getattr(inner, "jaxpr", inner))
            elif eqn.primitive.name not in moves and len(eqn.outvars) == 1 and \
                    jax.numpy.issubdtype(getattr(eqn.outvars[0].aval, "dtype", np.int32), jax.numpy.inexact):
                eqns.append(eqn)

    walk(getattr(closed, "jaxpr", closed))
    found = values_of(closed, inputs, {id(eqn.outvars[0]) for eqn in eqns})
    seen: list[tuple[Any, np.ndarray]] = []
    pairs = []
    for eqn in eqns:
        value = found.get(id(eqn.outvars[0]))
        if value is None or np.unique(value).size < 2:
            continue
        first = next((other for other, held in seen if held.shape == value.shape
                      and np.allclose(held, value, rtol=1e-6, atol=0, equal_nan=True)), None)
        if first is not None:
            pairs.append((first, eqn))
        seen.append((eqn, value))
    return pairs


def combining_copies(closed: Any, inputs: Any, eqns: list[Any]) -> list[Any]:
    """Those of `eqns` (collectives inside a shard_map) whose operands hold the same values on every
    device: a sum or a mean of copies combines nothing the devices computed apart (a psum of a total
    made outside the map, divided by the device count). Empty where the values cannot be had."""
    wanted = {id(v) for eqn in eqns for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)}
    found = values_of(closed, inputs, wanted, mapped=True)

    def copies(stacked: np.ndarray | None) -> bool:  # each device's value, stacked on the first axis
        return stacked is not None and stacked.shape[0] > 1 and all(
            np.array_equal(stacked[0], stacked[k], equal_nan=True) for k in range(1, stacked.shape[0]))

    return [eqn for eqn in eqns if found and all(
        copies(found.get(id(v))) for v in eqn.invars if not isinstance(v, jax.extend.core.Literal))]


def still_while_outputs_move(closed: Any, inputs: Any, eqns: list[Any], before: Callable[[], list]) -> list[Any]:
    """Those of `eqns` whose results the outputs follow stay the same when the program's inputs are
    nudged (keys folded with a constant: another stream) while its outputs move: work beside the
    computation, kept at a value nothing moves (a loop whose carry starts at 0 and is multiplied each
    step, added to a result computed without it), whatever else it computes that the outputs do not
    follow (a key it splits, draws it drops). An equation whose results are all keys is taken to
    work. Empty when the outputs do not move, or the program cannot be run this way."""
    jaxpr = getattr(closed, "jaxpr", closed)
    outs = {id(v) for v in jaxpr.outvars if not isinstance(v, jax.extend.core.Literal)}
    wanted = {id(v) for eqn in eqns for v in eqn.outvars} | outs
    first, second = values_before_and_nudged(closed, inputs, wanted, keys=True)
    if not any(k in first and k in second and _moved(first[k], second[k]) for k in outs):
        return []
    judged, nudges = [], []  # the equations with results to judge; (equation, a result that moved)
    for eqn in eqns:
        results = [k for k, v in enumerate(eqn.outvars) if not jax.dtypes.issubdtype(v.aval.dtype, jax.dtypes.prng_key)]
        if results:
            judged.append(eqn)
        nudges += [(eqn, k) for k, v in enumerate(eqn.outvars) if k in results and (
            id(v) not in first or id(v) not in second or not np.array_equal(first[id(v)], second[id(v)], equal_nan=True))]
    follows = outputs_follow_each(closed, inputs, before, [({id(eqn)}, {k}) for eqn, k in nudges])
    followed = {id(eqn) for (eqn, _), f in zip(nudges, follows) if f}
    return [eqn for eqn in judged if id(eqn) not in followed]


def _stated(closed: Any, what: Callable[[executables.Description], tuple]) -> tuple | None:
    """`what` of the program's exact description (see grader.checks.executables), None where it has none."""
    said = executables.describe(closed)
    try:
        return None if said is None else what(said)
    except executables.Unstated:
        return None


def _key_data(value: Any) -> Any:
    """A key's data (uint32 words), any other value as it is: what NumPy can hold."""
    return jax.random.key_data(value) if jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key) else value


def _nudged_like(x: Any) -> Any:
    """An input nudged, placed as it was (a shard_map asks its operands for the sharding it names); a
    key folded with a constant, which starts another stream."""
    if isinstance(x, jax.Array) and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key):
        nudged = jax.random.wrap_key_data(jax.random.key_data(x) ^ np.uint32(0x9E3779B9), impl=jax.random.key_impl(x))
        return jax.device_put(nudged, x.sharding)
    nudged = _nudged(np.asarray(x))
    return jax.device_put(nudged, x.sharding) if isinstance(x, jax.Array) else nudged
