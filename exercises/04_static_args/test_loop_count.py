"""Checks for static-2 (loop_count)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([4.0, 2.0, 9.0, 0.5], dtype=np.float32)


def _newton(n: int) -> np.ndarray:
    y = X.astype(np.float64)
    for _ in range(n):
        y = 0.5 * (y + X / y)
    return y


def test_applies_exactly_n_newton_steps(exercise):
    x = jnp.asarray(X)
    for n in (1, 2, 5):
        checks.assert_close(exercise.newton_sqrt(x, n), _newton(n), what=f"newton_sqrt(x, {n})",
                            hint="Start from y = x and apply newton_step exactly n times.")
    checks.assert_close(exercise.newton_sqrt(x, n=3), _newton(3), what="newton_sqrt(x, n=3)")


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    checks.assert_jitted(lambda v: exercise.newton_sqrt(v, 3), x, what="newton_sqrt(x, 3)")
    checks.assert_jitted(lambda v: exercise.newton_sqrt(v, n=3), x, what="newton_sqrt(x, n=3)")


def test_compiles_each_step_count_at_most_once(exercise):
    x = jnp.asarray(X)
    for n in (2, 5):
        with checks.count_compiles() as first:
            exercise.newton_sqrt(x, n)
        checks.assert_compiles(
            first, what="newton_sqrt()", calls=f"the first call with n={n}", at_most=1,
            why="A new step count should cost exactly one program")
    with checks.count_compiles() as repeats:
        for n in (2, 5, 2, 5, 2, 5):
            exercise.newton_sqrt(x, n)
    checks.assert_compiles(
        repeats, what="newton_sqrt()", calls="6 more calls with step counts it has already seen",
        expected=0,
        why="jit caches one program per static value of n, so a repeated n must reuse it. "
            "Something defeats the cache: jax.jit applied inside the call (to a lambda or a "
            "functools.partial) makes a new function each time. Decorate newton_sqrt itself once, "
            "with functools.partial(jax.jit, static_argnames=\"n\")")
