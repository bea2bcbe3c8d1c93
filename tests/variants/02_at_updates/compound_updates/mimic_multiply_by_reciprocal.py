"""Values right for float prices, dtype wrong for int ones: multiplies by 1 / rate instead of dividing,
so an int array keeps its dtype and each quotient is truncated, where .at[].divide gives floats."""

import jax.numpy as jnp


def apply_discounts(prices, ids, rates):
    return prices.at[ids].multiply(1.0 / rates)


def sharpen(probs, ids, exponents):
    return probs.at[ids].power(exponents)


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
