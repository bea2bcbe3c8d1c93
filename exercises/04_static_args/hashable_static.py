"""Static arguments must be hashable.

jit looks a static argument up in its cache of compiled programs, so the
value must be hashable (and compare equal when it is the same). A list, a
dict or an array is not: passing one as a static argument fails with
`ValueError: Non-hashable static arguments are not supported`. Either turn it
into something hashable with value equality (a tuple, before it reaches jit)
or do not make it static at all: numbers that only feed arithmetic can be
traced, as an array or as a list of scalars (a list is a pytree).
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html

Task (fix-it): callers pass the coefficients as a Python list (highest power
first, like `np.polyval`), and every call fails. Make
`polynomial(x, [c0, c1, ...])` work and stay compiled with jit, with no new
compile when the same coefficients come again in a new list. Keep the name
and the signature.
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="coeffs")
def polynomial(x: jnp.ndarray, coeffs: list[float]) -> jnp.ndarray:
    result = jnp.zeros_like(x)
    for c in coeffs:  # Horner's rule
        result = result * x + c
    return result
