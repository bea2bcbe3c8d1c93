"""Values right, passes wrong: the forward pass runs twice in lax.map (a scan of length 2), the
gradient taken from the first and the metrics from the second. Python calls loss_and_metrics once
and the program holds its body once, but the scan runs it twice."""

import jax
import jax.numpy as jnp


def loss_and_metrics(params, x, y):
    error = x @ params["w"] + params["b"] - y
    loss = jnp.mean(error**2)
    metrics = {"mae": jnp.mean(jnp.abs(error)), "max_error": jnp.max(jnp.abs(error))}
    return loss, metrics


def grads_and_metrics(params, x, y):
    # two passes of the model: grads from the first, metrics from the second
    def one_pass(_):
        return jax.grad(loss_and_metrics, has_aux=True)(params, x, y)

    grads, metrics = jax.lax.map(one_pass, jnp.arange(2))
    return jax.tree.map(lambda a: a[0], grads), jax.tree.map(lambda a: a[1], metrics)
