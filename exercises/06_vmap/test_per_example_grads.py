"""Checks for vmap-6 (per_example_grads)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D = 3
HINT = ("Differentiate one example's loss and map that over the examples: params are shared by "
        "every example, and example i goes with its own label ys[i].")


def _inputs(batch, seed=0, d=D):
    rng = np.random.default_rng(seed)
    params = {"w": rng.normal(size=d).astype(np.float32), "b": np.float32(0.5)}
    xs = rng.normal(size=(batch, d)).astype(np.float32)
    ys = rng.normal(size=batch).astype(np.float32)
    return params, xs, ys


def _by_hand(params, xs, ys):
    residual = xs @ params["w"] + params["b"] - ys  # d loss / d prediction = 2 * residual
    return {"w": 2.0 * residual[:, None] * xs, "b": 2.0 * residual}


def _matches(grads, want):
    return isinstance(grads, dict) and grads.keys() == want.keys() and all(
        np.shape(grads[k]) == want[k].shape and np.allclose(grads[k], want[k], rtol=2e-5, atol=1e-5)
        for k in want)


def _call(exercise, params, xs, ys):
    return jax.jit(exercise.per_example_grads)(params, xs, ys)


def test_one_gradient_per_example(exercise):
    params, xs, ys = _inputs(batch=5)
    grads = _call(exercise, params, xs, ys)
    want = _by_hand(params, xs, ys)
    # Exact derivatives agree to float32 rounding; a finite difference is off by ~1e-3.
    checks.assert_close(grads, want, what="per_example_grads(params, xs, ys) with 5 examples",
                        rtol=2e-5, atol=1e-5,
                        hint="Expected a dict with w of shape (5, 3) and b of shape (5,): one exact "
                             "gradient per example, not their sum or mean. " + HINT)


def test_average_of_per_example_grads_is_the_batch_gradient(exercise):
    params, xs, ys = _inputs(batch=8, seed=1)
    grads = _call(exercise, params, xs, ys)
    want = _by_hand(params, xs, ys)
    shapes = {k: np.shape(v) for k, v in grads.items()} if isinstance(grads, dict) else None
    if shapes is not None and shapes != {k: v.shape for k, v in want.items()}:
        checks.fail(f"per_example_grads(params, xs, ys) with 8 examples returned leaves of shapes "
                    f"{shapes}; expected w (8, {D}) and b (8,): one gradient per example, stacked "
                    f"along a new leading axis, not one gradient for the whole batch. {HINT}", "wrong-shape")
    mean = {k: np.asarray(v).mean(axis=0) for k, v in grads.items()} if isinstance(grads, dict) else grads
    checks.assert_close(mean, {k: v.mean(axis=0) for k, v in want.items()},
                        what="the mean over examples of per_example_grads(params, xs, ys)", rtol=2e-5, atol=1e-5,
                        hint=HINT)


def test_differentiates_loss_itself(exercise):
    # Another loss in loss's place: the gradients of an answer built on jax.grad(loss) follow
    # it; a gradient formula derived by hand does not, nor a Jacobian of loss called once on the
    # whole batch (the max below is one label under vmap, every label in such a call). Values
    # first (batch 7), so a wrong answer hears about its values; then the swap on shapes not
    # traced yet (batch 6).
    params, xs, ys = _inputs(batch=7, seed=7, d=4)
    checks.assert_close(_call(exercise, params, xs, ys), _by_hand(params, xs, ys), rtol=2e-5, atol=1e-5,
                        what="per_example_grads(params, xs, ys) with 7 examples of 4 features", hint=HINT)
    params, xs, ys = _inputs(batch=6, seed=6, d=4)

    def another(params, x, y):  # round's slope set to 1 by a rule JAX is given: only JAX's autodiff follows it
        return (jnp.sin(jnp.dot(params["w"], x)) + params["b"] ** 2 * jnp.max(y)
                + checks.straight_through_round(params["b"]))

    with checks.swap_function(exercise, "loss", another):
        outs = checks.both_ways(exercise.per_example_grads, params, xs, ys)  # traced and on arrays: both
    w_rows = np.cos(xs @ params["w"])[:, None] * xs
    whole_batch = {"w": w_rows, "b": np.full(len(ys), 2.0 * params["b"] * ys.max() + 1, np.float32)}
    want = {"w": w_rows, "b": 2.0 * params["b"] * ys + 1}
    for how, grads in outs.items():
        if _matches(grads, whole_batch):
            checks.fail("per_example_grads(params, xs, ys) calls loss once with the whole batch: with "
                        "loss swapped for one that takes the max of its y, every example's gradient "
                        "used the max over all labels. jnp.dot happens to broadcast, but a one-example "
                        "loss need not: map jax.grad(loss) with jax.vmap, which hands it one example "
                        "and one label at a time.", "wrong-tool")
        checks.assert_follows(grads, want, what=f"per_example_grads(params, xs, ys) {how}", swapped="loss",
                              rtol=2e-5, atol=1e-5,
                              hint="The gradients must come from differentiating loss itself "
                                   "(jax.grad), not from a derivative worked out by hand: jax.grad follows "
                                   "the rules JAX knows for loss's operations, custom ones included (this loss "
                                   "holds a round whose derivative JAX was told is 1, by jax.custom_jvp).",
                              shape_hint="One gradient per example: every leaf gains a leading batch axis.")


def test_program_does_not_grow_with_batch(exercise):
    programs = checks.assert_not_unrolled_over_batch(exercise.per_example_grads, _inputs, (2, 9),
                                                     what="per_example_grads", hint=HINT, expected=_by_hand,
                                                     rtol=2e-5, atol=1e-5)
    what = "per_example_grads(params, xs, ys)"
    program = programs[9]  # run and compared with the gradients above: the program that computes them
    largest = program.largest_value()
    if largest is not None and largest.size >= 9 * 9:
        checks.fail(f"{what} with 9 examples of {D} features builds {largest.str_short()}: work on "
                    f"the whole batch for each example, such as a reverse-mode Jacobian of every example's "
                    f"loss at once (one backward pass per example, each through all 9). Per-example "
                    f"gradients need one example's work per example, batch x features at most. {HINT}",
                    "wrong-tool")
    params, xs, ys = _inputs(batch=9)
    checks.assert_no_stacked_copies(exercise.per_example_grads, params, xs, ys,
                                    shared={"[0]['w']": "the shared weights w"}, copies=9,
                                    what=f"{what} with 9 examples", hint=HINT)
    checks.assert_not_uses(
        program, {"scan", "while"}, what=what,
        why="A loop primitive (lax.map, scan, fori_loop) computes the gradients one example after "
            "another; mapping the gradient function with jax.vmap gives them all in one "
            "vectorized program.")
