"""Right, differently: clips with jnp.where, keeps residuals in a tuple, and gives bound a zero cotangent."""

import jax
import jax.numpy as jnp


def _identity(x, bound):
    return x


clip_gradient = jax.custom_vjp(_identity)


def _fwd(x, bound):
    return x, (bound,)


def _bwd(residuals, g):
    (bound,) = residuals
    clipped = jnp.where(g > bound, bound, jnp.where(g < -bound, -bound, g)).astype(g.dtype)
    return clipped, jnp.zeros_like(bound)


clip_gradient.defvjp(_fwd, _bwd)
