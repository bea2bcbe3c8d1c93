"""Values right, tool wrong: lax.map runs softmax over the columns one at a time in a loop instead of
vmap vectorizing it."""

import jax.numpy as jnp
from jax import lax


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    return lax.map(softmax, logits.T).T
