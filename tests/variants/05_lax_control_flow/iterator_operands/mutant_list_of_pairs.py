"""Wrong: list(zip(...)) is a pytree, but of scalar pairs with no leading axis for scan to slice."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    def step(total, pair):
        value, weight = pair
        total = decay * total + weight * value
        return total, total

    _, out = lax.scan(step, jnp.zeros((), values.dtype), list(zip(values, weights)))
    return out


def discounted_return(rewards, gamma):
    def step(total, item):
        t, reward = item
        return total + gamma ** t * reward, None

    total, _ = lax.scan(step, jnp.zeros((), rewards.dtype), list(enumerate(rewards)))
    return total
