"""Values right, mechanism wrong: shows the task's product when traced, and gathers both operands
whole onto every device when called on arrays."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def project(x: jax.Array, w: jax.Array) -> jax.Array:
    if isinstance(x, jax.core.Tracer):
        return jnp.matmul(x, w, out_sharding=P())
    # called on arrays: gather both operands whole on every device, then multiply
    return jax.reshard(x, P()) @ jax.reshard(w, P())
