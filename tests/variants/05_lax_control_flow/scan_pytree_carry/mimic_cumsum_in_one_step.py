"""Values right, loop wrong: a lax.scan of one step over the whole series, whose step computes the
running means with a cumsum: the scan returns the result, but it does not step through the series."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def running_mean(xs):
    counts = jnp.arange(1, xs.shape[0] + 1).reshape((-1,) + (1,) * (xs.ndim - 1))

    def step(stats, block):
        totals = stats["total"] + jnp.cumsum(block, axis=0)
        return {"total": totals[-1], "count": stats["count"] + block.shape[0]}, totals / counts

    init = {"total": jnp.zeros_like(xs[0]), "count": jnp.int32(0)}
    stats, means = lax.scan(step, init, xs[None])
    return stats, means[0]
