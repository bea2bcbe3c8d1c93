"""Nested vmap: every pair without a loop.

One vmap adds one batch axis. To compare every x with every y, map twice:
the inner vmap holds one x fixed and maps over the ys (`in_axes=(None, 0)`),
the outer vmap maps that over the xs (`in_axes=(0, None)`). The result has
one axis per vmap, outer first: shape (len(xs), len(ys)).
Docs: https://docs.jax.dev/en/latest/automatic-vectorization.html

Task (fill-in): `distance(x, y)` is the Euclidean distance between two
points of shape (d,). Write `pairwise_distances(xs, ys)` for xs of shape
(n, d) and ys of shape (m, d), returning the (n, m) matrix whose entry
[i, j] is `distance(xs[i], ys[j])`, by nesting `jax.vmap` around
`distance` (no Python loops). Keep both signatures.
"""

import jax
import jax.numpy as jnp


def distance(x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    return jnp.sqrt(jnp.sum((x - y) ** 2))


def pairwise_distances(xs: jnp.ndarray, ys: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: vmap distance over ys (x fixed), then vmap that over xs")
