"""Wrong: right numbers from global jnp ops, but no per-device program and no collective written."""

import jax.numpy as jnp


def partial_and_total(x, mesh):
    n = mesh.shape["data"]
    return x.reshape(n, -1).sum(axis=1), jnp.sum(x)
