"""Reference solution for vmap-4: two vmaps, each holding the other argument fixed."""

import jax
import jax.numpy as jnp


def distance(x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    return jnp.sqrt(jnp.sum((x - y) ** 2))


def pairwise_distances(xs: jnp.ndarray, ys: jnp.ndarray) -> jnp.ndarray:
    one_x_to_all_ys = jax.vmap(distance, in_axes=(None, 0))  # (d,), (m, d) -> (m,)
    return jax.vmap(one_x_to_all_ys, in_axes=(0, None))(xs, ys)  # -> (n, m)
