"""Wrong: right int64 values and jax_enable_x64 left alone, but it switches on its sibling
jax_explicit_x64_dtypes globally and never switches it back: every later explicit 64-bit request in
the program is honoured from then on, and jit cache keys change."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    jax.config.update("jax_explicit_x64_dtypes", "allow")
    return jnp.asarray(ns, dtype=jnp.int64) // 1_000_000
