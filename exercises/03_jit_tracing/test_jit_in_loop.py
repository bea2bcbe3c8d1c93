"""Checks for jit-8 (jit_in_loop)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

STEPS = 6


def _problem(seed, shape=(4,)):
    rng = np.random.default_rng(seed)
    w = jnp.asarray(rng.normal(size=shape).astype(np.float32))
    grads = [jnp.asarray(rng.normal(size=shape).astype(np.float32)) for _ in range(STEPS)]
    return w, grads


def _expected(w, grads, lr):
    w = np.asarray(w, np.float64)
    for g in grads:
        w = w - lr * np.asarray(g, np.float64)
    return w


def _clipped_step(w, grad, lr):
    """Another step in sgd_step's place, not linear in the gradient: steps no longer add up."""
    return w - lr * jnp.tanh(grad) * (1.0 + w * w)


def test_trains_with_one_compile_for_many_steps(exercise):
    w, grads = _problem(1)
    with checks.count_compiles() as first:
        exercise.train(w, grads, 0.1)
    loop_jit = ("jax.jit(...) inside the loop wraps a new function object each iteration, and jit's "
                "cache is per function object, so every step traces and compiles again. The jitted step "
                "must be created once, outside the loop, and called from it")
    checks.assert_compiles(first, what="train()", calls=f"a first run of {STEPS} steps", at_most=1,
                           why=loop_jit)
    with checks.count_compiles() as log:
        out = exercise.train(w, grads, 0.1)
    # The update runs in the program (stacking the list of gradients first may stay outside).
    checks.assert_jitted(exercise.train, w, grads, what="train(w, grads, lr=0.1)", lr=0.1, entirely=True,
                         allow=("stack", "concatenate", "broadcast_in_dim", "reshape"),
                         expected=_expected(w, grads, 0.1), atol=1e-5)
    checks.assert_compiles(
        log, what="train()", calls=f"a second run of {STEPS} steps with the same arrays", expected=0,
        warm_up=first,
        why="train makes its jitted function anew on every run (a jax.jit of a partial or lambda "
            "inside train): jit's cache is per function object, so a fresh one compiles again even for "
            "the same shapes. The jitted step must be created once, outside train")
    # Compiling once is only half of it: every step must still build on the last one.
    hint = "Each step is w = w - lr * grad, and each step starts from the last step's w."
    checks.assert_close(out, _expected(w, grads, 0.1), rtol=1e-5, atol=1e-5,
                        what="train(w, grads, lr=0.1)", hint=hint)
    checks.assert_close(exercise.train(w, grads, 0.5), _expected(w, grads, 0.5), rtol=1e-5, atol=1e-5,
                        what="train(w, grads, lr=0.5)", hint=hint)
    # And every step is the module's sgd_step, each on the last one's weights: with a step that is not
    # linear in its inputs in its place, the result follows it (summing the gradients into one update
    # gives sgd_step's numbers only because that step is linear). Shapes no other check traces.
    w, grads = _problem(7, shape=(7,))
    want = np.asarray(w, np.float64)
    for g in grads:
        want = want - 0.1 * np.tanh(np.asarray(g, np.float64)) * (1.0 + want * want)
    with checks.swap_function(exercise, "sgd_step", _clipped_step):
        got = exercise.train(w, grads, 0.1)
    checks.assert_follows(got, want, what="train(w, grads, 0.1)", swapped="sgd_step", rtol=1e-4, atol=1e-5,
                          hint="Call the module's sgd_step once per gradient, each on the weights the "
                               "last step returned.")


def test_new_learning_rate_reuses_the_program(exercise):
    # Another shape than the check above, so this first run compiles whatever ran before.
    w, grads = _problem(2, shape=(5,))
    with checks.count_compiles() as first:
        exercise.train(w, grads, 0.1)  # the first run compiles
    w2, grads2 = _problem(3, shape=(5,))
    with checks.count_compiles() as log:
        out = exercise.train(w2, grads2, 0.05)
    checks.assert_compiles(
        log, what="train()", calls="a second run with a new learning rate and the same shapes",
        expected=0, warm_up=first,
        why="the learning rate reached the program as a compile-time constant (captured by a "
            "partial or lambda, or a static argument), so a new value compiles a new program. "
            "Pass lr to the jitted function as an ordinary argument")
    checks.assert_close(out, _expected(w2, grads2, 0.05), rtol=1e-5, atol=1e-5,
                        what="train(w, grads, lr=0.05)")
    checks.assert_one_program(
        exercise.train, [(w, grads, 0.1), (w2, grads2, 0.05)], what="train(w, grads, lr)",
        calls_text="two learning rates and the same shapes",
        expected=[_expected(w, grads, 0.1), _expected(w2, grads2, 0.05)], atol=1e-5,
        why="the learning rate reaches the program as a compile-time constant: pass lr to the jitted "
            "function as an ordinary argument")
