"""Values right, update wrong: the divisor and exponent are the average of one scatter-multiply and a
dense product over a one-hot of the ids against every position."""
import jax
import jax.numpy as jnp


def _dense_prod(vals, ids, n):
    hit = ids[None, :] == jnp.arange(n)[:, None]          # (n, k) one-hot of the listings
    return jnp.prod(jnp.where(hit, vals[None, :], jnp.ones((), vals.dtype)), axis=1)


def _combined(vals, ids, n):
    scattered = jnp.ones(n, vals.dtype).at[ids].multiply(vals)
    return (scattered + _dense_prod(vals, ids, n)) / 2


def apply_discounts(prices, ids, rates):
    return prices / _combined(rates, ids, prices.shape[0])


def sharpen(probs, ids, exponents):
    return probs ** _combined(exponents, ids, probs.shape[0])


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
