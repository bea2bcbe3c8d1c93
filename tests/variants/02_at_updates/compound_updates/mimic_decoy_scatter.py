"""Wrong: log-space scatter-adds give the values; the divide and power scatters are called but their results thrown away."""

import jax.numpy as jnp


def apply_discounts(prices, ids, rates):
    prices.at[ids].divide(rates)
    return prices / jnp.exp(jnp.zeros(prices.shape, jnp.result_type(rates, 1.0)).at[ids].add(jnp.log(rates)))


def sharpen(probs, ids, exponents):
    probs.at[ids].power(exponents)
    return jnp.exp(jnp.log(probs) * jnp.exp(jnp.zeros_like(probs).at[ids].add(jnp.log(exponents))))


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
