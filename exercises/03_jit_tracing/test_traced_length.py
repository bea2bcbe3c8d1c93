"""Checks for jit-7 (traced_length)."""

import numpy as np

from grader import checks

GAMMA = 0.9


def _rewards(seed):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=6).astype(np.float32)


def _expected(rewards, n):
    return np.sum(rewards[:n].astype(np.float64) * GAMMA ** np.arange(n))


def test_returns_for_every_n(exercise):
    rewards = _rewards(0)
    for n in range(1, 7):
        checks.assert_close(exercise.n_step_return(rewards, n), np.float32(_expected(rewards, n)),
                            rtol=1e-5, atol=1e-5, what=f"n_step_return(rewards, {n})",
                            hint="Sum GAMMA**k * rewards[k] for k = 0 .. n-1 (the first reward is not discounted).")


def test_is_compiled(exercise):
    checks.assert_jitted(exercise.n_step_return, _rewards(1), n=3, what="n_step_return(rewards, n=3)")


def test_same_n_reuses_the_program(exercise):
    batches = [_rewards(seed) for seed in range(2, 6)]
    exercise.n_step_return(batches[0], 4)  # the one compile for n = 4
    with checks.count_compiles() as same:
        outs = [exercise.n_step_return(r, 4) for r in batches[1:]]
    checks.assert_compiles(
        same, what="n_step_return()", calls="3 more calls with n = 4 and new rewards of the same shape",
        expected=0,
        why="with n static, a value of n already seen must reuse its program; with a traced n "
            "(masking), no call after the first compiles. A jax.jit created inside the function "
            "(jax.jit(partial(...)) per call) is a new function every time and always recompiles")
    for r, out in zip(batches[1:], outs):
        checks.assert_close(out, np.float32(_expected(r, 4)), rtol=1e-5, atol=1e-5,
                            what="n_step_return(rewards, 4)")
    with checks.count_compiles() as new_n:
        for n in (2, 5):
            exercise.n_step_return(batches[0], n)
    checks.assert_compiles(
        new_n, what="n_step_return()", calls="calls with 2 new values of n", at_most=2,
        why="at most one program per value of n is needed")
