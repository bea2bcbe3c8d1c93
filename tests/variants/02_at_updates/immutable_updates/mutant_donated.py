"""Wrong: donating `weights` makes the update truly in place, and deletes the caller's array."""

from functools import partial

import jax

BONUS = 1.0
FACTOR = 0.5


@partial(jax.jit, donate_argnums=0)
def reweight(weights, banned, boosted, damped):
    weights = weights.at[banned].set(0.0)
    weights = weights.at[boosted].add(BONUS)
    return weights.at[damped].multiply(FACTOR)
