"""Wrong: exports for any row count and silently drops the last row when the count is odd."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    rows = jax.export.symbolic_shape(f"b, {features}")
    even = jax.jit(lambda x: pair_rows(x[: x.shape[0] // 2 * 2]))
    return jax.export.export(even)(jax.ShapeDtypeStruct(rows, jnp.float32))
