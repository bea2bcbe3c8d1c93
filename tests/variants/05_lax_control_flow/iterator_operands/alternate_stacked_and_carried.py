"""Right, unusually: scan over one stacked (T, 2) array, and carry the discount factor instead of an index."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def step(total, row):
        total = decay * total + row[1] * row[0]
        return total, total

    _, out = lax.scan(step, jnp.zeros((), values.dtype), jnp.stack([values, weights], axis=1))
    return out


def discounted_return(rewards, gamma):
    def step(carry, reward):
        total, factor = carry
        return (total + factor * reward, factor * gamma), None

    (total, _), _ = lax.scan(step, (jnp.zeros((), rewards.dtype), jnp.ones((), rewards.dtype)), rewards)
    return total
