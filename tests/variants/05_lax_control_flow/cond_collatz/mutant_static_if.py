"""Wrong: a static n lets a Python `if` choose the branch, but every new n compiles again."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def _step(n):
    if n % 2 == 0:
        return jnp.int32(n // 2)
    return jnp.int32(3 * n + 1)


def collatz_step(n):
    return _step(int(n))
