"""in_axes: tell vmap where each argument keeps its batch.

`in_axes` has one entry per argument: an axis number says "the examples run
along this axis", `None` says "one value shared by every example". vmap only
checks that the mapped axes have the same length. If you name the wrong axis
of a square array, every slice still has the right shape, so nothing fails:
the examples are paired with the wrong data and the numbers are silently wrong.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html

Task (fix-it): `add_three(a, b, c)` adds three vectors of length n. In the
batched call, `a` has shape (batch, n) with one example per row, `b` has shape
(n,) and is shared, and `c` has shape (n, batch) with one example per
*column*. `add_batched(a, b, c)` must return shape (batch, n), row i being
`a[i] + b + c[:, i]`. It was only ever tried on square data, where it runs,
but the numbers are wrong. Keep the names and the signature.
"""

import jax
import jax.numpy as jnp


def add_three(a: jnp.ndarray, b: jnp.ndarray, c: jnp.ndarray) -> jnp.ndarray:
    return a + b + c


add_batched = jax.vmap(add_three, in_axes=(0, None, 0))
