"""Wrong: right numbers, but a Python loop over the columns unrolls one softmax per example."""

import jax.numpy as jnp


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    return jnp.stack([softmax(logits[:, i]) for i in range(logits.shape[1])], axis=1)
