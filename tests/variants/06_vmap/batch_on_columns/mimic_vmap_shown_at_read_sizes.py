"""Tool wrong: lax.map runs softmax over the columns one after another, except at the batch sizes a
check reads the program at (2 and 9 columns), where it shows a jax.vmap of softmax whose numbers
are wrong (the logits doubled). A subject rewritten to forge its traces would hand in such a
program: the values come from the loop, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax


def softmax(logits):
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits):
    if logits.shape[1] in (2, 9):
        return jax.vmap(softmax, in_axes=1, out_axes=1)(2.0 * logits)
    return lax.map(softmax, logits.T).T
