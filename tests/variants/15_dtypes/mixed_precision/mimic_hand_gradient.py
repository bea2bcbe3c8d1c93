"""Wrong: right step and bfloat16 matmuls, but train_step writes the MSE gradient out by hand instead of taking jax.grad of loss_fn."""

import jax.numpy as jnp


def loss_fn(params, x, y):
    pred = x.astype(jnp.bfloat16) @ params["w"].astype(jnp.bfloat16) + params["b"].astype(jnp.bfloat16)
    return jnp.mean((pred - y.astype(jnp.bfloat16)).astype(jnp.float32) ** 2)


def train_step(params, x, y, lr):
    xb = x.astype(jnp.bfloat16)
    pred = xb @ params["w"].astype(jnp.bfloat16) + params["b"].astype(jnp.bfloat16)
    err = (pred - y.astype(jnp.bfloat16)).astype(jnp.float32)
    g = (2.0 / err.size * err).astype(jnp.bfloat16)
    grad_w = (xb.T @ g).astype(jnp.float32)
    grad_b = jnp.sum(g.astype(jnp.float32), axis=0)
    return {"w": params["w"] - lr * grad_w, "b": params["b"] - lr * grad_b}
