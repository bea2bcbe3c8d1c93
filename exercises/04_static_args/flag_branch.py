"""Static arguments: a Python `if` needs a value, not a tracer.

Under `jax.jit` every argument is traced: the function sees an abstract value
with a shape and dtype but no contents, so `if neg:` cannot be decided and
raises `TracerBoolConversionError`. Marking an argument static
(`jax.jit(f, static_argnums=1)`) hands it to Python as the real value: the
branch is decided while tracing, and jit keeps one compiled program per
distinct value of that argument, reusing it on every later call with it.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html

Task (fix-it): `apply_sign(x, neg)` should return `-x` when `neg` is true and
`x` otherwise, compiled with jit: at most one compile for each flag value,
none for repeats. Keep the name and the signature `apply_sign(x, neg)`.
"""

import jax
import jax.numpy as jnp


@jax.jit
def apply_sign(x: jnp.ndarray, neg: bool) -> jnp.ndarray:
    if neg:
        return -x
    return x
