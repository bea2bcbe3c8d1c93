"""Wrong: jnp.asarray ignores the index (default device), and a + b mixes two committed devices."""

import jax.numpy as jnp


def put_on(x, index):
    return jnp.asarray(x)


def add_on_first(a, b):
    return a + b
