"""Reference solution for memory-1: checkpoint the scan's step, so each layer keeps only its input."""

import jax
import jax.numpy as jnp
from jax import lax


def layer(x, w):
    return jnp.tanh(x @ w), None


def loss(ws, x):
    # The backward pass re-runs each layer from its saved input instead of reading
    # stored activations: one (batch, width) array per layer instead of three.
    y, _ = lax.scan(jax.checkpoint(layer), x, ws)
    return jnp.mean(y ** 2)
