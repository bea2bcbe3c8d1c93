"""Wrong: `.set(BONUS)` replaces the boosted weights instead of adding BONUS to them."""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights, banned, boosted, damped):
    weights = weights.at[banned].set(0.0)
    weights = weights.at[boosted].set(BONUS)
    return weights.at[damped].multiply(FACTOR)
