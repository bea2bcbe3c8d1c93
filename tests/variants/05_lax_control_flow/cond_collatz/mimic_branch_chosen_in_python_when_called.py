"""Values right, tool wrong: a jitted lax.cond when traced or vmapped; called on an array, a Python if
on the number read back to the host picks one of two small jitted programs, both compiled at once."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _cond(n):
    return lax.cond(n % 2 == 0, lambda n: n // 2, lambda n: 3 * n + 1, n)


_even = jax.jit(lambda n: n // 2)
_odd = jax.jit(lambda n: 3 * n + 1)
_warm = []


def collatz_step(n):
    if isinstance(n, jax.core.Tracer):
        return _cond(n)
    if not _warm:
        _even(n); _odd(n); _warm.append(1)
    return _even(n) if int(n) % 2 == 0 else _odd(n)
