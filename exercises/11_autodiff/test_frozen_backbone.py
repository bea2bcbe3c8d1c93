"""Checks for grad-5 (frozen_backbone)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(2)
X = RNG.standard_normal((5, 4)).astype(np.float32)
Y = RNG.standard_normal((5, 2)).astype(np.float32)
PARAMS = {
    "backbone": {"w": RNG.standard_normal((4, 3)).astype(np.float32)},
    "head": {"w": RNG.standard_normal((3, 2)).astype(np.float32), "b": np.zeros(2, np.float32)},
}
FEATURES = np.tanh(X @ PARAMS["backbone"]["w"])
ERROR = FEATURES @ PARAMS["head"]["w"] + PARAMS["head"]["b"] - Y
LOSS = np.mean(ERROR**2)
HEAD_GRADS = {"w": 2 * FEATURES.T @ ERROR / ERROR.size, "b": 2 * ERROR.sum(0) / ERROR.size}


def _inputs():
    return jax.tree.map(jnp.asarray, PARAMS), jnp.asarray(X), jnp.asarray(Y)


def _grads(exercise):
    grads = jax.grad(exercise.finetune_loss)(*_inputs())
    if jax.tree.structure(grads) != jax.tree.structure(PARAMS):
        checks.fail(f"jax.grad(finetune_loss) returned structure {jax.tree.structure(grads)}; "
                    f"expected that of params, {jax.tree.structure(PARAMS)}.")
    return grads


def test_backbone_gets_no_gradient(exercise):
    grads = _grads(exercise)
    size = float(np.abs(np.asarray(grads["backbone"]["w"])).max())
    if size != 0.0:
        checks.fail(f"jax.grad(finetune_loss) gives the backbone weights a gradient (largest entry "
                    f"{size:.3g}), so training would change them. A copy (jnp.copy, jnp.array) is "
                    f"differentiable like any other operation. Wrap the backbone's output (or its "
                    f"params) in jax.lax.stop_gradient: same value forward, zero gradient back. "
                    f"See {checks.DOCS}/_autosummary/jax.lax.stop_gradient.html")


def test_head_still_learns(exercise):
    checks.assert_close(_grads(exercise)["head"], HEAD_GRADS, what="jax.grad(finetune_loss)(...)['head']",
                        rtol=1e-4, atol=1e-5,
                        hint="Only the backbone is frozen: stop the gradient at the features, not at "
                             "the loss or the head.")


def test_loss_value_is_unchanged(exercise):
    checks.assert_close(exercise.finetune_loss(*_inputs()), LOSS, what="finetune_loss(params, x, y)",
                        rtol=1e-5, atol=1e-6,
                        hint="stop_gradient changes nothing in the forward pass; the loss must be the "
                             "plain mean squared error of head(backbone(x)).")


def test_works_under_jit(exercise):
    grads = jax.jit(jax.grad(exercise.finetune_loss))(*_inputs())
    checks.assert_close(grads["head"], HEAD_GRADS, what="jax.jit(jax.grad(finetune_loss))(...)['head']",
                        rtol=1e-4, atol=1e-5,
                        hint="Freeze with a JAX operation (jax.lax.stop_gradient); NumPy cannot see "
                             "traced values.")
