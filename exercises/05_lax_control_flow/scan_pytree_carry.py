"""A scan's carry can be any pytree, but its types are fixed by `init`.

The carry of lax.scan may be a tuple, a dict, nested containers: whatever
pytree `init` is, the body must return the same structure with every leaf the
same shape and dtype, step after step. The compiled loop keeps its state in
buffers sized once, from `init`, so a scalar `0.0` cannot grow into a vector.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html
      https://docs.jax.dev/en/latest/pytrees.html

Task (fix-it): `running_mean(xs)` returns `(stats, means)`: stats is
{"total": sum of xs over the time axis, "count": number of steps}, means[t] is
the mean of xs[0..t]. It works for a series of numbers, shape (T,), but raises
a TypeError for a series of vectors, shape (T, d). Make both work, still with
one lax.scan. Keep the name and the returned structure.
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def running_mean(xs: jnp.ndarray) -> tuple[dict, jnp.ndarray]:
    def step(stats, x):
        total = stats["total"] + x
        count = stats["count"] + 1
        return {"total": total, "count": count}, total / count

    return lax.scan(step, {"total": 0.0, "count": 0}, xs)
