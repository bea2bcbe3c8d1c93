"""Values right eagerly, idea skipped: a NumPy copy allows item assignment, but under jit the weights are tracers NumPy cannot copy."""

import jax.numpy as jnp
import numpy as np

BONUS = 1.0
FACTOR = 0.5


def reweight(weights, banned, boosted, damped):
    out = np.array(weights)
    out[np.asarray(banned)] = 0.0
    out[np.asarray(boosted)] += BONUS
    out[np.asarray(damped)] *= FACTOR
    return jnp.asarray(out)
