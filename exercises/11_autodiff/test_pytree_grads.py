"""Checks for grad-4 (pytree_grads)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(1)
X = RNG.standard_normal((6, 3)).astype(np.float32)
Y = RNG.standard_normal((6, 2)).astype(np.float32)
PARAMS = {"w": RNG.standard_normal((3, 2)).astype(np.float32), "b": np.array([0.3, -0.2], np.float32)}
LR = 0.1


def _loss64(params):
    # The same loss, in float64 NumPy: an independent reference for finite differences.
    x, y = X.astype(np.float64), Y.astype(np.float64)
    return np.mean((x @ params["w"] + params["b"] - y) ** 2)


def _finite_difference_grads(h=1e-6):
    base = {k: v.astype(np.float64) for k, v in PARAMS.items()}
    grads = {}
    for name, value in base.items():
        grad = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            up = {k: v.copy() for k, v in base.items()}
            down = {k: v.copy() for k, v in base.items()}
            up[name][index] += h
            down[name][index] -= h
            grad[index] = (_loss64(up) - _loss64(down)) / (2 * h)
        grads[name] = grad.astype(np.float32)
    return grads


FD_GRADS = _finite_difference_grads()


def _params():
    return {k: jnp.asarray(v) for k, v in PARAMS.items()}


def test_gradient_has_the_structure_of_params(exercise):
    grads = exercise.loss_grads(_params(), jnp.asarray(X), jnp.asarray(Y))
    if jax.tree.structure(grads) != jax.tree.structure(PARAMS):
        checks.fail(f"loss_grads returned a pytree with structure {jax.tree.structure(grads)}; "
                    f"expected the structure of params, {jax.tree.structure(PARAMS)}. jax.grad(loss) "
                    f"differentiates the first argument, the whole params dict, and returns a dict "
                    f"like it. See {checks.DOCS}/automatic-differentiation.html")
    for name in PARAMS:
        checks.assert_shape_dtype(grads[name], PARAMS[name].shape, np.float32, what=f"loss_grads(...)['{name}']",
                                  hint="Each gradient has the shape of its parameter.")


def test_gradient_matches_finite_differences(exercise):
    grads = exercise.loss_grads(_params(), jnp.asarray(X), jnp.asarray(Y))
    checks.assert_close(grads, FD_GRADS, what="loss_grads(params, x, y)", rtol=1e-4, atol=1e-5,
                        hint="Central finite differences of the loss disagree with it: differentiate "
                             "`loss` with respect to params (argument 0) with jax.grad.")


def test_sgd_step_updates_every_leaf_downhill(exercise):
    new = exercise.sgd_step(_params(), jnp.asarray(X), jnp.asarray(Y), LR)
    expected = {k: PARAMS[k] - LR * FD_GRADS[k] for k in PARAMS}
    checks.assert_close(new, expected, what=f"sgd_step(params, x, y, lr={LR})", rtol=1e-4, atol=1e-5,
                        hint="Every leaf moves against its gradient: p - lr * g. jax.tree.map("
                             "lambda p, g: p - lr * g, params, grads) updates them all.")
    before, after = _loss64(PARAMS), _loss64({k: np.asarray(v, np.float64) for k, v in new.items()})
    if not after < before:
        checks.fail(f"one sgd_step raised the loss from {before:.4f} to {after:.4f}; a small step "
                    f"against the gradient lowers it. Subtract lr * grad, do not add it.")
