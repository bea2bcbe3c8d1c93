"""Wrong: right numbers, but averaged eagerly after pmap: every device ends up holding the whole stack, not its own row."""

import jax
import jax.numpy as jnp


def loss(params, xs, ys):
    return jnp.mean((xs @ params["w"] + params["b"] - ys) ** 2)


def parallel_grads(params, xs, ys):
    per_device = jax.pmap(jax.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    return jax.tree.map(lambda g: jnp.broadcast_to(g.mean(axis=0), g.shape), per_device)
