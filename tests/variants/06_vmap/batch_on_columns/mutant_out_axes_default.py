"""Wrong: maps the columns but leaves out_axes at 0, so the result comes back as (batch, classes)."""

import jax
import jax.numpy as jnp


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    return jax.vmap(softmax, in_axes=1)(logits)
