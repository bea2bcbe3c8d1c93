"""Values right, tool wrong: one pass for the metrics, but the gradient is the mean-squared-error
formula worked out by hand: jax.grad never differentiates loss_and_metrics."""

import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    _, metrics = loss_and_metrics(params, x, y)
    error = x @ params["w"] + params["b"] - y
    return {"w": 2 * x.T @ error / y.shape[0], "b": 2 * jnp.mean(error)}, metrics
