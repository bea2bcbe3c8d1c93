"""Wrong: right values by summing logarithms with a scatter-add, not the divide/power scatter the task names."""

import jax.numpy as jnp


def apply_discounts(prices, ids, rates):
    return prices / jnp.exp(jnp.zeros(prices.shape, jnp.result_type(rates, 1.0)).at[ids].add(jnp.log(rates)))


def sharpen(probs, ids, exponents):
    return jnp.exp(jnp.log(probs) * jnp.exp(jnp.zeros_like(probs).at[ids].add(jnp.log(exponents))))


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
