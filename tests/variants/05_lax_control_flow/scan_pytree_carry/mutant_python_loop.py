"""Wrong: sidesteps the carry by looping in Python: right numbers, one copy of the body per step."""

import jax
import jax.numpy as jnp


@jax.jit
def running_mean(xs):
    total, means = jnp.zeros_like(xs[0]), []
    for t in range(xs.shape[0]):
        total = total + xs[t]
        means.append(total / (t + 1))
    return {"total": total, "count": xs.shape[0]}, jnp.stack(means)
