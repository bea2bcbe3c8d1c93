"""Wrong: divides by the count before it is incremented (0 on the first step, then one short)."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def running_mean(xs):
    def step(stats, x):
        total = stats["total"] + x
        mean = total / jnp.maximum(stats["count"], 1)
        return {"total": total, "count": stats["count"] + 1}, mean

    return lax.scan(step, {"total": jnp.zeros_like(xs[0]), "count": 0}, xs)
