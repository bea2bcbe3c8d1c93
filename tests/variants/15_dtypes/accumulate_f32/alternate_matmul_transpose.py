"""Right, unusually: jnp.dot and jnp.matmul against a transposed k (a transpose before the dot_general)."""

import jax.numpy as jnp


def project(x, w):
    return jnp.dot(x, w, preferred_element_type=jnp.float32)


def scores(q, k):
    return jnp.matmul(q, jnp.swapaxes(k, -1, -2), preferred_element_type=jnp.float32)
