"""Wrong: clips to the visible checks' bound, [-1, 1], whatever bound it is given."""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def _fwd(x, bound):
    return x, None


def _bwd(_, g):
    return jnp.clip(g, -1.0, 1.0), None


clip_gradient.defvjp(_fwd, _bwd)
