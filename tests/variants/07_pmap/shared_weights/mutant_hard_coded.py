"""Wrong: hard-codes the filter the visible checks use, [0.5, -1.0, 2.0], and ignores the w argument."""

import jax
import jax.numpy as jnp

VISIBLE_FILTER = jnp.array([0.5, -1.0, 2.0], dtype=jnp.float32)


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs, w):
    return jax.pmap(lambda x: convolve(x, VISIBLE_FILTER))(xs)
