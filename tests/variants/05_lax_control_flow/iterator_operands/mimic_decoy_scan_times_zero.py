"""Wrong: closed-form formulas give the values; a lax.scan's result is added to them times zero, so
the outputs seem to depend on it while the scan contributes nothing."""

import jax.numpy as jnp
from jax import lax


def _decoy(x):
    return lax.scan(lambda carry, v: (carry, carry), jnp.zeros((), x.dtype), x)[1]


def weighted_ema(values, weights, decay):
    steps = jnp.arange(values.shape[0])
    lag = (steps[:, None] - steps[None, :]).astype(values.dtype)
    powers = jnp.where(lag >= 0, jnp.asarray(decay, values.dtype) ** jnp.maximum(lag, 0), 0.0)
    return powers @ (weights * values) + 0.0 * _decoy(values)


def discounted_return(rewards, gamma):
    closed = jnp.sum(gamma ** jnp.arange(rewards.shape[0]) * rewards)
    return closed + 0.0 * _decoy(rewards)[0]
