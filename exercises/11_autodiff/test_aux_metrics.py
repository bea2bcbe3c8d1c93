"""Checks for grad-3 (aux_metrics)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(0)
X = RNG.standard_normal((8, 3)).astype(np.float32)
Y = RNG.standard_normal(8).astype(np.float32)
PARAMS = {"w": np.array([0.5, -1.0, 2.0], np.float32), "b": np.float32(0.25)}
ERROR = X @ PARAMS["w"] + PARAMS["b"] - Y
EXPECTED_GRADS = {"w": 2 * X.T @ ERROR / len(Y), "b": np.float32(2 * ERROR.mean())}
EXPECTED_METRICS = {"mae": np.abs(ERROR).mean(), "max_error": np.abs(ERROR).max()}


def _inputs():
    return {k: jnp.asarray(v) for k, v in PARAMS.items()}, jnp.asarray(X), jnp.asarray(Y)


def _call(fn, *args):
    try:
        return fn(*args)
    except TypeError as error:
        if "scalar" not in str(error):
            raise
        checks.fail(f"jax.grad refused the loss function ({str(error).split('. ')[0]}): "
                    f"loss_and_metrics returns (loss, metrics), not a scalar. jax.grad can be told "
                    f"that the function returns a scalar plus extra outputs: it then differentiates "
                    f"the scalar and hands the extras back beside the gradient. "
                    f"See {checks.DOCS}/automatic-differentiation.html", "error")


def _result(exercise, fn=None):
    out = _call(fn or exercise.grads_and_metrics, *_inputs())
    if not (isinstance(out, tuple) and len(out) == 2):
        checks.fail(f"grads_and_metrics returned a {type(out).__name__}; expected a pair "
                    f"(grads, metrics), the order jax.grad returns a gradient and its aux output in.",
                    "wrong-shape")
    return out


def test_gradient_is_of_the_loss_only(exercise):
    grads, _ = _result(exercise)
    checks.assert_close(grads, EXPECTED_GRADS, what="grads from grads_and_metrics(params, x, y)",
                        rtol=1e-4, atol=1e-5,
                        hint="The gradient must be of the loss alone, with the structure of params. "
                             "Adding the metrics into what is differentiated changes it.")


def test_metrics_come_back_with_the_gradient(exercise):
    _, metrics = _result(exercise)
    checks.assert_close(metrics, EXPECTED_METRICS, what="metrics from grads_and_metrics(params, x, y)",
                        rtol=1e-4, atol=1e-5,
                        hint="Return the metrics dict exactly as loss_and_metrics computes it: with "
                             "has_aux=True, jax.grad hands the aux output back next to the gradient.")


def test_model_runs_once_per_call(exercise):
    calls = []

    def counted(*args):
        calls.append(1)
        return original(*args)

    # Swapped wherever the answer refers to it, so a function bound at import is counted too.
    with checks.swap_function(exercise, "loss_and_metrics", counted) as original:
        _result(exercise)
    if len(calls) > 1:
        checks.fail(f"grads_and_metrics called loss_and_metrics {len(calls)} times; one forward "
                    f"pass can give both: with has_aux=True, jax.grad differentiates the loss and "
                    f"returns the metrics computed on the way.", "repeated-work")

    # A jitted loss_and_metrics is called once in Python however often its program runs: the
    # program says how often the forward pass is in it. `marked` computes one sine per pass (its
    # derivative, in the backward pass, is a cosine) for each of the 5 examples.
    def marked(params, x, y):
        prediction = x @ params["w"] + params["b"]
        return jnp.mean(jnp.sin(prediction) * y), {"mae": jnp.mean(jnp.abs(prediction)),
                                                     "max_error": jnp.max(prediction)}

    params, x, y = _inputs()  # 5 examples: shapes no jit cache holds a program of the original for
    with checks.swap_function(exercise, "loss_and_metrics", marked):
        program = checks.program_of(exercise.grads_and_metrics, params, x[:5], y[:5], what="grads_and_metrics")
    # One sine per example per pass: a scan (lax.map) runs its body once per step, vmap batches it.
    passes = program.times("sin", elements=True) // 5
    if passes > 1 or program.has("while"):
        how = "in a while loop" if passes <= 1 else f"{passes} times"
        checks.fail(f"grads_and_metrics's program runs loss_and_metrics' forward pass {how}: a jitted "
                    f"function called twice, a loop's body or a vmapped one is traced once and runs "
                    f"each time. One "
                    f"forward pass can give both: with has_aux=True, jax.grad differentiates the loss and "
                    f"returns the metrics computed on the way.", "repeated-work")


def _expected(params, x, y):
    error = x @ params["w"] + params["b"] - y
    grads = {"w": 2 * x.T @ error / len(y), "b": np.float32(2 * error.mean())}
    return grads, {"mae": np.abs(error).mean(), "max_error": np.abs(error).max()}


def test_gradient_is_of_loss_and_metrics_itself(exercise):
    # Another loss in loss_and_metrics' place: jax.grad of it follows; a gradient formula worked
    # out by hand does not. Values first (6 examples), then the swap on shapes not traced yet
    # (7 examples).
    rng = np.random.default_rng(6)
    params = {"w": rng.standard_normal(3).astype(np.float32), "b": np.float32(-0.5)}
    x, y = rng.standard_normal((6, 3)).astype(np.float32), rng.standard_normal(6).astype(np.float32)
    # Under jit: one compile per call instead of one per eager operation.
    checks.assert_close(_call(jax.jit(exercise.grads_and_metrics), params, x, y), _expected(params, x, y),
                        what="grads_and_metrics(params, x, y) with 6 examples", rtol=1e-4, atol=1e-5,
                        hint="The gradient of the loss alone, and the metrics as loss_and_metrics "
                             "computes them.")
    x, y = rng.standard_normal((7, 3)).astype(np.float32), rng.standard_normal(7).astype(np.float32)

    def another(params, x, y):
        prediction = x @ params["w"] + params["b"]
        # round's slope set to 1 by a rule JAX is given (jax.custom_jvp): only JAX's autodiff follows it
        loss = jnp.mean(jnp.sin(prediction) * y) + jnp.mean(checks.straight_through_round(prediction))
        return loss, {"mae": jnp.mean(jnp.abs(prediction)), "max_error": jnp.max(prediction)}

    with checks.swap_function(exercise, "loss_and_metrics", another):  # traced and on arrays: both
        outs = {"under jax.jit": _call(jax.jit(exercise.grads_and_metrics), params, x, y),
                "called directly": _call(exercise.grads_and_metrics, params, x, y)}
    prediction = x @ params["w"] + params["b"]
    slope = (np.cos(prediction) * y + 1) / len(y)
    want = ({"w": x.T @ slope, "b": np.float32(slope.sum())},
            {"mae": np.abs(prediction).mean(), "max_error": prediction.max()})
    for how, out in outs.items():
        checks.assert_follows(tuple(out) if isinstance(out, (tuple, list)) else out, want,
                              what=f"grads_and_metrics(params, x, y) {how}", swapped="loss_and_metrics",
                              rtol=1e-5, atol=1e-6,
                              hint="The gradient must come from differentiating loss_and_metrics with "
                                   "jax.grad, and the metrics from that same call. jax.grad follows the rules JAX "
                                   "knows for the loss's operations, custom ones included (this loss holds a round "
                                   "whose derivative JAX was told is 1, by jax.custom_jvp).")


def test_works_under_jit(exercise):
    grads, metrics = _result(exercise, jax.jit(exercise.grads_and_metrics))
    checks.assert_close((grads, metrics), (EXPECTED_GRADS, EXPECTED_METRICS),
                        what="jax.jit(grads_and_metrics)(params, x, y)", rtol=1e-4, atol=1e-5,
                        hint="Under jit the answer must give the same gradient and metrics as "
                             "without it.")
