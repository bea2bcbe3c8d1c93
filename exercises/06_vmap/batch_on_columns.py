"""out_axes: choose where the batch axis comes out.

vmap stacks the per-example results along `out_axes` (0 by default). When
your data keeps one example per column, say logits of shape
(classes, batch), map over axis 1 on the way in (`in_axes=1`) and put the
batch back on axis 1 on the way out (`out_axes=1`): no transposes needed.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html

Task (fill-in): `softmax(logits)` turns one example's logits, shape
(classes,), into probabilities. Write `softmax_columns(logits)` for logits of
shape (classes, batch), one example per column: it returns probabilities of
the same shape (classes, batch), each column summing to 1. Map `softmax`
with `jax.vmap` (no Python loop). Keep both signatures.
"""

import jax
import jax.numpy as jnp


def softmax(logits: jnp.ndarray) -> jnp.ndarray:
    shifted = logits - jnp.max(logits)
    return jnp.exp(shifted) / jnp.sum(jnp.exp(shifted))


def softmax_columns(logits: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: vmap softmax over the columns, with the batch on axis 1 in and out")
