"""Right, unusually: the squares and their sum are one vdot of the bfloat16 error with itself, accumulated in float32."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = x.astype(BF16) @ params["w"].astype(BF16) + params["b"].astype(BF16)
    err = (pred - y.astype(BF16)).ravel()
    return jnp.vdot(err, err, preferred_element_type=jnp.float32) / err.size


def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
