"""Values right, tool wrong: jax.nn.softmax along axis 0 normalizes the columns without mapping the
exercise's softmax with jax.vmap (a change to softmax would never reach the batch)."""

import jax
import jax.numpy as jnp


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    return jax.nn.softmax(logits, axis=0)
