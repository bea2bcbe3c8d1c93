"""Values right, tool wrong: jnp.cumsum gives the running totals, so there is no scan and no carry."""

import jax
import jax.numpy as jnp


@jax.jit
def running_mean(xs):
    totals = jnp.cumsum(xs, axis=0)
    counts = jnp.arange(1, xs.shape[0] + 1, dtype=xs.dtype).reshape((-1,) + (1,) * (xs.ndim - 1))
    return {"total": totals[-1], "count": jnp.int32(xs.shape[0])}, totals / counts
