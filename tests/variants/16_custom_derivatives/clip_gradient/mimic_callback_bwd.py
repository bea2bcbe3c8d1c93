"""Values right everywhere, but bwd hands the clipping to NumPy through a host callback: not JAX work."""

import jax
import numpy as np


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def _fwd(x, bound):
    return x, bound


def _bwd(bound, g):
    clipped = jax.pure_callback(lambda g, b: np.clip(g, -b, b).astype(g.dtype),
                                jax.ShapeDtypeStruct(g.shape, g.dtype), g, bound,
                                vmap_method="sequential")
    return clipped, None


clip_gradient.defvjp(_fwd, _bwd)
