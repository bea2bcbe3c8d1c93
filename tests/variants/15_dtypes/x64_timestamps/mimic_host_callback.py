"""Wrong: right int64 values, but the division runs in NumPy on the host through jax.pure_callback."""

import jax
import jax.numpy as jnp


def to_milliseconds(ns):
    with jax.enable_x64(True):
        x = jnp.asarray(ns)
        return jax.pure_callback(lambda a: a // 1_000_000, jax.ShapeDtypeStruct(x.shape, jnp.int64), x)
