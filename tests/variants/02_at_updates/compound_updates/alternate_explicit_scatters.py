"""Right, unusually: builds the combined divisor and exponent with .multiply on ones, and calls lax.scatter_apply."""

import jax.numpy as jnp
from jax import lax


def apply_discounts(prices, ids, rates):
    return prices / jnp.ones_like(prices).at[ids].multiply(rates)


def sharpen(probs, ids, exponents):
    return probs ** jnp.ones_like(probs).at[ids].multiply(exponents)


def transform(values, ids, fn):
    numbers = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                          scatter_dims_to_operand_dims=(0,))
    return lax.scatter_apply(values, ids[:, None], fn, numbers, update_shape=ids.shape)
