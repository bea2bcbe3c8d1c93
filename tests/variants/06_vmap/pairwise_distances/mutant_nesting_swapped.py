"""Wrong: the outer vmap maps over ys, so the matrix comes out transposed, shape (m, n)."""

import jax
import jax.numpy as jnp


def distance(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))


def pairwise_distances(xs, ys):
    one_y_to_all_xs = jax.vmap(distance, in_axes=(0, None))
    return jax.vmap(one_y_to_all_xs, in_axes=(None, 0))(xs, ys)
