"""Values right and a checkpoint in the program, but policy everything_saveable keeps every value anyway."""

import jax
import jax.numpy as jnp
from jax import lax


def layer(x, w):
    return jnp.tanh(x @ w), None


def loss(ws, x):
    step = jax.checkpoint(layer, policy=jax.checkpoint_policies.everything_saveable)
    y, _ = lax.scan(step, x, ws)
    return jnp.mean(y ** 2)
