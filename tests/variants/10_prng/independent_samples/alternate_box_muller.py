"""Right, another route: the Box-Muller transform of two uniform draws, each with a key of its own;
both the cosine and the sine half of each pair are kept (they are independent standard normals)."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    radius_key, angle_key = jax.random.split(key)
    pairs = (n + 1) // 2
    radius = jnp.sqrt(-2.0 * jnp.log1p(-jax.random.uniform(radius_key, (pairs,))))
    angle = 2.0 * jnp.pi * jax.random.uniform(angle_key, (pairs,))
    return jnp.concatenate([radius * jnp.cos(angle), radius * jnp.sin(angle)])[:n]
