"""Wrong: right numbers, but stacks one copy of the filter per device before pmap."""

import jax
import jax.numpy as jnp


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs, w):
    return jax.pmap(convolve)(xs, jnp.stack([w] * jax.device_count()))
