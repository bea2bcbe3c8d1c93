"""Wrong: a lookup table of the numbers the visible checks use (6, 7, 1, 2, 27, 1024 and the warm-up 4) and their next steps; every other number gets 0 (only the hidden check catches it)."""

import jax
import jax.numpy as jnp
import numpy as np

SEEN = np.array([6, 7, 1, 2, 27, 1024, 4], dtype=np.int32)
NEXT = np.array([3, 22, 4, 1, 82, 512, 2], dtype=np.int32)


@jax.jit
def collatz_step(n):
    return jnp.sum(jnp.where(n == SEEN, NEXT, 0)).astype(jnp.int32)
