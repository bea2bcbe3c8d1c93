"""Wrong: right numbers, but the discounted return is a closed-form sum, not the scan the task asks for."""

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
    return jnp.sum(gamma ** jnp.arange(rewards.shape[0]) * rewards)
