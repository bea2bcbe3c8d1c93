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


def test_one_jitted_sgd_step_for_ten_learning_rates(exercise):
    params, grads = _inputs()
    # The first call compiles the program; the nine new rates after it must not.
    with checks.count_compiles() as first:
        outs = [exercise.sgd_step(params, grads, RATES[0])]
    with checks.count_compiles() as rest:
        outs += [exercise.sgd_step(params, grads, rate) for rate in RATES[1:]]
    checks.assert_compiles(
        rest, what="sgd_step()", calls="the 9 new learning rates after the first", expected=0, warm_up=first,
        why="Ten learning rates should cost one compile in all. The rate reaches the program as a "
            "compile-time constant (a static argument, or a value captured by a jitted lambda made per "
            "call), so every new value compiles a new program. The learning rate only feeds "
            "arithmetic: as traced data, a new value runs the same program")
    checks.assert_one_program(
        exercise.sgd_step, [(params, grads, jnp.float32(rate)) for rate in RATES[1:3]], what="sgd_step()",
        calls_text="two new learning rates", expected=[_expected(rate) for rate in RATES[1:3]],
        why="The rate reaches the program as a compile-time constant. The learning rate only feeds "
            "arithmetic: as traced data, a new value runs the same program")
    # No recompiles must not mean no compiling: the step stays one jitted program...
    checks.assert_jitted(lambda p, g: exercise.sgd_step(p, g, 0.1), params, grads,
                         what="sgd_step(params, grads, 0.1)", entirely=True, expected=_expected(0.1))
    # ... that takes the exact step for every rate, passed by position or by name.
    for rate, out in zip(RATES, outs):
        checks.assert_close(out, _expected(rate), what=f"sgd_step(params, grads, {rate:.4f})")
    checks.assert_close(exercise.sgd_step(params, grads, 0.003), _expected(0.003),
                        what="sgd_step(params, grads, 0.003)")
    checks.assert_close(exercise.sgd_step(params, grads, learning_rate=0.5), _expected(0.5),
                        what="sgd_step(params, grads, learning_rate=0.5)")
    # Lists and tuples nested in the dict: the step applies to every leaf, whatever the structure.
    nested_params = {"layers": [np.array([[1.0, 2.0]], np.float32), np.array([-1.0], np.float32)],
                     "head": (np.array(3.0, np.float32),)}
    nested_grads = {"layers": [np.array([[0.5, -0.5]], np.float32), np.array([4.0], np.float32)],
                    "head": (np.array(-2.0, np.float32),)}
    out = exercise.sgd_step(jax.tree.map(jnp.asarray, nested_params),
                            jax.tree.map(jnp.asarray, nested_grads), 0.25)
    checks.assert_close(out, jax.tree.map(lambda p, g: p - 0.25 * g, nested_params, nested_grads),
                        what="sgd_step(params, grads, 0.25) on a dict of lists and tuples",
                        hint="Every leaf of the params pytree takes its own step, with its gradient.")
