"""Values right, tool wrong: the custom_vjp sits on a term that is 0 forward, added to x; autodiff's
gradient of x plus the term's cotangent, clip(g) - g, adds up to clip(g)."""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def _correction(x, bound):
    return jnp.zeros_like(x)


def _fwd(x, bound):
    return jnp.zeros_like(x), bound


def _bwd(bound, g):
    return jnp.clip(g, -bound, bound) - g, None


_correction.defvjp(_fwd, _bwd)


def clip_gradient(x, bound):
    return x + _correction(x, bound)
