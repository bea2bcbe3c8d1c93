"""Shape polymorphism: tell the exporter what the symbolic dimension satisfies.

With a symbolic batch `b`, JAX checks each shape computation for every value
of `b` at once. `x.reshape(-1, 2 * d)` on a (b, d) array needs b * d to be a
multiple of 2 * d, that is an even `b`, which nothing guarantees for an
arbitrary `b`: export fails with InconclusiveDimensionOperation. Don't fix the
size and don't pad: state the fact in the symbolic shape. Its dimensions are
expressions in dimension variables, not just names: in "3*n, 4" the row count
is a multiple of 3 by construction, and shape arithmetic on it works with n.
`symbolic_shape(spec, constraints=...)` adds facts: an equality that defines a
variable ("b == 2*n" makes b stand for 2*n, the same as writing 2*n) or an
inequality ("b >= 2"), which says nothing a division can use. The artefact
checks the declared shapes whenever it is called: 5 rows are refused.
Docs: https://docs.jax.dev/en/latest/export/shape_poly.html

Task (fix-it): `export_pairs(features)` must export `pair_rows` (keep it as it
is) for float32 inputs with `features` columns, as one artefact for every
even number of rows.
"""

import jax
import jax.numpy as jnp


def pair_rows(x):
    """(n, d) -> (n / 2, 2 d): rows 0 and 1 side by side, then rows 2 and 3, and so on."""
    return x.reshape(-1, 2 * x.shape[1])


def export_pairs(features):
    rows = jax.export.symbolic_shape(f"b, {features}")
    return jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(rows, jnp.float32))
