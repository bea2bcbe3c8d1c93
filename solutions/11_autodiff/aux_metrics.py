"""Reference solution for grad-3: has_aux=True."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    # Differentiates the loss; the metrics ride along, untouched by autodiff.
    return jax.grad(loss_and_metrics, has_aux=True)(params, x, y)
