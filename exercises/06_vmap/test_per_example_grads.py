"""Checks for vmap-6 (per_example_grads)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D = 3
HINT = "jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)): params shared, examples and labels mapped."


def _inputs(batch, seed=0):
    rng = np.random.default_rng(seed)
    params = {"w": rng.normal(size=D).astype(np.float32), "b": np.float32(0.5)}
    xs = rng.normal(size=(batch, D)).astype(np.float32)
    ys = rng.normal(size=batch).astype(np.float32)
    return params, xs, ys


def _by_hand(params, xs, ys):
    residual = xs @ params["w"] + params["b"] - ys  # d loss / d prediction = 2 * residual
    return {"w": 2.0 * residual[:, None] * xs, "b": 2.0 * residual}


def _call(exercise, params, xs, ys):
    return jax.jit(exercise.per_example_grads)(params, xs, ys)


def test_one_gradient_per_example(exercise):
    params, xs, ys = _inputs(batch=5)
    grads = _call(exercise, params, xs, ys)
    want = _by_hand(params, xs, ys)
    checks.assert_close(grads, want, what="per_example_grads(params, xs, ys) with 5 examples",
                        rtol=1e-4, atol=1e-5,
                        hint="Expected a dict with w of shape (5, 3) and b of shape (5,): one gradient "
                             "per example, not their sum or mean. " + HINT)


def test_average_of_per_example_grads_is_the_batch_gradient(exercise):
    params, xs, ys = _inputs(batch=8, seed=1)
    grads = _call(exercise, params, xs, ys)
    want = _by_hand(params, xs, ys)
    mean = {k: np.asarray(v).mean(axis=0) for k, v in grads.items()} if isinstance(grads, dict) else grads
    checks.assert_close(mean, {k: v.mean(axis=0) for k, v in want.items()},
                        what="the mean over examples of per_example_grads(params, xs, ys)", rtol=1e-4, atol=1e-5,
                        hint=HINT)


def test_program_does_not_grow_with_batch(exercise):
    checks.assert_not_unrolled_over_batch(exercise.per_example_grads, _inputs, (2, 9),
                                          what="per_example_grads", hint=HINT)
