"""Wrong: hard-codes the {"w", "b"} dict the visible checks use instead of mapping over any pytree."""

from functools import partial

import jax


@partial(jax.jit, donate_argnums=0)
def sgd_update(params, grads, lr):
    return {"w": params["w"] - lr * grads["w"], "b": params["b"] - lr * grads["b"]}
