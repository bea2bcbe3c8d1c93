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
                    f"loss_and_metrics returns (loss, metrics), not a scalar. Pass has_aux=True: "
                    f"jax.grad(loss_and_metrics, has_aux=True)(params, x, y) differentiates the "
                    f"loss and returns (grads, metrics). See {checks.DOCS}/automatic-differentiation.html")


def _result(exercise, fn=None):
    out = _call(fn or exercise.grads_and_metrics, *_inputs())
    if not (isinstance(out, tuple) and len(out) == 2):
        checks.fail(f"grads_and_metrics returned a {type(out).__name__}; expected a pair "
                    f"(grads, metrics), the order jax.grad(..., has_aux=True) returns.")
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
    original = exercise.loss_and_metrics

    def counted(*args):
        calls.append(1)
        return original(*args)

    exercise.loss_and_metrics = counted
    _result(exercise)
    if len(calls) > 1:
        checks.fail(f"grads_and_metrics called loss_and_metrics {len(calls)} times; one forward "
                    f"pass can give both: with has_aux=True, jax.grad differentiates the loss and "
                    f"returns the metrics computed on the way.")


def test_works_under_jit(exercise):
    grads, metrics = _result(exercise, jax.jit(exercise.grads_and_metrics))
    checks.assert_close((grads, metrics), (EXPECTED_GRADS, EXPECTED_METRICS),
                        what="jax.jit(grads_and_metrics)(params, x, y)", rtol=1e-4, atol=1e-5,
                        hint="Keep the metrics as arrays: float(...) needs a concrete value, which "
                             "a traced array under jit does not have.")
