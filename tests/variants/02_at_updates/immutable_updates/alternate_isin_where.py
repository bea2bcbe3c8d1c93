"""Right, unusually: no scatter at all; membership masks from jnp.isin select each weight's new value."""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights, banned, boosted, damped):
    ids = jnp.arange(weights.shape[0])
    out = jnp.where(jnp.isin(ids, banned), 0.0, weights)
    out = jnp.where(jnp.isin(ids, boosted), out + BONUS, out)
    return jnp.where(jnp.isin(ids, damped), out * FACTOR, out)
