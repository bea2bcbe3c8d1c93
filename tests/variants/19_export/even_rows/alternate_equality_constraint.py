"""Right, differently: keeps the symbol b and states b == 2*k as an equality constraint, which JAX
0.10 accepts and which says the same as writing 2*k in the shape."""

import jax
import jax.numpy as jnp


def pair_rows(x):
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    rows = jax.export.symbolic_shape(f"b, {features}", constraints=("b == 2*k",))
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(rows, jnp.float32))
