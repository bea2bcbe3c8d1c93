"""Values right, but no checkpoint at all: every layer keeps all five values its backward pass reads."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name


def block(x, weights):
    w1, w2 = weights
    pre = checkpoint_name(x @ w1, "pre")
    return jnp.tanh(jnp.sin(pre) @ w2), None


def loss(params, x):
    y, _ = lax.scan(block, x, params)
    return jnp.mean(y ** 2)
