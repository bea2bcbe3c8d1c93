"""Wrong: jnp statistics but no jit: every eager op ships its Python constants to the devices."""

import jax.numpy as jnp


def standardize(x):
    return (x - jnp.mean(x, axis=0)) / jnp.std(x, axis=0)
