"""Wrong: closed-form formulas give the values; a lax.scan beside them runs but its result is thrown away."""

import jax.numpy as jnp
from jax import lax


def weighted_ema(values, weights, decay):
    lax.scan(lambda total, v: (total + v, None), jnp.zeros((), values.dtype), values)
    t = jnp.arange(values.shape[0])
    powers = jnp.where(t[:, None] >= t[None, :], decay ** (t[:, None] - t[None, :]).astype(values.dtype), 0.0)
    return powers @ (weights * values)


def discounted_return(rewards, gamma):
    lax.scan(lambda total, r: (total + r, None), jnp.zeros((), rewards.dtype), rewards)
    return jnp.sum(gamma ** jnp.arange(rewards.shape[0]) * rewards)
