"""Wrong: no out_shardings, so the result keeps the rows layout instead of coming back by columns."""

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def center_columns(x: jax.Array) -> jax.Array:
    return x - jnp.mean(x, axis=0)


def make_centering(mesh: Mesh):
    rows = NamedSharding(mesh, P("data", None))
    columns = NamedSharding(mesh, P(None, "data"))
    return jax.jit(center_columns, in_shardings=rows)
