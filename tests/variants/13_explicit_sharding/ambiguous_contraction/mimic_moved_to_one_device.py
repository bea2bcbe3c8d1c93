"""Values right, placement wrong: the replicated product is moved onto device 0 alone afterwards, so the other devices hold nothing."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@jax.jit
def _project(x, w):
    return jnp.matmul(x, w, out_sharding=P())


def project(x, w):
    return jax.device_put(_project(x, w), jax.devices()[0])
