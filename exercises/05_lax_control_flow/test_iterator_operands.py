"""Checks for lax-9 (iterator_operands)."""

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


def _call(exercise, name, *args, jit=False):
    """exercise.<name>(*args), eagerly or under jax.jit; a Python iterator handed to JAX gets its lesson."""
    fn = getattr(exercise, name)
    try:
        return (jax.jit(fn) if jit else fn)(*args)
    except TypeError as error:
        if "is not a valid JAX type" not in str(error):
            raise
        kind = str(error).split("of type <class '", 1)[-1].split("'", 1)[0]
        checks.fail(f"{name} raised TypeError: a Python {kind} object reached a lax operation as an "
                    f"operand. lax.scan's xs (like lax.cond's operands and jit's arguments) must be "
                    f"arrays or a pytree of arrays (a tuple, list or dict of them): scan slices each "
                    f"array along its leading axis, one slice per step. An iterator is a one-shot "
                    f"Python object with no shape to slice. Hand over the arrays themselves; a step "
                    f"index is an array too. See {checks.DOCS}/_autosummary/jax.lax.scan.html",
                    "not-pytree")


def test_weighted_ema_scans_pairs(exercise):
    for n, decay in ((6, 0.5), (11, 0.9)):
        values = RNG.normal(size=n).astype(np.float32)
        weights = RNG.uniform(0.5, 2.0, size=n).astype(np.float32)
        want = _ema_reference(values, weights, decay)
        for jit in (False, True):
            got = _call(exercise, "weighted_ema", jnp.asarray(values), jnp.asarray(weights), decay, jit=jit)
            checks.assert_close(got, want, rtol=1e-5, atol=1e-6,
                                what=f"{'jax.jit(weighted_ema)' if jit else 'weighted_ema'}(values, weights, "
                                     f"{decay}) over {n} steps",
                                hint="Each step carries the running total and emits it: the body gets "
                                     "(values[t], weights[t]) and returns (total, total).")


def test_discounted_return_scans_with_the_step_index(exercise):
    for n, gamma in ((5, 0.9), (13, 0.5)):
        rewards = RNG.normal(size=n).astype(np.float32)
        want = _return_reference(rewards, gamma)
        for jit in (False, True):
            got = _call(exercise, "discounted_return", jnp.asarray(rewards), gamma, jit=jit)
            checks.assert_close(got, want, rtol=1e-5, atol=1e-6,
                                what=f"{'jax.jit(discounted_return)' if jit else 'discounted_return'}"
                                     f"(rewards, {gamma}) over {n} steps",
                                hint="The first reward is not discounted (gamma ** 0): the step index "
                                     "runs 0, 1, ..., n - 1, exactly what enumerate counted.")


def _sizes(fn, n_args):
    return {n: checks.jaxpr_size(fn, *n_args(n)) for n in (8, 64)}


def test_each_is_one_rolled_scan(exercise):
    values, weights = jnp.ones(8), jnp.ones(8)
    _call(exercise, "weighted_ema", values, weights, 0.5)
    _call(exercise, "discounted_return", values, 0.9)
    for name, make in (("weighted_ema", lambda n: (jnp.ones(n), jnp.ones(n), 0.5)),
                       ("discounted_return", lambda n: (jnp.ones(n), 0.9))):
        fn = getattr(exercise, name)
        program = checks.program_of(fn, *make(8), what=name)
        checks.assert_uses(program, {"scan", "while"}, what=name, tool="lax.scan",
                           hint="The task is a scan over the arrays; a closed-form formula skips it.")
        checks.assert_loops_rolled(program, what=name)
        checks.assert_not_unrolled({n: checks.jaxpr_size(fn, *make(n)) for n in (8, 64)}, what=name,
                                   hint="Scan over the arrays instead of looping over their elements "
                                        "in Python.")
