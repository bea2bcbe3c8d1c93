"""Right, unusually: jnp.vectorize (built on jax.vmap) with a core signature, over the transposed
logits, transposed back."""

import jax.numpy as jnp


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    return jnp.vectorize(lambda v: softmax(v), signature="(c)->(c)")(logits.T).T
