"""Reference solution for export-3: the symbolic row count is declared even."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    # 2*k rows: the reshape to (k, 2 * features) holds for every k, and the artefact
    # refuses an odd number of rows when it is called.
    rows = jax.export.symbolic_shape(f"2*k, {features}")
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(rows, jnp.float32))
