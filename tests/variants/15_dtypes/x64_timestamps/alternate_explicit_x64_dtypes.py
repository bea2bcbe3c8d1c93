"""Right, unusually: allows explicitly requested 64-bit dtypes (jax_explicit_x64_dtypes) for the call, restoring it after."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    before = jax.config.jax_explicit_x64_dtypes
    jax.config.update("jax_explicit_x64_dtypes", "allow")
    try:
        return jnp.asarray(ns, dtype=jnp.int64) // jnp.int64(1_000_000)
    finally:
        jax.config.update("jax_explicit_x64_dtypes", before)
