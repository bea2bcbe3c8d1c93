"""Wrong: distance is written out for the 3-D points the visible checks use, so other dimensions give wrong numbers (only the hidden check catches it)."""

import jax
import jax.numpy as jnp


def distance(x, y):
    return jnp.sqrt((x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2 + (x[2] - y[2]) ** 2)


def pairwise_distances(xs, ys):
    one_x_to_all_ys = jax.vmap(distance, in_axes=(None, 0))
    return jax.vmap(one_x_to_all_ys, in_axes=(0, None))(xs, ys)
