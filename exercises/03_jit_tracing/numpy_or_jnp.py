"""NumPy or jax.numpy? Traced values need jnp; static shapes want NumPy.

Under jit, array *values* are tracers: a NumPy function would need the real
numbers, so `np.sin(x)` raises TracerArrayConversionError (and outside jit it
quietly turns the jax.Array into a NumPy array). Use `jnp` on values. Shapes,
on the other hand, are ordinary Python tuples of ints while tracing: compute
with them in Python/NumPy and the result is a constant baked into the program.
Pass them through `jnp` and they become traced values, which `reshape` cannot
use as a size (shapes must be known when the program is built).
Docs: https://docs.jax.dev/en/latest/jit-compilation.html
      https://docs.jax.dev/en/latest/notebooks/thinking_in_jax.html

Task (fix-it): both functions fail under jit. `damped_wave` applies NumPy
to a traced value; `as_matrix` (reshape to 2-D: the first two axes become the
rows, all the others the columns) does its shape arithmetic with jnp. Fix
each with the right library; keep both jitted, names and signatures as given.
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def damped_wave(x: jnp.ndarray) -> jnp.ndarray:
    return np.sin(3 * x) * jnp.exp(-x ** 2)


@jax.jit
def as_matrix(x: jnp.ndarray) -> jnp.ndarray:
    return x.reshape(jnp.prod(jnp.array(x.shape[:2])), -1)
