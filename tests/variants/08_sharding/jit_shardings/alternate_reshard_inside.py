"""Right, unusually: in_shardings as a tuple, the output layout set by jax.sharding.reshard inside."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def center_columns(x):
    return x - jnp.mean(x, axis=0)


def make_centering(mesh):
    columns = NamedSharding(mesh, P(None, "data"))

    def centered_by_columns(x):
        # An Explicit-axes mesh (jax.make_mesh's default) changes layout with reshard.
        return jax.sharding.reshard(center_columns(x), columns)

    return jax.jit(centered_by_columns, in_shardings=(NamedSharding(mesh, P("data")),))
