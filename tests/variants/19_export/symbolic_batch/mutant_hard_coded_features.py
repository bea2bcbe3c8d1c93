"""Wrong: copies "b, 4" from the lesson, so it only works when features is 4."""

import jax
import jax.numpy as jnp


def export_batched(f, features):
    spec = jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 4"), jnp.float32)
    return jax.export.export(jax.jit(f))(spec)
