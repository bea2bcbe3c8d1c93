"""Wrong: `.set(FACTOR)` replaces the damped weights instead of scaling them by FACTOR."""

import jax.numpy as jnp

BONUS = 1.0
FACTOR = 0.5


def reweight(weights, banned, boosted, damped):
    weights = weights.at[banned].set(0.0)
    weights = weights.at[boosted].add(BONUS)
    return weights.at[damped].set(FACTOR)
