"""Reference solution for dtype-2: bfloat16 forward, float32 mean, float32 master weights."""

import jax
import jax.numpy as jnp

COMPUTE = jnp.bfloat16


def loss_fn(params: dict, x: jax.Array, y: jax.Array) -> jax.Array:
    w, b = params["w"].astype(COMPUTE), params["b"].astype(COMPUTE)
    pred = x.astype(COMPUTE) @ w + b  # bf16 matmul and bias add
    err = pred - y.astype(COMPUTE)
    return jnp.mean(err.astype(jnp.float32) ** 2)  # sum and result in float32


@jax.jit
def train_step(params: dict, x: jax.Array, y: jax.Array, lr: float) -> dict:
    grads = jax.grad(loss_fn)(params, x, y)  # float32: the cast's gradient casts back
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
