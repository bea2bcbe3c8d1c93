"""Checks for jit-7 (traced_length)."""

import jax
import numpy as np

from grader import checks

GAMMA = 0.9


def _rewards(seed):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=6).astype(np.float32)


def _expected(rewards, n):
    return np.sum(rewards[:n].astype(np.float64) * GAMMA ** np.arange(n))


def _call(exercise, rewards, n):
    try:
        return exercise.n_step_return(rewards, n)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError) as error:
        checks.fail(f"n_step_return(rewards, {n}) cannot be traced ({type(error).__name__}): jnp.arange(n) "
                    f"and rewards[:n] need n's value to know their shapes, but under jit n is a tracer. "
                    f"Either jit must see n as a Python value (a static argument, one program per n), "
                    f"or no shape may depend on n (work on the whole array and mask the entries past "
                    f"n). See {checks.DOCS}/errors.html#jax.errors.ConcretizationTypeError", "traced-value")


def test_returns_for_every_n(exercise):
    rewards = _rewards(0)
    for n in range(1, 7):
        checks.assert_close(_call(exercise, rewards, n), np.float32(_expected(rewards, n)),
                            rtol=1e-5, atol=1e-5, what=f"n_step_return(rewards, {n})",
                            hint="Sum GAMMA**k * rewards[k] for k = 0 .. n-1 (the first reward is not discounted).")


def test_is_compiled(exercise):
    _call(exercise, _rewards(1), 3)
    checks.assert_jitted(exercise.n_step_return, _rewards(1), n=3, what="n_step_return(rewards, n=3)",
                         entirely=True, expected=np.float32(_expected(_rewards(1), 3)), atol=1e-5)


def test_same_n_reuses_the_program(exercise):
    batches = [_rewards(seed) for seed in range(2, 6)]
    with checks.count_compiles() as first:
        _call(exercise, batches[0], 4)  # the one compile for n = 4
    with checks.count_compiles() as same:
        outs = [_call(exercise, r, 4) for r in batches[1:]]
    checks.assert_compiles(
        same, what="n_step_return()", calls="3 more calls with n = 4 and new rewards of the same shape",
        expected=0, warm_up=first,
        why="with n static, a value of n already seen must reuse its program; with a traced n "
            "(masking), no call after the first compiles. A jax.jit created inside the function "
            "(a new jit of a lambda or a partial per call) is a new function every time and always "
            "recompiles")
    for r, out in zip(batches[1:], outs):
        checks.assert_close(out, np.float32(_expected(r, 4)), rtol=1e-5, atol=1e-5,
                            what="n_step_return(rewards, 4)")
    # n may be static (it is closed over here); the rewards are data, traced into one program.
    checks.assert_one_program(
        lambda rewards: exercise.n_step_return(rewards, 4), [(r,) for r in batches[1:]],
        what="n_step_return(rewards, 4)", calls_text="3 calls with n = 4 and new rewards of the same shape",
        expected=[np.float32(_expected(r, 4)) for r in batches[1:]], atol=1e-5,
        why="the rewards reach the program as compile-time constants: keep them traced")
    with checks.count_compiles() as new_n:
        for n in (2, 5):
            _call(exercise, batches[0], n)
    if new_n.count:  # a traced n (masking) needs no new program at all
        checks.assert_compiles(
            new_n, what="n_step_return()", calls="calls with 2 new values of n", at_most=2,
            why="at most one program per value of n is needed")
