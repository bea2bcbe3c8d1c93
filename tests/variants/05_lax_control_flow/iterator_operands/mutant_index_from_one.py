"""Wrong: counts the steps from 1, so even the first reward is discounted."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def step(total, pair):
        value, weight = pair
        total = decay * total + weight * value
        return total, total

    _, out = lax.scan(step, jnp.zeros((), values.dtype), (values, weights))
    return out


def discounted_return(rewards, gamma):
    def step(total, item):
        t, reward = item
        return total + gamma ** t * reward, None

    total, _ = lax.scan(step, jnp.zeros((), rewards.dtype), (jnp.arange(1, rewards.shape[0] + 1), rewards))
    return total
