"""Wrong: the sum of squares is a vdot of the bfloat16 error with itself that accumulates into bfloat16, cast to float32 only after."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = x.astype(BF16) @ params["w"].astype(BF16) + params["b"].astype(BF16)
    err = (pred - y.astype(BF16)).ravel()
    return jnp.vdot(err, err).astype(jnp.float32) / err.size


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
