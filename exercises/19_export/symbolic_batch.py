"""jax.export: one artefact for every batch size, with a symbolic dimension.

`jax.export.export(jax.jit(f))(*specs)` traces and lowers `f` once, for
argument specs (`jax.ShapeDtypeStruct(shape, dtype)`), into a
`jax.export.Exported`: a StableHLO program plus its input and output types,
which can be saved and run later without `f`'s Python code. A concrete spec
such as (32, 4) fixes the batch size for good. A symbolic one keeps it open:
`jax.export.symbolic_shape("b, 4")` gives the shape (b, 4), the artefact's
`in_avals` read `float32[b,4]`, and shapes inside `f` are computed with `b`.
`exported.call(x)` then takes any batch size: each new size compiles the same
StableHLO for that size, and `f` is never traced again.
Docs: https://docs.jax.dev/en/latest/export/shape_poly.html

Task (fill-in): `export_batched(f, features)` exports `f`, a function of one
float32 array of shape (batch, features), as ONE artefact that serves every
batch size, and returns the `jax.export.Exported`.
"""


def export_batched(f, features):
    raise NotImplementedError("TODO: export jax.jit(f) for a float32 spec whose batch dimension is symbolic")
