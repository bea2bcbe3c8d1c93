"""Wrong: updates the weights in bfloat16 and keeps them that way: the master copy is lost."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = x.astype(BF16) @ params["w"].astype(BF16) + params["b"].astype(BF16)
    return jnp.mean((pred - y.astype(BF16)).astype(jnp.float32) ** 2)


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p.astype(BF16) - lr * g.astype(BF16), params, grads)
