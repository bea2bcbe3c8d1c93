"""Wrong: converts the metrics to Python floats for logging, which fails under jit (traced values)."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    grads, metrics = jax.grad(loss_and_metrics, has_aux=True)(params, x, y)
    return grads, {name: float(value) for name, value in metrics.items()}
