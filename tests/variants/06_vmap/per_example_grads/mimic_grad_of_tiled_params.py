"""Values right, mechanism wrong: one copy of the params per example, then one jax.grad of the
summed per-example losses (each copy's gradient is that example's), where the task keeps the params
shared and never copied per example."""

import jax
import jax.numpy as jnp


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    copies = jax.tree.map(lambda leaf: jnp.broadcast_to(leaf, (xs.shape[0],) + jnp.shape(leaf)), params)
    return jax.grad(lambda p: jnp.sum(jax.vmap(loss)(p, xs, ys)))(copies)
