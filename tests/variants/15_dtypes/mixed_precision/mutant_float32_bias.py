"""Wrong: the bias stays float32, so the bfloat16 matmul result is promoted and the bias add runs in float32."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = x.astype(BF16) @ params["w"].astype(BF16) + params["b"]
    err = pred - y.astype(BF16)
    return jnp.mean(err.astype(jnp.float32) ** 2)


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
