"""Values right, tool wrong: broadcasting (n, 1, d) against (1, m, d) re-derives the Euclidean formula
instead of nesting jax.vmap around distance (a change to distance would never reach it)."""

import jax.numpy as jnp


def distance(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))


def pairwise_distances(xs, ys):
    return jnp.sqrt(jnp.sum((xs[:, None, :] - ys[None, :, :]) ** 2, axis=-1))
