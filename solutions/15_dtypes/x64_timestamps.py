"""Reference solution for dtype-4: 64-bit integers for this computation only, integer floor division."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    # The context manager turns int64 on here and restores the caller's setting on the way out;
    # the array it returns stays int64.
    with jax.enable_x64(True):
        return jnp.asarray(ns, dtype=jnp.int64) // 1_000_000
