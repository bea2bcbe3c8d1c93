"""Wrong: converts the timestamps to a JAX array before turning 64-bit types on, so they arrive as int32 (wrapped); the division afterwards is exact integer arithmetic on the wrong numbers."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    x = jnp.asarray(ns)
    with jax.enable_x64(True):
        return x.astype(jnp.int64) // 1_000_000
