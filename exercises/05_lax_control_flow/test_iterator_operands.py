"""Checks for lax-9 (iterator_operands)."""

import re

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(9)


def _ema_reference(values, weights, decay):
    out, total = [], 0.0
    for v, w in zip(values.astype(np.float64), weights.astype(np.float64)):
        total = decay * total + w * v
        out.append(total)
    return np.array(out, np.float32)


def _return_reference(rewards, gamma):
    return np.float32(np.sum(gamma ** np.arange(len(rewards)) * rewards.astype(np.float64)))


def _guard(name, thunk):
    """thunk(); a Python iterator handed to JAX inside exercise.<name> fails with its lesson."""
    try:
        return thunk()
    except (IndexError, ValueError) as error:
        if not any(m in str(error) for m in ("tuple index out of range", "no leading axis")):
            raise
        checks.fail(f"{name} raised {type(error).__name__} ({str(error).splitlines()[0]}) inside lax.scan: "
                    f"scan looked for the leading axis of each leaf of xs and found a scalar. A Python "
                    f"list built from an iterator "
                    f"(list(zip(...)), list(enumerate(...))) is a pytree with one leaf per element, not "
                    f"arrays with one row per step. Scan over the arrays themselves, grouped in a tuple. "
                    f"See {checks.DOCS}/_autosummary/jax.lax.scan.html", "not-pytree")
    except TypeError as error:
        if "is not a valid JAX type" not in str(error):
            raise
        kind = re.search(r"<class '([\w.]+)'>", str(error))
        kind = kind.group(1) if kind else "iterator"
        checks.fail(f"{name} raised TypeError: a Python {kind} object reached a lax operation as an "
                    f"operand. lax.scan's xs (like lax.cond's operands and jit's arguments) must be "
                    f"arrays or a pytree of arrays (a tuple, list or dict of them): scan slices each "
                    f"array along its leading axis, one slice per step. An iterator is a one-shot "
                    f"Python object with no shape to slice. Hand over the arrays themselves; a step "
                    f"index is an array too. See {checks.DOCS}/_autosummary/jax.lax.scan.html",
                    "not-pytree")


def _call(exercise, name, *args, jit=False):
    fn = getattr(exercise, name)
    return _guard(name, lambda: (jax.jit(fn) if jit else fn)(*args))


def test_weighted_ema_scans_pairs(exercise):
    for n, decay, jit in ((6, 0.5, False), (11, 0.9, True)):
        values = RNG.normal(size=n).astype(np.float32)
        weights = RNG.uniform(0.5, 2.0, size=n).astype(np.float32)
        got = _call(exercise, "weighted_ema", jnp.asarray(values), jnp.asarray(weights), decay, jit=jit)
        call = "jax.jit(weighted_ema)" if jit else "weighted_ema"
        checks.assert_close(got, _ema_reference(values, weights, decay), rtol=1e-5, atol=1e-6,
                            what=f"{call}(values, weights, {decay}) over {n} steps",
                            hint="Each step carries the running total and emits it: the body gets "
                                 "(values[t], weights[t]) and returns (total, total).")


def test_discounted_return_scans_with_the_step_index(exercise):
    for n, gamma, jit in ((5, 0.9, False), (13, 0.5, True)):
        rewards = RNG.normal(size=n).astype(np.float32)
        got = _call(exercise, "discounted_return", jnp.asarray(rewards), gamma, jit=jit)
        call = "jax.jit(discounted_return)" if jit else "discounted_return"
        checks.assert_close(got, _return_reference(rewards, gamma), rtol=1e-5, atol=1e-6,
                            what=f"{call}(rewards, {gamma}) over {n} steps",
                            hint="The first reward is not discounted (gamma ** 0): the step index "
                                 "runs 0, 1, ..., n - 1, exactly what enumerate counted.")


def test_each_is_one_rolled_scan(exercise):
    values = RNG.normal(size=8).astype(np.float32)
    weights = RNG.uniform(0.5, 2.0, size=8).astype(np.float32)
    expected = {"weighted_ema": _ema_reference(values, weights, 0.5),
                "discounted_return": _return_reference(values, 0.9)}
    for name, make, traced in (
            ("weighted_ema", lambda n: (jnp.ones(n), jnp.ones(n), 0.5), (values, weights, 0.5)),
            ("discounted_return", lambda n: (jnp.ones(n), 0.9), (values, 0.9))):
        fn = getattr(exercise, name)
        program = _guard(name, lambda: checks.program_of(fn, *map(jnp.asarray, traced[:-1]), traced[-1],
                                                         what=name))
        checks.assert_computes(program, expected[name], what=name)
        checks.assert_uses(program, {"scan", "while"}, what=name, tool="lax.scan",
                           hint="Scan over the arrays themselves: a closed-form formula or a Python loop "
                                "gives the same numbers without the tool.")
        walks = {0: ("values", 0), 1: ("weights", 0)} if name == "weighted_ema" else {0: ("rewards", 0)}
        checks.assert_loop_returns(program, {"scan", "while"}, what=name, tool="lax.scan", walks=walks)
        checks.assert_loops_rolled(program, what=name)
        lengths = sorted({int(eqn.params.get("length", 0)) for eqn in program.live("scan")})
        if len(values) not in lengths:
            seen = (f"its scan runs {' or '.join(map(str, lengths))} step(s)" if lengths
                    else "its loop is not a lax.scan")
            checks.fail(f"{name} on {len(values)} elements: {seen}, not one step per element. Scanning over "
                        f"the arrays hands the body one element (one pair) per step, so the scan's length is "
                        f"the arrays' length; a loop over a reshaped stack, or a closed-form formula in a "
                        f"loop of its own, computes the answer without that. "
                        f"See {checks.DOCS}/_autosummary/jax.lax.scan.html", "wrong-tool")
        checks.assert_not_unrolled({n: checks.jaxpr_size(fn, *make(n)) for n in (8, 64)}, what=name,
                                   hint="Scan over the arrays instead of looping over their elements "
                                        "in Python.")
