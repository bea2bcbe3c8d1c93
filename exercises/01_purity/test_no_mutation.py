"""Checks for purity-2 (no_mutation)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

PARAMS = {"w": np.array([1.0, -2.0, 3.0], np.float32), "b": np.array([0.5], np.float32)}
GRADS = {"w": np.array([0.1, 0.2, -0.3], np.float32), "b": np.array([1.0], np.float32)}
LR = 0.5
EXPECTED = {k: PARAMS[k] - LR * GRADS[k] for k in PARAMS}


def _inputs():
    return {k: jnp.asarray(v) for k, v in PARAMS.items()}, {k: jnp.asarray(v) for k, v in GRADS.items()}


def test_leaves_the_callers_params_untouched(exercise):
    # NumPy arrays, as a caller might pass: they, unlike jax.Arrays, can be changed in place.
    params = {k: v.copy() for k, v in PARAMS.items()}
    grads = {k: v.copy() for k, v in GRADS.items()}
    new = checks.assert_not_mutated(exercise.sgd_update, params, grads, LR, what="sgd_update(params, grads, lr)")
    checks.assert_close(new, EXPECTED, what="sgd_update(params, grads, lr)")


def test_same_inputs_give_the_same_result_twice(exercise):
    params, grads = _inputs()
    first = jax.tree.map(np.asarray, exercise.sgd_update(params, grads, LR))
    second = exercise.sgd_update(params, grads, LR)
    checks.assert_close(
        second, first, what="a second sgd_update(params, grads, lr) with the same inputs",
        hint="A pure function gives the same result for the same inputs; this one changed "
             "something the first call left behind (its input dict).")
    checks.assert_close(first, EXPECTED, what="sgd_update(params, grads, lr)")


def test_jitted_and_plain_calls_agree(exercise):
    params, grads = _inputs()
    compiled = jax.jit(exercise.sgd_update)(params, grads, LR)
    checks.assert_close(compiled, EXPECTED, what="jax.jit(sgd_update)(params, grads, lr)")
    plain = exercise.sgd_update(params, grads, LR)
    checks.assert_close(plain, compiled, what="sgd_update(params, grads, lr) without jit",
                        hint="Compiled and plain calls must agree; code that mutates its "
                             "inputs only 'works' in one of the two.")
    checks.assert_close(params, PARAMS, what="the caller's params after both calls",
                        hint="sgd_update must not write into the dict it was given.")
