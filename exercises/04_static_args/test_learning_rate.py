"""Checks for static-3 (learning_rate)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

PARAMS = {"w": np.array([1.0, -2.0, 0.5], dtype=np.float32), "b": np.array(0.25, dtype=np.float32)}
GRADS = {"w": np.array([0.5, 0.5, -1.0], dtype=np.float32), "b": np.array(2.0, dtype=np.float32)}
# A decaying schedule: every step brings a learning rate never seen before.
RATES = [0.1 * 0.9 ** step for step in range(10)]


def _inputs():
    return jax.tree.map(jnp.asarray, PARAMS), jax.tree.map(jnp.asarray, GRADS)


def _expected(rate):
    return jax.tree.map(lambda p, g: p - rate * g, PARAMS, GRADS)


def test_takes_one_sgd_step(exercise):
    params, grads = _inputs()
    for rate in (0.1, 0.003):
        checks.assert_close(exercise.sgd_step(params, grads, rate), _expected(rate),
                            what=f"sgd_step(params, grads, {rate})")
    checks.assert_close(exercise.sgd_step(params, grads, learning_rate=0.5), _expected(0.5),
                        what="sgd_step(params, grads, learning_rate=0.5)")


def test_is_compiled_with_jit(exercise):
    params, grads = _inputs()
    checks.assert_jitted(lambda p, g: exercise.sgd_step(p, g, 0.1), params, grads,
                         what="sgd_step(params, grads, 0.1)")


def test_compiles_once_for_ten_learning_rates(exercise):
    params, grads = _inputs()
    # The first call may compile (the program, and any setup it does eagerly);
    # the nine new rates after it must not.
    with checks.count_compiles() as first:
        out = exercise.sgd_step(params, grads, RATES[0])
    with checks.count_compiles() as rest:
        for rate in RATES[1:]:
            out = exercise.sgd_step(params, grads, rate)
    checks.assert_close(out, _expected(RATES[-1]), what=f"sgd_step(params, grads, {RATES[-1]:.4f})")
    checks.assert_compiles(
        rest, what="sgd_step()",
        calls="the 9 new learning rates after the first", expected=0,
        why=f"Ten learning rates should cost one compile in all (the first call compiled "
            f"{first.count}). A static argument is part of the compiled program, so every new "
            "value compiles a new one. The learning rate only feeds arithmetic: drop it from "
            "static_argnums / static_argnames so it is traced, and new values reuse the program")
