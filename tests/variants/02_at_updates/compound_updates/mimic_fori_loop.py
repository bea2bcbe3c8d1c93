"""Wrong: right values, but fn is applied by a fori_loop over the ids, one serial step per id, instead of one scatter."""

from jax import lax


def apply_discounts(prices, ids, rates):
    return prices.at[ids].divide(rates)


def sharpen(probs, ids, exponents):
    return probs.at[ids].power(exponents)


def transform(values, ids, fn):
    return lax.fori_loop(0, ids.shape[0], lambda k, v: v.at[ids[k]].set(fn(v[ids[k]])), values)
