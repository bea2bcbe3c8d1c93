"""Values right, place wrong: a pure_callback picks the branch in Python on the host, not in the program."""

import jax
import jax.numpy as jnp
import numpy as np


def _host_step(n):
    n = np.asarray(n)
    return np.where(n % 2 == 0, n // 2, 3 * n + 1).astype(np.int32)


@jax.jit
def collatz_step(n):
    return jax.pure_callback(_host_step, jax.ShapeDtypeStruct(n.shape, jnp.int32), n,
                             vmap_method="expand_dims")
