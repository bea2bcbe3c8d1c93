"""Wrong: the tables are built with jnp inside the jitted function, so the program recomputes them."""

import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    k = jnp.arange(n)
    angles = 2 * jnp.pi * jnp.outer(k, k) / n
    return (frames @ jnp.cos(angles)) ** 2 + (frames @ jnp.sin(angles)) ** 2
