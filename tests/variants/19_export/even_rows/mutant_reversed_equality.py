"""Wrong: the equality written the other way round: JAX rewrites b only from "b == ...", so the
export still fails."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    rows = jax.export.symbolic_shape(f"b, {features}", constraints=("2*k == b",))
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(rows, jnp.float32))
