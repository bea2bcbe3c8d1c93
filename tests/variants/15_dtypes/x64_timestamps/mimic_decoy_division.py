"""Wrong: right int64 values, but the division JAX computes is thrown away; the answer returned was divided by NumPy on the host."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    with jax.enable_x64(True):
        jnp.asarray(ns) // 1_000_000
        return jnp.asarray(ns // 1_000_000)
