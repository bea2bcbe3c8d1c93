"""Wrong: returns float32, but only after jnp.mean rounded the bfloat16 mean to bfloat16: the cast comes too late."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = x.astype(BF16) @ params["w"].astype(BF16) + params["b"].astype(BF16)
    return jnp.mean((pred - y.astype(BF16)) ** 2).astype(jnp.float32)


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
