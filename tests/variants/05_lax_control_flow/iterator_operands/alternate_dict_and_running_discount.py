"""Right, unusually: the ema scans a dict of arrays, and the return carries the running discount instead of a step index."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def step(total, row):
        total = decay * total + row["weight"] * row["value"]
        return total, total

    return lax.scan(step, jnp.zeros((), values.dtype), {"value": values, "weight": weights})[1]


def discounted_return(rewards, gamma):
    def step(carry, reward):
        total, discount = carry
        return (total + discount * reward, discount * gamma), None

    start = (jnp.zeros((), rewards.dtype), jnp.ones((), rewards.dtype))
    return lax.scan(step, start, rewards)[0][0]
