"""Values right, place wrong: called, a pure_callback picks the branch in Python on the host; traced
(by a check that reads its program, or by vmap), it shows a jitted lax.cond without any callback
instead, one whose odd branch computes 3n - 1 past 2**16, where vmap's batches never reach. A
subject rewritten to forge its traces would hand in such a program."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def _host_step(n):
    n = np.asarray(n)
    return np.where(n % 2 == 0, n // 2, 3 * n + 1).astype(np.int32)


@jax.jit
def _on_the_host(n):
    return jax.pure_callback(_host_step, jax.ShapeDtypeStruct(n.shape, jnp.int32), n,
                             vmap_method="expand_dims")


@jax.jit
def _for_show(n):
    return lax.cond(n % 2 == 0, lambda n: n // 2, lambda n: 3 * n + jnp.where(n > 2**16, -1, 1), n)


def collatz_step(n):
    return (_for_show if isinstance(n, jax.core.Tracer) else _on_the_host)(n)
