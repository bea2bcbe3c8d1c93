"""Values right, idea skipped: a fresh jitted lambda per call closes over the flag and recompiles every time."""

import jax


def apply_sign(x, neg):
    return jax.jit(lambda v: -v if neg else v)(x)
