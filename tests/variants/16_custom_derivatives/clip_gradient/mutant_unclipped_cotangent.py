"""Wrong: bwd passes the cotangent through untouched, so nothing is clipped (a plain identity)."""

import jax


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def _fwd(x, bound):
    return x, None


def _bwd(_, g):
    return g, None


clip_gradient.defvjp(_fwd, _bwd)
