"""Values right, idea skipped: called, Python picks the weight on the host and one jitted multiply
applies it; traced (as a check reading its program traces it), it shows a select inside a jitted
program, one that zeroes the negative residuals instead of weighting them by TAU - 1. A subject
rewritten to forge its traces would hand in such a program."""

import jax
import jax.numpy as jnp

TAU = 0.9


@jax.jit
def _weighted(residual, weight):
    return weight * residual


@jax.jit
def _for_show(residual):
    return jnp.where(residual > 0, TAU * residual, 0.0)


def pinball_loss(residual):
    if isinstance(residual, jax.core.Tracer):
        return _for_show(residual)
    weight = TAU if residual > 0 else TAU - 1
    return _weighted(residual, weight)
