"""Right, unusually: build 0/1 masks by scattering into zeros, then combine them with jnp.where."""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights, banned, boosted, damped):
    def mask(ids):
        return jnp.zeros(weights.shape, bool).at[ids].set(True)

    out = jnp.where(mask(banned), 0.0, weights)
    out = out + jnp.where(mask(boosted), BONUS, 0.0)
    return out * jnp.where(mask(damped), FACTOR, 1.0)
