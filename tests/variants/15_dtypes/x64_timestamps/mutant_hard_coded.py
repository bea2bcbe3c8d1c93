"""Wrong: hard-codes the milliseconds of the visible timestamps, looked up by their count (only the hidden check catches it)."""

import jax
import jax.numpy as jnp

VISIBLE = {5: [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_001, 1_712_345_678_901, 1_699_999_999_999]}


def to_milliseconds(ns):
    with jax.enable_x64(True):
        return jnp.asarray(VISIBLE.get(ns.shape[0], [0] * ns.shape[0]), dtype=jnp.int64)
