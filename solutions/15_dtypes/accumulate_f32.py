"""Reference solution for dtype-3: bfloat16 operands, float32 accumulation, via preferred_element_type."""

import jax
import jax.numpy as jnp


def project(x: jax.Array, w: jax.Array) -> jax.Array:
    return jnp.matmul(x, w, preferred_element_type=jnp.float32)


def scores(q: jax.Array, k: jax.Array) -> jax.Array:
    return jnp.einsum("bsd,btd->bst", q, k, preferred_element_type=jnp.float32)
