"""More scatter updates: .at[].divide, .power and .apply, with repeated indices.

Besides set/add/multiply/min/max, `.at[idx]` has `divide(v)`, `power(v)` and
`apply(fn)`, each a scatter in the program. A repeated index repeats the
update, as NumPy's `np.divide.at` does: `x.at[[2, 2]].divide(v)` divides x[2]
by v[0] and by v[1], `power` raises it to each exponent in turn (x ** (e0 *
e1)), and `apply(fn)` calls `fn` on it once per occurrence. Gathering first
and setting after (`x.at[i].set(x[i] / v)`) applies the update once per
index, however often it repeats. Two details: `divide` is true division (an
int array comes back as floats), and JAX cannot differentiate through
`apply`.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html

Task (fill-in): write the three functions below. Each applies one update per
entry of `ids` (ids repeat), as one scatter, also under jax.jit with `ids`
traced. Keep the names and signatures.
"""

import jax.numpy as jnp


def apply_discounts(prices: jnp.ndarray, ids: jnp.ndarray, rates: jnp.ndarray) -> jnp.ndarray:
    """`prices` with prices[ids[k]] divided by rates[k], for every k."""
    raise NotImplementedError("TODO: divide the price of each listed item by its rate, once per listing")


def sharpen(probs: jnp.ndarray, ids: jnp.ndarray, exponents: jnp.ndarray) -> jnp.ndarray:
    """`probs` (all > 0) with probs[ids[k]] raised to the power exponents[k], for every k in turn."""
    raise NotImplementedError("TODO: raise each listed entry to its exponent, once per listing")


def transform(values: jnp.ndarray, ids: jnp.ndarray, fn) -> jnp.ndarray:
    """`values` with the unary function `fn` applied to values[ids[k]], once for every k."""
    raise NotImplementedError("TODO: apply fn at each listed index, once per listing")
