"""Reference solution for vmap-3: in_axes=1 and out_axes=1."""

import jax
import jax.numpy as jnp


def softmax(logits: jnp.ndarray) -> jnp.ndarray:
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits: jnp.ndarray) -> jnp.ndarray:
    # Examples are columns going in, and stay columns coming out.
    return jax.vmap(softmax, in_axes=1, out_axes=1)(logits)
