"""Wrong: unpacks value_and_grad's ((loss, aux), grads) wrongly and returns the loss as the metrics."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    (loss, _), grads = jax.value_and_grad(loss_and_metrics, has_aux=True)(params, x, y)
    return grads, loss
