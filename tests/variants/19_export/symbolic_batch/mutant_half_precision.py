"""Wrong: exports for float16 inputs, so the float32 batches the task names are refused."""

import jax
import jax.numpy as jnp


def export_batched(f, features):
    spec = jax.ShapeDtypeStruct(jax.export.symbolic_shape(f"b, {features}"), jnp.float16)
    return jax.export.export(jax.jit(f))(spec)
