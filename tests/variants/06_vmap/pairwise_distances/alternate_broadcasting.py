"""Right, unusually: broadcasting (n, 1, d) against (1, m, d) instead of vmap."""

import jax.numpy as jnp


def distance(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))


def pairwise_distances(xs, ys):
    return jnp.sqrt(jnp.sum((xs[:, None, :] - ys[None, :, :]) ** 2, axis=-1))
