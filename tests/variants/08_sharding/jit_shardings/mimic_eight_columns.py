"""Mimic: builds its own mesh of exactly 8 devices instead of using the one it is given: an error on any other count."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def center_columns(x):
    return x - jnp.mean(x, axis=0)


def make_centering(mesh):
    own = jax.make_mesh((8,), ("data",))
    return jax.jit(center_columns, in_shardings=NamedSharding(own, P("data", None)),
                   out_shardings=NamedSharding(own, P(None, "data")))
