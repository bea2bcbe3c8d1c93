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


def _assert_trains_only_the_head(loss, grads, *, what, hint=""):
    """The backbone's gradient is zero (the lesson, checked first), the head's is the usual one,
    and the loss value is the plain one."""
    if jax.tree.structure(grads) != jax.tree.structure(PARAMS):
        checks.fail(f"{what} returned gradients with structure {jax.tree.structure(grads)}; "
                    f"expected that of params, {jax.tree.structure(PARAMS)}.", "wrong-shape")
    size = float(np.abs(np.asarray(grads["backbone"]["w"])).max())
    if size != 0.0:
        checks.fail(f"{what} gives the backbone weights a gradient (largest entry "
                    f"{size:.3g}), so training would change them. A copy (jnp.copy, jnp.array) is "
                    f"differentiable like any other operation. jax.lax.stop_gradient is the tool: "
                    f"the same value forward, no gradient back through it, placed anywhere on the "
                    f"backbone's path to the loss. "
                    f"See {checks.DOCS}/_autosummary/jax.lax.stop_gradient.html")
    checks.assert_close(grads["head"], HEAD_GRADS, what=f"{what}: the head's gradient",
                        rtol=1e-4, atol=1e-5,
                        hint="Only the backbone is frozen: stop the gradient at the features, not at "
                             f"the loss or the head. {hint}".strip())
    checks.assert_close(loss, LOSS, what=f"{what}: the loss value", rtol=1e-5, atol=1e-6,
                        hint="stop_gradient changes nothing in the forward pass; the loss must be the "
                             "plain mean squared error of head(backbone(x)).")


def test_trains_only_the_head_at_the_same_loss(exercise):
    loss, grads = jax.value_and_grad(exercise.finetune_loss)(*_inputs())
    _assert_trains_only_the_head(loss, grads, what="jax.value_and_grad(finetune_loss)")


def test_trains_only_the_head_under_jit(exercise):
    loss, grads = jax.jit(jax.value_and_grad(exercise.finetune_loss))(*_inputs())
    _assert_trains_only_the_head(loss, grads, what="jax.jit(jax.value_and_grad(finetune_loss))",
                                 hint="Freeze with a JAX operation (jax.lax.stop_gradient); NumPy "
                                      "cannot see traced values.")
