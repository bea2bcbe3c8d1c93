"""Reference solution for dtype-1: bring y and gain to x's dtype before any arithmetic."""

import jax.numpy as jnp


def blend(x: jnp.ndarray, y: jnp.ndarray, gain) -> jnp.ndarray:
    # A strong NumPy scalar, or a y of another float type, would widen the result:
    # convert both explicitly, so every operation runs in x's dtype.
    y = y.astype(x.dtype)
    gain = jnp.asarray(gain, dtype=x.dtype)
    return x + gain * y
