"""Wrong: the step emits the total it received, so the series lags one step behind."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def step(total, pair):
        value, weight = pair
        return decay * total + weight * value, total

    _, out = lax.scan(step, jnp.zeros((), values.dtype), (values, weights))
    return out


def discounted_return(rewards, gamma):
    def step(total, item):
        t, reward = item
        return total + gamma ** t * reward, None

    total, _ = lax.scan(step, jnp.zeros((), rewards.dtype), (jnp.arange(rewards.shape[0]), rewards))
    return total
