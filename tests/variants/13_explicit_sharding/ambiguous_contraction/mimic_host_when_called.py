"""Values right, mechanism wrong: shows the task's product when traced, and multiplies on the host
when called on arrays (the result copied to every device)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P


def project(x: jax.Array, w: jax.Array) -> jax.Array:
    if isinstance(x, jax.core.Tracer):
        return jnp.matmul(x, w, out_sharding=P())
    # called on arrays: multiply on the host and copy the result everywhere
    return jax.device_put(np.asarray(x) @ np.asarray(w), P())
