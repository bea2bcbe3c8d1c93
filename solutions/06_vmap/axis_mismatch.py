"""Reference solution for vmap-2: c carries its examples along axis 1."""

import jax
import jax.numpy as jnp


def add_three(a: jnp.ndarray, b: jnp.ndarray, c: jnp.ndarray) -> jnp.ndarray:
    return a + b + c


# a: rows are examples; b: shared; c: columns are examples.
add_batched = jax.vmap(add_three, in_axes=(0, None, 1))
