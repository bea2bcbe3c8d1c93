"""Right, unusually: bias first, matmul and bias add in bfloat16, then the residual taken in float32 against the float32 y."""

import jax
import jax.numpy as jnp

BF16 = jnp.bfloat16


def loss_fn(params, x, y):
    pred = jnp.add(params["b"].astype(BF16), jnp.matmul(x.astype(BF16), params["w"].astype(BF16)))
    err = pred.astype(jnp.float32) - y
    return jnp.sum(err * err) / err.size


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
