"""Loop bodies are traced once: Python state inside them does not advance.

`lax.fori_loop(lower, upper, body, init)` traces `body(i, carry)` a single
time and compiles it into a loop. Anything Python-side that the body reads —
`next()` on an iterator, a counter in a closure — is evaluated during that one
trace and frozen into the program, so every iteration sees the same value.
The only thing that changes per iteration is what JAX passes in: `i` and the
carry.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html

Task (fix-it): `sum_of_squares(values)` should return the sum of the squares
of a 1-D array, as one loop run by JAX (not unrolled into one step per
element, not Python's over values copied to NumPy) that also works under
jax.jit.
"""

from jax import lax


def sum_of_squares(values):
    it = iter(values)
    return lax.fori_loop(0, values.shape[0], lambda i, total: total + next(it) ** 2, 0.0)
