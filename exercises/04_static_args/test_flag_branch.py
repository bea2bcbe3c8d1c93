"""Checks for static-1 (flag_branch)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([1.5, -2.0, 0.25], dtype=np.float32)


def test_negates_only_when_flag_is_set(exercise):
    x = jnp.asarray(X)
    checks.assert_close(exercise.apply_sign(x, True), -X, what="apply_sign(x, True)")
    checks.assert_close(exercise.apply_sign(x, False), X, what="apply_sign(x, False)")
    checks.assert_close(exercise.apply_sign(x, neg=True), -X, what="apply_sign(x, neg=True)")


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    for neg in (True, False):
        checks.assert_jitted(lambda v: exercise.apply_sign(v, neg), x, what=f"apply_sign(x, {neg})")


def test_compiles_each_flag_value_at_most_once(exercise):
    x = jnp.asarray(X)
    for neg in (True, False):
        with checks.count_compiles() as first:
            exercise.apply_sign(x, neg)
        checks.assert_compiles(
            first, what="apply_sign()", calls=f"the first call with neg={neg}", at_most=1,
            why="A new flag value should cost exactly one program")
    with checks.count_compiles() as repeats:
        for neg in (True, False, True, False, True, False):
            exercise.apply_sign(x, neg)
    checks.assert_compiles(
        repeats, what="apply_sign()", calls="6 more calls with flag values it has already seen",
        expected=0,
        why="jit caches one program per static value, so a repeated flag must reuse it. Something "
            "defeats the cache: a jax.jit or lambda created inside the call is a new function "
            "every time. Decorate the module-level function once, with neg static")
