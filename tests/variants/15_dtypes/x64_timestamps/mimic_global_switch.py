"""Wrong: right int64 values, but it switches 64-bit types on for the whole program and never switches them back."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    jax.config.update("jax_enable_x64", True)
    return jnp.asarray(ns, dtype=jnp.int64) // 1_000_000
