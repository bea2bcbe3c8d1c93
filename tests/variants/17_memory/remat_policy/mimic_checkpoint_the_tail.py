"""Wrong: checkpoints only the work after pre, so pre is kept as that part's input: the right two arrays, but no name and no policy."""

import jax
import jax.numpy as jnp
from jax import lax


def _tail(pre, w2):
    return jnp.tanh(jnp.sin(pre) @ w2)


def block(x, weights):
    w1, w2 = weights
    pre = x @ w1
    return jax.checkpoint(_tail)(pre, w2), None


def loss(params, x):
    y, _ = lax.scan(block, x, params)
    return jnp.mean(y ** 2)
