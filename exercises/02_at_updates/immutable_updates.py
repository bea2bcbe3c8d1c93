"""Immutable arrays: update with `.at[...]`, not item assignment.

NumPy changes an array in place: `w[i] = v`, `w[i] += v`. JAX arrays are
immutable (a traced function's inputs can never change behind its back), so
item assignment raises a TypeError. The functional form returns a new array
and leaves the old one alone: `w.at[i].set(v)`, `w.at[i].add(v)`,
`w.at[i].multiply(v)`; `i` may be an index array. Under jit, XLA performs
these updates in place whenever the old array is not needed afterwards, so
the copy you asked for costs nothing there.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates

Task (fix-it): `reweight` was ported from NumPy and fails on JAX arrays. Make
it work on JAX arrays, eagerly and under jax.jit, leaving the caller's array as
it was and never copying values back to NumPy: banned ids get weight 0,
boosted ids gain BONUS, damped ids are scaled by FACTOR. The index arrays hold
no repeats and share no id. Keep the signature.
"""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights: jnp.ndarray, banned: jnp.ndarray, boosted: jnp.ndarray,
             damped: jnp.ndarray) -> jnp.ndarray:
    weights[banned] = 0.0
    weights[boosted] += BONUS
    weights[damped] *= FACTOR
    return weights
