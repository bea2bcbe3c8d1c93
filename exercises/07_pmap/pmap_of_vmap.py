"""pmap(vmap(f)): devices outside, a batch on each device inside.

Transformations compose. `jax.vmap(f)` turns a one-example function into a
batched one; `jax.pmap` of that runs one batch per device. Inputs then have
shape (devices, batch_per_device, ...): pmap takes the first axis, vmap the
second, and `f` still only ever sees one example. (jax.shard_map needs no
device axis: a flat batch split over a mesh axis reaches each device as a
block of examples, and vmap alone maps it.)
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html

Task (fill-in): `affine(a, b, c)` computes `a @ b + c` for ONE example: a of
shape (m, k), b of shape (k, p), c of shape (p,). Write
`affine_everywhere(a, b, c)` for a of shape (devices, batch, m, k), b of
shape (devices, batch, k, p) and c of shape (devices, batch, p), with
devices = `jax.device_count()`: it returns shape (devices, batch, m, p),
entry [i, j] being `affine(a[i, j], b[i, j], c[i, j])`, each device
computing its own batch under `jax.pmap` (or `jax.shard_map`). Repeated
calls reuse one compiled program (build the mapped function once). Keep both
signatures.
"""

import jax
import jax.numpy as jnp


def affine(a: jnp.ndarray, b: jnp.ndarray, c: jnp.ndarray) -> jnp.ndarray:
    return a @ b + c


def affine_everywhere(a: jnp.ndarray, b: jnp.ndarray, c: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: jax.pmap(jax.vmap(affine))")
