"""Wrong: declares the even rows but copies 3 columns from an example instead of using features."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    rows = jax.export.symbolic_shape("2*k, 3")
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(rows, jnp.float32))
